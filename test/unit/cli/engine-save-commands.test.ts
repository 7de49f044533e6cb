import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { describe, expect, it } from "vitest";
import { cleanupCommand } from "../../../cli/commands/cleanup.ts";
import { deferCommand } from "../../../cli/commands/defer.ts";
import { saveCommand } from "../../../cli/commands/save.ts";
import { runCli } from "../../../cli/run-cli.ts";
import {
  CKPTS,
  DAY,
  MEM,
  memWorld,
  OTHER,
  ROOT,
  SID,
  transcriptLine,
  type MemWorld,
} from "../../helpers/save-deps.ts";

function cli(w: MemWorld, argv: string[], stdin = "") {
  let stdout = "";
  let stderr = "";
  const code = runCli(
    argv,
    w.deps,
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), readStdin: () => stdin },
    [saveCommand, deferCommand, cleanupCommand],
  );
  return {
    code,
    stdout,
    stderr,
    json: argv.includes("--json") && stdout ? JSON.parse(stdout) : null,
  };
}

describe("engine: save", () => {
  it("from a subfolder (--cwd <root>/sub) finds the session's transcript by id in another projects folder: the panic tier fires", () => {
    const transcript = `/home/u/.claude/projects/-home-u-proj/${SID}.jsonl`;
    const w = memWorld({ [`${ROOT}/sub/.keep`]: "", [transcript]: transcriptLine(170_000) });
    const r = cli(w, ["save", "--session", SID, "--json", "--cwd", `${ROOT}/sub`]);
    expect(r.json).toMatchObject({ ok: true, mode: "panic" });
  });

  it("--json prints ok, mode, checkpoint, sentinel, warnings first, then the skill's extras", () => {
    const w = memWorld({ [`${ROOT}/.workflow_artifacts/.keep`]: "" });
    const r = cli(w, [
      "save",
      "--session",
      SID,
      "--json",
      "--task",
      "t1",
      "--next",
      "T-2",
      "--blocker",
      "red CI",
    ]);
    expect(r.code).toBe(0);
    expect(Object.keys(r.json).slice(0, 5)).toEqual([
      "ok",
      "mode",
      "checkpoint",
      "sentinel",
      "warnings",
    ]);
    expect(r.json).toMatchObject({
      ok: true,
      mode: "restore",
      checkpoint: `${CKPTS}/2026-11-29T2107-t1.md`,
      sentinel: `${MEM}/pending-restore-${SID}.txt`,
      highUtil: false,
      activeSkills: [],
    });
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("refuses a session id like ../../etc/x with ok:false, the reason, exit 2 (a bad value), and writes nothing", () => {
    const w = memWorld();
    const r = cli(w, ["save", "--session", "../../etc/x", "--json"]);
    expect(r.code).toBe(2);
    expect(r.json).toEqual({
      ok: false,
      reason: expect.stringContaining('--session: session id "../../etc/x" is not valid'),
    });
    expect(w.files()).toEqual([]);
  });

  it("goes on without a sentinel for --session unknown when the model gave notes, with the seed's warning", () => {
    const w = memWorld();
    const r = cli(w, [
      "save",
      "--session",
      "unknown",
      "--json",
      "--mode",
      "restore",
      "--task",
      "t1",
    ]);
    expect(r.json.ok).toBe(true);
    expect(r.json.sentinel).toBeNull();
    expect(r.json.warnings.join("\n")).toContain("refusing to write pending-restore sentinel");
  });

  it("reads the skill's JSON document with --stdin-json, and refuses a bad one", () => {
    const w = memWorld();
    const r = cli(
      w,
      ["save", "--session", SID, "--json", "--stdin-json"],
      '{"blockers":["waiting on review"],"nextUp":[{"item":"T-9","prerequisitesMet":false}]}',
    );
    expect(w.fs.readFileSync(r.json.checkpoint, "utf8")).toContain("- T-9 (prerequisites met? no)");
    expect(w.fs.readFileSync(r.json.checkpoint, "utf8")).toContain("- waiting on review");
    const bad = cli(memWorld(), ["save", "--session", SID, "--json", "--stdin-json"], "{nope");
    expect(bad.code).toBe(1);
    expect(bad.json.ok).toBe(false);
  });

  it("--stdin-json carries the model's own state: task, intent, done, in progress, next, blockers, decisions, open questions", () => {
    const w = memWorld();
    const doc = {
      task: "csv-export",
      intent: "Add CSV export to the report page",
      done: ["T-1 exporter module written"],
      inProgress: "T-2 wiring the download button",
      nextUp: [{ item: "T-3 docs", prerequisitesMet: true }],
      blockers: ["staging is down"],
      decisions: ["stream rows instead of building one string"],
      openQuestions: ["does the export include archived rows?"],
      completed: [{ hash: "abc1234", subject: "T-1 exporter" }],
    };
    const r = cli(w, ["save", "--session", SID, "--json", "--stdin-json"], JSON.stringify(doc));
    expect(r.json.ok).toBe(true);
    expect(r.json.checkpoint).toMatch(/-csv-export\.md$/);
    const parsed = parseCheckpoint(w.fs.readFileSync(r.json.checkpoint, "utf8") as string);
    expect(parsed).toMatchObject({
      task: "csv-export",
      intent: doc.intent,
      inProgress: doc.inProgress,
      blockers: doc.blockers,
      done: doc.done,
    });
    expect(parsed.nextUp).toEqual(doc.nextUp);
    expect(parsed.decisions).toContain("- stream rows instead of building one string");
    expect(parsed.openQuestions).toContain("- does the export include archived rows?");
    expect(parsed.commits.map((c) => c.hash)).toContain("abc1234");
  });

  it("rejects an unknown --mode as a usage error", () => {
    const r = cli(memWorld(), ["save", "--mode", "everything"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("expected one of: restore, load-as-reference, mid-agent");
  });

  it("prints the report for a person, warnings on stderr", () => {
    const w = memWorld();
    const r = cli(w, ["save", "--session", SID, "--task", "a/b"]);
    expect(r.stdout).toContain("Mode: restore");
    expect(w.warnings.join("\n")).toContain("reduced to 'a-b'");
  });

  it("returns needsMode with the active skills when the skill must ask", () => {
    const w = memWorld(
      {
        [`${MEM}/sessions/plan-${SID}.pidfile.lock`]: JSON.stringify({
          skill: "plan",
          session: SID,
          pid: 5,
          acquired_at: "2026-11-29T21:00:00Z",
        }),
      },
      { alive: () => true },
    );
    const r = cli(w, ["save", "--session", SID, "--json"]);
    expect(r.code).toBe(0); // an answer is needed: exit 0 by the table
    expect(r.json).toMatchObject({ ok: false, needsMode: true, activeSkills: ["plan (pid 5)"] });
    expect(r.json.ask).toContain("Active skills detected: plan (pid 5). Save in mid-agent mode");
  });

  it("--ask-mode with only the checkpoint skill's own pidfile asks restore or load-as-reference, never mid-agent, and exits 0", () => {
    const w = memWorld(
      {
        [`${MEM}/sessions/checkpoint-${SID}.pidfile.lock`]: JSON.stringify({
          skill: "checkpoint",
          session: SID,
          pid: 5,
          acquired_at: "2026-11-29T21:00:00Z",
        }),
      },
      { alive: () => true },
    );
    const before = w.files();
    const r = cli(w, ["save", "--session", SID, "--json", "--ask-mode"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ ok: false, needsMode: true, activeSkills: [] });
    expect(r.json.ask).toContain('"Restore"');
    expect(r.json.ask).toContain("--mode load-as-reference");
    expect(r.json.ask).not.toMatch(/Active skills|mid-agent/);
    expect(w.files()).toEqual(before);
  });

  it("--ask-mode runs the checks before the question: compact-already-ran and the panic tier act, a plain session writes nothing and asks", () => {
    const transcript = `/home/u/.claude/projects/-home-u-proj/${SID}.jsonl`;
    // the panic tier: saved at once, no question (seed step 1.45)
    const panic = memWorld({ [transcript]: transcriptLine(170_000) });
    expect(cli(panic, ["save", "--session", SID, "--json", "--ask-mode"]).json).toMatchObject({
      ok: true,
      mode: "panic",
    });
    // compact already ran: the precompact checkpoint stands, no question
    const cp = `${CKPTS}/2026-11-29-t-precompact.md`;
    const compacted = memWorld({
      [cp]: "## Status\ncheckpoint save (precompact, auto trigger)\n\n## Active task\nt\n\n## Branch\nmain\n",
      [`${MEM}/compact-happened-${SID}.txt`]: "x",
      [`${MEM}/pending-restore-${SID}.txt`]: `${cp}\n`,
    });
    expect(cli(compacted, ["save", "--session", SID, "--json", "--ask-mode"]).json).toMatchObject({
      ok: true,
      mode: "compact-already-ran",
    });
    // nothing stops it: the skill is asked to ask, and nothing is written
    const plain = memWorld({ [transcript]: transcriptLine(155_000) });
    const before = plain.files();
    const asked = cli(plain, ["save", "--session", SID, "--json", "--ask-mode"]);
    expect(asked.code).toBe(0);
    expect(asked.json).toMatchObject({ ok: false, needsMode: true, activeSkills: [] });
    expect(plain.files()).toEqual(before);
    // the answer: a load-as-reference save with the high-use notice (the mode came from the question)
    // (--asked with no document and none kept is refused: the document is handed in again)
    const ref = cli(
      plain,
      [
        "save",
        "--session",
        SID,
        "--json",
        "--mode",
        "load-as-reference",
        "--asked",
        "--stdin-json",
      ],
      '{"task":"t"}',
    );
    expect(ref.json).toMatchObject({ ok: true, mode: "load-as-reference", highUtil: true });
  });
});

describe("engine: defer and cleanup", () => {
  it("defer writes the marker and says what it did in a person's words", () => {
    const w = memWorld();
    const r = cli(w, ["defer", "--session", SID]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "the context warning before each prompt is off for this session until the next compaction or save",
    );
    expect(cli(memWorld(), ["defer", "--session", "unknown", "--json"]).json.ok).toBe(false);
  });

  it("cleanup --dry-run lists what it would move and moves nothing; cleanup moves it", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-${OTHER}.txt`, "x", 3 * DAY);
    w.write(`${MEM}/pending-restore-${SID}.txt`, "x", 3 * DAY);
    const dry = cli(w, ["cleanup", "--session", SID, "--dry-run"]);
    expect(dry.stdout).toContain(`would trash: ${MEM}/pending-restore-${OTHER}.txt`);
    expect(w.fs.existsSync(`${MEM}/pending-restore-${OTHER}.txt`)).toBe(true);
    const real = cli(w, ["cleanup", "--session", SID, "--json"]);
    expect(real.json).toMatchObject({
      ok: true,
      sentinels: [`${MEM}/pending-restore-${OTHER}.txt`],
    });
    expect(real.json.summary).toContain("recover: mv");
    expect(w.fs.existsSync(`${MEM}/pending-restore-${SID}.txt`)).toBe(true);
  });

  it("cleanup without a session id sweeps checkpoints only, and says why", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-${OTHER}.txt`, "x", 3 * DAY);
    const r = cli(w, ["cleanup", "--json", "--session", ""]);
    expect(r.json.sentinels).toEqual([]);
    expect(r.json.warnings[0]).toContain("sentinel sweep skipped");
  });
});

describe("engine: save in a broken environment", () => {
  it("still answers --json with one ok:false object and exit 1", () => {
    const w = memWorld();
    const broken = {
      ...w.fs,
      linkSync: () => {
        throw Object.assign(new Error("EROFS: read-only file system"), { code: "EROFS" });
      },
    } as typeof w.fs;
    let stdout = "";
    const code = runCli(
      ["save", "--session", SID, "--json", "--mode", "restore"],
      { ...w.deps, fs: broken },
      { stdout: (t) => (stdout += t), stderr: () => {}, readStdin: () => "" },
      [saveCommand],
    );
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      ok: false,
      reason: "save failed: the file system is read-only (EROFS)",
    });
  });
});
