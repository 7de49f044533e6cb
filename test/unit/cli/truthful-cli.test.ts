import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT_CAUSES, exitFor, type ExitCause } from "../../../cli/answer.ts";
import { COMMAND_HELP } from "../../../cli/command-help.ts";
import { ENGINE_COMMANDS as COMMANDS } from "../../../cli/engine-commands.ts";
import { nearest } from "../../../cli/did-you-mean.ts";
import { commandFirst, runCli } from "../../../cli/run-cli.ts";
import { transcriptDir } from "../../../lib/core/project-hash.ts";
import {
  HOME,
  memWorld,
  ROOT,
  SID,
  transcriptLine,
  type MemWorld,
} from "../../helpers/save-deps.ts";

const GUESSED = "4d5611e5-1111-4222-8333-444455556666";
const NEWEST = path.join(transcriptDir(`${HOME}/.claude`, ROOT), `${GUESSED}.jsonl`);
const ENGINE = "/opt/q/quoin-checkpoint.cjs";

function run(w: MemWorld, argv: string[], stdin = "") {
  let out = "";
  let err = "";
  const code = runCli(
    argv,
    { ...w.deps, engineScript: ENGINE, warn: (l) => (err += `${l}\n`) },
    { stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => stdin },
    COMMANDS,
  );
  return { code, out, err };
}

/** A project whose newest transcript (the only one) belongs to GUESSED. */
const withTranscript = () => memWorld({ [NEWEST]: transcriptLine(20_000) });

describe("a mistyped flag or command is answered in the engine's words", () => {
  it("names the flag as typed and the nearest one, never node's parser text", () => {
    const r = run(memWorld(), ["status", "--jsno"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("quoin-checkpoint: status: unknown option --jsno; did you mean --json?\n");
    expect(r.err).not.toMatch(/positional|To specify/);
  });

  it("the same for a command, and for a flag with no near match lists nothing false", () => {
    expect(run(memWorld(), ["stauts"]).err).toContain(
      "unknown command stauts; did you mean status?",
    );
    expect(run(memWorld(), ["status", "--zzzzzz"]).err).toBe(
      "quoin-checkpoint: status: unknown option --zzzzzz\n",
    );
  });

  it("a flag that needs a value, and a switch given one", () => {
    expect(run(memWorld(), ["status", "--session"]).err).toContain("--session needs a value");
    expect(run(memWorld(), ["status", "--json=yes"]).err).toContain("--json takes no value");
  });

  it("under --json the refusal is one object too", () => {
    const r = run(memWorld(), ["status", "--jsno", "--json"]);
    expect(JSON.parse(r.out)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("--jsno"),
    });
    const j = run(memWorld(), ["save", "--nxet", "x", "--json"]);
    expect(JSON.parse(j.out)).toMatchObject({
      ok: false,
      reason: "save: unknown option --nxet; did you mean --next?",
    });
  });

  it("nearest: one edit for short words, two for longer, none on a tie", () => {
    expect(nearest("--jsno", ["--json", "--cwd"])).toBe("--json");
    expect(nearest("restor", ["restore", "status"])).toBe("restore");
    expect(nearest("sav", ["save", "show"])).toBe("save");
    expect(nearest("xyz", ["save", "show"])).toBeNull();
  });
});

describe("a session taken without --session is named", () => {
  it("status says which session it took and how", () => {
    const r = run(withTranscript(), ["status"]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("session 4d5611e5 (newest transcript in this project)");
  });

  it("and from CLAUDE_CODE_SESSION_ID; nothing with --session", () => {
    const w = withTranscript();
    w.deps.env = { CLAUDE_CODE_SESSION_ID: GUESSED };
    expect(run(w, ["status"]).err).toContain("session 4d5611e5 (from CLAUDE_CODE_SESSION_ID)");
    expect(run(withTranscript(), ["status", "--session", GUESSED]).err).not.toContain(
      "session 4d5611e5",
    );
  });

  it("restore with a guessed session never claims the checkpoint is the person's own session", () => {
    const w = withTranscript();
    expect(run(w, ["save", "--session", GUESSED, "--mode", "restore", "--task", "t1"]).code).toBe(
      0,
    );
    const guessed = run(w, ["restore"]);
    expect(guessed.err).toContain("session 4d5611e5 (newest transcript in this project)");
    expect(guessed.out).not.toContain("saved in your current session");
    // named with --session it is the person's word: the same-session question stands
    const named = run(w, ["restore", "--session", GUESSED]);
    expect(named.out).toContain("saved in your current session");
    // the rerun it prints names the session, and runs as printed
    const rerun = /rerun: node "\/opt\/q\/quoin-checkpoint.cjs" (.*)$/m.exec(named.out)?.[1];
    expect(rerun).toBe(`--session ${GUESSED} restore --proceed`);
    expect(run(w, rerun!.split(" ")).code).toBe(0);
  });

  it("common options may come before the command (the form reruns print)", () => {
    expect(commandFirst(["--session", "x", "--json", "restore", "--pick", "2"])).toEqual([
      "restore",
      "--session",
      "x",
      "--json",
      "--pick",
      "2",
    ]);
    expect(commandFirst(["restore", "--session", "x"])).toEqual(["restore", "--session", "x"]);
  });
});

describe("one exit code for one cause, across commands", () => {
  const rows: Array<[ExitCause, string[], () => MemWorld]> = [
    ["no session", ["status"], memWorld],
    ["no session", ["defer"], memWorld],
    ["no session", ["snapshot", "--kind", "forced"], memWorld],
    ["bad value", ["save", "--session", "../x"], memWorld],
    ["bad value", ["defer", "--session", "../x"], memWorld],
    ["bad value", ["cleanup", "--session", "../x"], memWorld],
    ["bad value", ["status", "--session", "../x"], memWorld],
    ["bad value", ["save", "--mode", "bogus"], memWorld],
    ["unknown command or option", ["stauts"], memWorld],
    ["unknown command or option", ["save", "--jsno"], memWorld],
    ["unknown command or option", ["defer", "--jsno"], memWorld],
    ["not in a project", ["list", "--cwd", HOME], memWorld],
    ["no transcript", ["status", "--session", SID], memWorld],
    ["nothing to save", ["save"], memWorld],
    ["nothing to save", ["save", "--session", "unknown"], memWorld],
    ["done", ["status"], withTranscript],
    ["done", ["defer"], withTranscript],
    ["done", ["save", "--task", "t1"], memWorld],
  ];
  it.each(rows)("%s: %j", (cause, argv, world) => {
    const r = run(world(), argv);
    expect(r.code, r.err).toBe(exitFor(cause));
  });

  it("every cause of the table is exercised", () => {
    const seen = new Set(rows.map((r) => r[0]));
    const untested = EXIT_CAUSES.map((c) => c.cause).filter(
      (c) => !seen.has(c) && c !== "needs an answer" && c !== "refused",
    );
    expect(untested).toEqual([]);
  });
});

describe("messages that name the fault", () => {
  it("a session with no transcript says so, with the id and the path", () => {
    const r = run(memWorld(), ["status", "--session", SID]);
    const where = path.join(transcriptDir(`${HOME}/.claude`, ROOT), `${SID}.jsonl`);
    expect(r.out).toBe(`[checkpoint] no transcript for session ${SID} at ${where}\n`);
  });
});

describe("a save that knows nothing of the session", () => {
  it("writes nothing, exits 1 and says how to give it something", () => {
    const w = memWorld();
    const r = run(w, ["save"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("nothing to save: no session id, no transcript and no notes");
    expect(r.err).toContain("--session ID");
    expect(w.files()).toEqual([]);
  });

  it("with the model's notes it saves as the seed says: a warning, no sentinel", () => {
    const w = memWorld();
    const r = run(w, ["save", "--json"], "");
    expect(JSON.parse(r.out)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("nothing to save"),
    });
    const doc = run(w, ["save", "--json", "--stdin-json"], '{"inProgress":"the parser"}');
    const j = JSON.parse(doc.out) as { ok: boolean; sentinel: unknown; warnings: string[] };
    expect(j.ok).toBe(true);
    expect(j.sentinel).toBeNull();
    expect(j.warnings.join("\n")).toContain("session UUID unavailable");
  });
});

describe("help per command", () => {
  it("every command has an entry, and --help prints its usage and a runnable example", () => {
    for (const c of COMMANDS) {
      expect(COMMAND_HELP[c.name], c.name).toBeDefined();
      const r = run(memWorld(), [c.name, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`usage: quoin-checkpoint ${c.name}`);
      expect(r.out).toContain(`example:\n  node "${ENGINE}" ${c.name}`);
    }
  });

  it("no word of the seed's inner language in help a person reads", () => {
    const texts = [
      run(memWorld(), ["--help"]).out,
      ...COMMANDS.map((c) => run(memWorld(), [c.name, "--help"]).out),
    ]
      .join("\n")
      .replace(/--[\w-]+/g, "--flag"); // a flag's own name (--tier) is how it is typed, not prose
    expect(texts).not.toMatch(
      /\btiers?\b|\bgate\b|\bB[1-3]\b|CASE [A-C]|clause [A-C]|sentinel|ledger|skeleton|rotation/i,
    );
  });

  it("each example runs as printed: no usage error", () => {
    for (const [name, help] of Object.entries(COMMAND_HELP))
      for (const example of help.examples) {
        const argv = example.match(/"[^"]*"|\S+/g)!.map((a) => a.replace(/^"|"$/g, ""));
        if (argv.includes("<")) argv.splice(argv.indexOf("<"), 2);
        const w = withTranscript();
        run(w, ["save", "--session", GUESSED, "--mode", "restore", "--task", "t1"]);
        const r = run(w, argv);
        expect(r.code, `${name}: ${example}\n${r.err}`).not.toBe(2);
      }
  });
});
