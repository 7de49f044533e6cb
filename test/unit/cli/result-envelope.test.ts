import { describe, expect, it } from "vitest";
import { EXIT } from "../../../cli/answer.ts";
import { cleanupCommand } from "../../../cli/commands/cleanup.ts";
import { deferCommand } from "../../../cli/commands/defer.ts";
import { dispatchCommand } from "../../../cli/commands/dispatch.ts";
import { doctorCommand } from "../../../cli/commands/doctor.ts";
import { listCommand } from "../../../cli/commands/list.ts";
import { pidfileCommand } from "../../../cli/commands/pidfile.ts";
import { restoreCommand } from "../../../cli/commands/restore.ts";
import { saveCommand } from "../../../cli/commands/save.ts";
import { showCommand } from "../../../cli/commands/show.ts";
import { snapshotCommand } from "../../../cli/commands/snapshot.ts";
import { statusCommand } from "../../../cli/commands/status.ts";
import { successorCommand } from "../../../cli/commands/successor.ts";
import { runCli } from "../../../cli/run-cli.ts";
import {
  HOME,
  memWorld,
  ROOT,
  SID,
  transcriptLine,
  type MemWorld,
} from "../../helpers/save-deps.ts";

// statusline has no --json answer (it prints the status line Claude Code draws).
const COMMANDS = [
  saveCommand,
  restoreCommand,
  deferCommand,
  cleanupCommand,
  statusCommand,
  successorCommand,
  listCommand,
  showCommand,
  dispatchCommand,
  pidfileCommand,
  doctorCommand,
  snapshotCommand,
];

const TRANSCRIPT = `${ROOT}/t.jsonl`;

function run(w: MemWorld, argv: string[]) {
  let stdout = "";
  const code = runCli(
    [...argv, "--json"],
    w.deps,
    { stdout: (t) => (stdout += t), stderr: () => {}, readStdin: () => "" },
    COMMANDS,
  );
  return { code, stdout };
}

/** A project with one saved checkpoint and a readable transcript. */
function savedWorld(): MemWorld {
  const w = memWorld({ [TRANSCRIPT]: transcriptLine(20_000) });
  const saved = run(w, ["save", "--session", SID, "--mode", "restore", "--task", "t1"]);
  expect(saved.code).toBe(0);
  return w;
}

type Row = [argv: string[], code: number, ok: boolean, world?: () => MemWorld];

const empty = () => memWorld();

// The exit-code table (cli/answer.ts EXIT_CAUSES): 0 done or an answer is needed, 1 refused,
// 2 bad usage (a malformed --session is a bad value); dispatch and pidfile always 0.
const ROWS: Row[] = [
  [["save", "--session", SID, "--mode", "load-as-reference", "--task", "t2"], EXIT.done, true],
  [["save", "--session", "../x"], EXIT.usage, false],
  [["save", "--mode", "bogus"], EXIT.usage, false],
  [["restore", "--session", SID], EXIT.done, true],
  [["restore", "--pick", "0"], EXIT.usage, false],
  [["restore", "--session", SID], EXIT.done, true, empty],
  [["defer", "--session", SID], EXIT.done, true],
  [["defer", "--session", "../x"], EXIT.usage, false],
  [["cleanup", "--session", SID, "--dry-run"], EXIT.done, true],
  [["cleanup", "--session", "../x"], EXIT.usage, false],
  [["status", "--session", SID, "--transcript", TRANSCRIPT], EXIT.done, true],
  [["status", "--transcript", `${ROOT}/none.jsonl`], EXIT.refused, false],
  [["successor"], EXIT.done, true],
  [["successor"], EXIT.refused, false, empty],
  [["list"], EXIT.done, true],
  [["list", "--cwd", HOME], EXIT.usage, false],
  [["show", "1"], EXIT.done, true],
  [["show", "99"], EXIT.usage, false],
  [["show"], EXIT.usage, false],
  [["dispatch", "decide", "--tier", "opus"], EXIT.done, true],
  [["dispatch", "decide"], EXIT.done, false],
  [["dispatch", "nonsense"], EXIT.done, false],
  [["dispatch", "write-cache", "--tier", "opus"], EXIT.done, false],
  [["dispatch", "decide", "--no-such-flag"], EXIT.done, false],
  [["pidfile", "active", "--session", SID], EXIT.done, true],
  [["pidfile", "acquire", "plan", "--session", SID], EXIT.done, true],
  [["pidfile", "release", "plan", "--session", SID], EXIT.done, true],
  [["pidfile", "nonsense"], EXIT.done, false],
  [["pidfile", "acquire", "plan", "--session", "../x"], EXIT.done, false],
  [["doctor"], EXIT.refused, false],
  [["snapshot", "--kind", "forced", "--session", SID, "--transcript", TRANSCRIPT], EXIT.done, true],
  [["snapshot"], EXIT.usage, false],
  [["snapshot", "--kind", "forced", "--session", "../x"], EXIT.usage, false],
  [["no-such-command"], EXIT.usage, false],
];

describe("every --json answer is one { ok, ... } object and exits by the table", () => {
  it("covers every command with a --json answer, each with a done and a refused row", () => {
    for (const c of COMMANDS) {
      const rows = ROWS.filter((r) => r[0][0] === c.name);
      expect(rows.map((r) => r[2]).sort(), c.name).toEqual(
        c.name === "doctor" ? [false] : expect.arrayContaining([false, true]),
      );
    }
  });

  it.each(ROWS)("%j exits %i with ok %s", (argv, code, ok, world = savedWorld) => {
    const r = run(world(), argv);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const answer = JSON.parse(lines[0]!) as { ok: unknown; reason?: unknown };
    expect(answer.ok, lines[0]).toBe(ok);
    if (!ok) expect(typeof answer.reason).toBe("string");
    expect(r.code).toBe(code);
  });

  it("a refusal names what was expected where the engine knows it", () => {
    const r = run(savedWorld(), ["save", "--mode", "bogus"]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      expected: expect.stringContaining("--mode"),
    });
  });
});
