import * as path from "node:path";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../cli/run-cli.ts";
import { restoreCommand } from "../../../cli/commands/restore.ts";
import { successorCommand } from "../../../cli/commands/successor.ts";
import { listCommand } from "../../../cli/commands/list.ts";
import { showCommand } from "../../../cli/commands/show.ts";
import { MemoryFixture, ROOT } from "../../helpers/memory-fixture.ts";
import { briefRepeats } from "../../helpers/brief-repeats.ts";

const COMMANDS = [restoreCommand, successorCommand, listCommand, showCommand];
const CUR = "cccc0000-0000-0000-0000-000000000001";

function cli(f: MemoryFixture, argv: string[], env: Record<string, string> = {}) {
  let out = "";
  let err = "";
  const code = runCli(
    argv,
    f.deps(env),
    { stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => "" },
    COMMANDS,
  );
  return { code, out, err };
}

describe("restore --json", () => {
  it("prints one object with action choose and numbered candidates", () => {
    const f = new MemoryFixture();
    f.sentinel("s-1", f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }));
    f.checkpoint("2026-11-28-beta.md", { task: "beta", ageDays: 0.5, sessionId: "legacy" });
    const r = cli(f, ["restore", "--json", "--session", CUR]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n")).toHaveLength(1);
    const j = JSON.parse(r.out);
    expect(j.action).toBe("choose");
    expect(
      j.candidates.map((c: { n: number; source: string; legacy: boolean }) => [
        c.n,
        c.source,
        c.legacy,
      ]),
    ).toEqual([
      [1, "sentinel", false],
      [2, "disk-only", true],
    ]);
    // the task and the time are said once, in the menu's rows (show)
    const rows = (j.show as string[]).filter((l) => /^\s+\d+\./.test(l));
    expect(rows[0]).toContain("2026-11-29 11:00 UTC: alpha [main]");
    expect(rows[1]).toContain("2026-11-28 (legacy): beta [main]");
    expect(j).not.toHaveProperty("menu");
  });

  it("says each fact once in the picker, the synthesis offer, nothing to restore and a refusal", () => {
    const answer = (f: MemoryFixture, argv: string[] = []) =>
      JSON.parse(cli(f, ["restore", "--json", "--session", CUR, ...argv]).out);
    const two = new MemoryFixture();
    two.sentinel(
      "s-1",
      two.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }),
    );
    two.sentinel(
      "s-2",
      two.checkpoint("2026-11-29T1000-a-longer-task-name-here.md", {
        task: "a-longer-task-name-here",
        ageDays: 0.02,
        extra: { intent: "wire the export button behind its flag and write its docs page" },
      }),
    );
    const state = new MemoryFixture();
    state.sessionState(
      "2026-11-29-gamma-with-a-long-name.md",
      "## Current stage\nworking on it\n",
      0.01,
    );
    const answers = {
      choose: answer(two),
      synthesize: answer(state),
      none: answer(new MemoryFixture()),
      invalid: answer(two, ["--pick", "9"]),
    };
    for (const [action, j] of Object.entries(answers)) {
      expect(j.action, action).toBe(action);
      expect(briefRepeats(j), action).toEqual([]);
    }
    expect(answers.invalid.reason).toContain("9");
    expect(answers.none.show.join("\n")).not.toBe("");
  });

  it("prints a numbered picker a person can read: the kind of save, when, what it was doing", () => {
    const f = new MemoryFixture();
    f.sentinel("s-1", f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }));
    f.checkpoint("2026-11-28-beta.md", {
      task: "beta",
      ageDays: 0.5,
      sessionId: "legacy",
      extra: { status: "checkpoint save (voluntary)", intent: "(newest request) continue" },
    });
    const r = cli(f, ["restore", "--session", CUR]);
    expect(r.out.split("\n").slice(0, 4)).toMatchInlineSnapshot(`
      [
        "Several recent checkpoints. Which one do you want to restore?",
        "   1. * saved, 2026-11-29 11:00 UTC: alpha [main]  "keep going"",
        "   2.   your /checkpoint, 2026-11-28 (legacy): beta [main]  last asked "continue"",
        "Enter a number (rerun with --pick N), or 'skip'.",
      ]
    `);
    expect(r.out).not.toMatch(/\(sentinel\)|\(disk-only\)|\(legacy\) {2}|notes in \[/);
  });

  it("refuses a --pick that is not a number (exit 2)", () => {
    const f = new MemoryFixture();
    const r = cli(f, ["restore", "--pick", "two", "--session", CUR]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--pick");
  });

  it("answers a refused --pick or --session with one invalid object under --json (exit 2)", () => {
    const f = new MemoryFixture();
    for (const argv of [
      ["restore", "--json", "--pick", "two", "--session", CUR],
      ["restore", "--json", "--session", "not a session id"],
    ]) {
      const r = cli(f, argv);
      expect(r.code).toBe(2);
      expect(r.out.trim().split("\n")).toHaveLength(1);
      expect(JSON.parse(r.out)).toMatchObject({ action: "invalid" });
      // the seed: asked again once, then skipped
      expect(JSON.parse(r.out).next.join(" ")).toContain("ask the user once more");
      expect(
        JSON.parse(cli(f, ["restore", "--json", "--pick", "9", "--session", CUR]).out).next.join(
          " ",
        ),
      ).toContain("--replay none");
    }
  });

  it("exits 2 with an invalid --replay, printing the reason as JSON", () => {
    const f = new MemoryFixture();
    f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }));
    f.prompt(CUR, "legacy prompt");
    const r = cli(f, ["restore", "--json", "--replay", "maybe", "--session", CUR]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ action: "invalid" });
  });

  it("refuses a malformed --session, but takes '' and 'unknown' as 'no id'", () => {
    const f = new MemoryFixture();
    expect(cli(f, ["restore", "--session", "../../etc"]).code).toBe(2);
    expect(cli(f, ["restore", "--json", "--session", "unknown"]).code).toBe(0);
    expect(cli(f, ["restore", "--json", "--session", ""]).code).toBe(0);
  });

  it("runs without a session id: skips the fast path with a warning", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    const r = cli(f, ["restore", "--json"]);
    expect(JSON.parse(r.out)).toMatchObject({ action: "restore", path: "3a" });
    expect(f.warnings.join("\n")).toContain("fast path is skipped");
  });
});

describe("restore knobs", () => {
  it("reads the windows from QUOIN_ env knobs, and warns on a bad value", () => {
    const f = new MemoryFixture();
    f.sentinel("s-1", f.checkpoint("2026-11-20T1100-alpha.md", { task: "alpha", ageDays: 9 }), 9);
    expect(JSON.parse(cli(f, ["restore", "--json", "--session", CUR]).out).path).toBe("3a");
    expect(
      JSON.parse(
        cli(f, ["restore", "--json", "--session", CUR], { QUOIN_RESTORE_SENTINEL_WINDOW: "10" })
          .out,
      ).path,
    ).toBe("3");
  });
  it("uses the default and says so for an invalid knob", () => {
    const f = new MemoryFixture();
    cli(f, ["restore", "--json", "--session", CUR], { QUOIN_RESTORE_STALE_DAYS: "soon" });
    expect(f.warnings.join("\n")).toContain("QUOIN_RESTORE_STALE_DAYS");
  });
});

describe("restore hints for the skill", () => {
  it("names the flags to rerun with when a question is open", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1000-beta.md", { task: "beta", ageDays: 0.1 });
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.prompt(CUR, "blocked prompt");
    let text = "";
    const j = JSON.parse(cli(f, ["restore", "--json", "--pick", "2", "--session", CUR]).out);
    expect(j).toMatchObject({
      action: "restore",
      done: false,
      needs: ["replay"],
      rerun: ["--pick", "2"],
    });
    // Runnable as printed: the engine's own file, quoted for a shell.
    const out = runCli(
      ["restore", "--pick", "2", "--session", CUR],
      { ...f.deps(), engineScript: "/h/a b/quoin-checkpoint.cjs" },
      { stdout: (t) => (text += t), stderr: () => {}, readStdin: () => "" },
      COMMANDS,
    );
    expect(out).toBe(0);
    expect(text).toContain(
      `Answer, then rerun: node "/h/a b/quoin-checkpoint.cjs" --session ${CUR} restore --pick 2 --replay all|N,M|none|edit N`,
    );
  });

  it("explains a suppressed single candidate when there is nothing to synthesize from", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-10T1100-alpha.md", { task: "alpha", ageDays: 19 });
    f.sessionState("2026-11-19-beta.md", undefined, 10);
    const j = JSON.parse(cli(f, ["restore", "--json", "--session", CUR]).out);
    expect(j.action).toBe("choose");
    expect(j.show.join("\n")).toContain("None of these is restored by itself");
  });

  it("mentions a mid-agent handoff of this session (names only)", () => {
    const f = new MemoryFixture();
    f.write(
      `${f.paths.memory}/mid-agent-handoff-${CUR}.txt`,
      `prior_session_uuid=${CUR}\ntask_name=alpha\nactive_skills=implement\ntimestamp=2026-11-29T10:00:00Z\n`,
    );
    const j = JSON.parse(cli(f, ["restore", "--json", "--session", CUR]).out);
    expect(j.midAgentHandoff).toMatchObject({
      prior_session_uuid: CUR,
      task_name: "alpha",
      active_skills: "implement",
    });
    expect(cli(f, ["restore", "--session", CUR]).out).toContain(
      `mid-agent handoff from session ${CUR} (task alpha); skills active then: implement`,
    );
  });

  it("ignores a handoff whose content does not validate", () => {
    const f = new MemoryFixture();
    f.write(`${f.paths.memory}/mid-agent-handoff-${CUR}.txt`, "prior_session_uuid=../../etc\n");
    expect(
      JSON.parse(cli(f, ["restore", "--json", "--session", CUR]).out).midAgentHandoff,
    ).toBeNull();
  });
});

describe("list and show", () => {
  it("lists every checkpoint newest first, and shows one by number, name or path", () => {
    const f = new MemoryFixture();
    const a = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.sentinel("s-1", a);
    f.checkpoint("2026-09-01-beta-precompact.md", { task: "beta", ageDays: 89, skeleton: true });
    const list = JSON.parse(cli(f, ["list", "--json"]).out);
    expect(
      list.checkpoints.map((c: { n: number; task: string; sentinels: string[] }) => [
        c.n,
        c.task,
        c.sentinels.length,
      ]),
    ).toEqual([
      [1, "alpha", 1],
      [2, "beta", 0],
    ]);
    const text = cli(f, ["list"]).out;
    expect(text).toContain("1. * 2026-11-29 11:00 UTC");
    expect(text).toContain("2026-09-01 (precompact)");
    // the hint names a real row, and runs as printed (the engine's words after its path)
    const hint = /^show one with: node \S+ (show \S+)/m.exec(text);
    expect(hint?.[1]).toBe("show 1");
    const shown = cli(f, hint![1]!.split(" "));
    expect(shown.code).toBe(0);
    expect(shown.out).toContain("## Active task\nalpha");
    for (const arg of ["1", "2026-11-29T1100-alpha.md", a])
      expect(cli(f, ["show", arg]).out).toContain("## Active task\nalpha");
  });

  it("show refuses a file outside checkpoints/ and a number out of range", () => {
    const f = new MemoryFixture();
    f.write("/etc/passwd.md", "x".repeat(200));
    expect(cli(f, ["show", "/etc/passwd.md"]).code).toBe(2);
    expect(cli(f, ["show", "5"]).err).toContain("no checkpoint number 5");
  });

  it("show --json answers a refusal with one object (exit 2)", () => {
    const f = new MemoryFixture();
    for (const argv of [
      ["show", "--json", "5"],
      ["show", "--json"],
      ["show", "--json", "/etc/passwd.md"],
    ]) {
      const r = cli(f, argv);
      expect(r.code).toBe(2);
      expect(r.out.trim().split("\n")).toHaveLength(1);
      expect(JSON.parse(r.out)).toMatchObject({ ok: false });
    }
  });
});

describe("successor", () => {
  it("prints the claude -p command for the newest checkpoint without launching anything", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    const r = cli(f, ["successor"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\nclaude -p 'Resume the work of an earlier Claude Code session/);
    expect(f.runs.some((x) => x.cmd === "claude")).toBe(false);
  });

  it("--launch runs claude -p through Deps.run with the prompt as one argument", () => {
    const f = new MemoryFixture();
    const cp = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.runResult = (cmd) =>
      cmd === "claude"
        ? { status: 0, stdout: "successor done", stderr: "" }
        : { status: 128, stdout: "", stderr: "" };
    const r = cli(f, ["successor", "--launch", "--json"]);
    const launched = f.runs.filter((x) => x.cmd === "claude");
    expect(launched).toHaveLength(1);
    expect(launched[0]!.args[0]).toBe("-p");
    expect(launched[0]!.args[1]).toContain(`--- ${cp} ---`);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, launched: true, stdout: "successor done" });
  });

  it("prints a command that sh runs as one claude -p argument, whatever the checkpoint holds", () => {
    const f = new MemoryFixture();
    const nasty = '$(touch /tmp/quoin-pwned) `id` it\'s "q" \\ ${HOME}\nline two; rm -rf x\n';
    f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      ageDays: 0.01,
      extra: { intent: nasty },
    });
    const j = JSON.parse(cli(f, ["successor", "--json"]).out) as {
      argv: string[];
      command: string;
    };
    // A stand-in claude that prints its second argument; nothing in the prompt may run.
    const res = spawnSync("sh", ["-c", `claude() { printf %s "$2"; }\n${j.command}`], {
      encoding: "utf8",
    });
    expect(res.stdout).toBe(j.argv[2]);
    expect(j.argv[2]).toContain("$(touch /tmp/quoin-pwned)");
  });

  it("never hands over a checkpoint that holds nothing of a session (the old save from nothing): the newest one that does, else a refusal", () => {
    const nothing = readFileSync(
      path.join(import.meta.dirname, "../../fixtures/nothing-known-checkpoint.md"),
      "utf8",
    );
    const f = new MemoryFixture();
    const alpha = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.5 });
    f.checkpoint("2026-11-29T1200-unknown.md", { task: "x", raw: nothing, ageDays: 0.01 });
    const j = JSON.parse(cli(f, ["successor", "--json"]).out) as { checkpoint: string };
    expect(j.checkpoint).toBe(alpha);
    const only = new MemoryFixture();
    only.checkpoint("2026-11-29T1200-unknown.md", { task: "x", raw: nothing, ageDays: 0.01 });
    const r = cli(only, ["successor"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("1 hold nothing of a session");
    expect(only.runs.some((x) => x.cmd === "claude")).toBe(false);
  });

  it("stops early when there is no checkpoint", () => {
    const f = new MemoryFixture();
    expect(cli(f, ["successor"]).code).toBe(1);
  });

  it("--launch passes the permission mode the person chose, else says plainly that approvals are refused", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.runResult = (cmd) =>
      cmd === "claude"
        ? { status: 0, stdout: "ok", stderr: "" }
        : { status: 128, stdout: "", stderr: "" };
    const chosen = JSON.parse(
      cli(f, ["successor", "--launch", "--json", "--permission-mode", "acceptEdits"]).out,
    );
    expect(f.runs.filter((x) => x.cmd === "claude")[0]!.args.slice(2)).toEqual([
      "--permission-mode",
      "acceptEdits",
    ]);
    expect(chosen.permissions).toBe("the successor runs with --permission-mode acceptEdits");
    const plain = cli(f, ["successor", "--launch"]);
    expect(plain.out).toContain("every tool call that needs approval is refused in claude -p");
    expect(() => cli(f, ["successor", "--permission-mode", "yolo"])).not.toThrow();
    expect(cli(f, ["successor", "--permission-mode", "yolo"]).code).not.toBe(0);
  });

  it("--launch consumes the predecessor's pending-restore naming that checkpoint, as a restore does", () => {
    const f = new MemoryFixture();
    const cp = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    const pred = f.sentinel("aaaa0000-0000-0000-0000-00000000000a", cp);
    const other = f.sentinel(
      "bbbb0000-0000-0000-0000-00000000000b",
      f.checkpoint("2026-11-29T0900-beta.md", { task: "beta", ageDays: 0.05 }),
    );
    f.runResult = () => ({ status: 0, stdout: "", stderr: "" });
    cli(f, ["successor"]);
    expect(f.exists(pred)).toBe(true);
    const j = JSON.parse(cli(f, ["successor", "--launch", "--json"]).out);
    expect(f.exists(pred)).toBe(false);
    expect(f.exists(other)).toBe(true);
    expect(j.consumed.map((t: { from: string }) => t.from)).toEqual([pred]);
  });
});

describe("the next session receives the digest", () => {
  const digest = {
    firstRequest: { text: "Add CSV export", at: "2026-11-29T09:00:00Z" },
    requests: [{ text: "now wire the download button", at: "2026-11-29T10:00:00Z" }],
    requestCount: 2,
    changed: [
      { path: "lib/csv-export.ts", count: 3 },
      { path: "lib/gone.ts", count: 1 },
    ],
    read: [{ path: "lib/report.ts", count: 1 }],
    todos: [{ content: "Wire the button", status: "in_progress" as const }],
    failures: [{ command: "npm test", error: "1 failed", at: null }],
    summary: null,
    truncated: false,
  };

  it("restore --json says requests, working set, todos and failures once in show, gives the files to re-read and the closing question's options", () => {
    const f = new MemoryFixture();
    f.write(`${ROOT}/lib/csv-export.ts`, "x");
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-csv.md", {
        task: "csv",
        sessionId: "dddd0000-0000-0000-0000-000000000001",
        extra: { digest, done: ["T-1 exporter"], inProgress: "T-2 button" },
      }),
    );
    const j = JSON.parse(cli(f, ["restore", "--json", "--session", CUR]).out);
    expect(j.action).toBe("restore");
    // each fact once: the requests, working set, todos and failures are the brief's lines
    expect(j.session).toBeUndefined();
    const show = j.show.join("\n");
    expect(show).toContain("First request: Add CSV export");
    expect(show).toContain("  [>] Wire the button");
    expect(show).toContain(
      "Changed files (newest first): lib/csv-export.ts (3 times), lib/gone.ts",
    );
    expect(show).toContain("Read files (newest first): lib/report.ts");
    expect(show).toContain("Failed: `npm test`: 1 failed");
    expect(show).toContain("  - T-1 exporter");
    expect(show).toContain("In progress: T-2 button");
    // only the changed files that still exist, as absolute paths
    expect(j.reread).toEqual([`${ROOT}/lib/csv-export.ts`]);
    expect(j.next.join("\n")).toContain("Read each file in `reread` now (1).");
    expect(j.next.join("\n")).toContain(
      'Restate the todos and the newest request, then ask the user what to do next: AskUserQuestion "What next?": "Carry on: T-2 button" / "Read the whole checkpoint file first" / "Something else".',
    );
    expect(j.show.join("\n")).toContain("Newest request: now wire the download button");
  });

  it("the text form prints them", () => {
    const f = new MemoryFixture();
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-csv.md", {
        task: "csv",
        sessionId: "dddd0000-0000-0000-0000-000000000001",
        extra: { digest },
      }),
    );
    const out = cli(f, ["restore", "--session", CUR]).out;
    expect(out).toContain("Newest request: now wire the download button");
    expect(out).toContain("  [>] Wire the button");
    expect(out).toContain("Changed files (newest first): lib/csv-export.ts (3 times), lib/gone.ts");
    expect(out).toContain("Read files (newest first): lib/report.ts");
    expect(out).toContain("Failed: `npm test`: 1 failed");
  });

  it("list and the picker rows show the intent or newest request, so two saves of one task in one minute differ", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1100-csv.md", {
      task: "csv",
      extra: { intent: "(newest request) wire the button" },
    });
    f.checkpoint("2026-11-29T1100-csv-2.md", {
      task: "csv",
      extra: { intent: "(newest request) write the docs" },
    });
    const list = cli(f, ["list"]).out;
    expect(list).toContain('last asked "wire the button"');
    expect(list).toContain('last asked "write the docs"');
    const j = JSON.parse(cli(f, ["restore", "--json", "--session", CUR]).out);
    expect(j.action).toBe("choose");
    expect(j.show.join("\n")).toContain('last asked "wire the button"');
    expect(j.show.join("\n")).toContain('last asked "write the docs"');
  });
});
