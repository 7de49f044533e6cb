import { describe, expect, it } from "vitest";
import type { RunOptions } from "../../../lib/core/deps.ts";
import { runSessionEnd } from "../../../lib/hooks/session-end.ts";
import { writeSnapshotCheckpoint } from "../../../lib/save/snapshot-save.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { HOME, memWorld, NOW, ROOT, SID } from "../../helpers/save-deps.ts";
import {
  bashLines,
  editLines,
  transcriptText,
  userLine,
} from "../../helpers/session-transcript.ts";

// git runs in the automatic writers (their handover lists the session's commits), each call
// bounded. SessionEnd's calls are cut to what is left of its 1.2 s deadline (a git that does not
// answer in time is skipped and the checkpoint says so in one line); the block tier's forced save
// runs no git at all.

const TRANSCRIPT = `${HOME}/.claude/projects/-home-u-proj/${SID}.jsonl`;
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
const session = transcriptText([
  userLine(SID, at(50), "fix the parser"),
  editLines(SID, at(48), `${ROOT}/lib/parse.ts`),
  bashLines(
    SID,
    at(40),
    "git add -A && git commit -m 'fix parser'",
    "[feat/x abc1234] fix parser\n 1 file changed",
  ),
  editLines(SID, at(30), `${ROOT}/lib/more.ts`),
]);
const payload = {
  session_id: SID,
  transcript_path: TRANSCRIPT,
  cwd: ROOT,
  hook_event_name: "SessionEnd" as const,
  reason: "other",
};

function world(answer: (args: readonly string[]) => { status: number | null; stdout: string }) {
  const w = memWorld({ [TRANSCRIPT]: session });
  const calls: { args: readonly string[]; timeoutMs?: number }[] = [];
  w.deps.run = (_cmd, args, opts?: RunOptions) => {
    calls.push({ args, timeoutMs: opts?.timeoutMs });
    return { ...answer(args), stderr: "" };
  };
  return { w, calls };
}

const saved = (w: ReturnType<typeof memWorld>, out: ReturnType<typeof runSessionEnd>) => {
  if (!out.saved) throw new Error(out.reason);
  return parseCheckpoint(w.fs.readFileSync(out.checkpoint, "utf8") as string);
};

describe("SessionEnd's git calls", () => {
  it("cuts every git call to what is left of its deadline", () => {
    const { w, calls } = world((args) =>
      args.includes("cat-file")
        ? { status: 0, stdout: `${"a".repeat(40)} commit 200\n` }
        : { status: 0, stdout: "" },
    );
    // the hook's deadline comes from a fractional clock; node's spawn wants whole milliseconds
    const out = runSessionEnd(w.deps, payload, { deadlineAt: NOW.getTime() + 500.4 });
    const p = saved(w, out);
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) {
      expect(c.timeoutMs).toBeLessThanOrEqual(500);
      expect(Number.isInteger(c.timeoutMs)).toBe(true);
    }
    expect(p.checkedCommits.map((c) => c.hash)).toEqual(["abc1234"]);
  });

  it("skips git it has no time for and says so in one line", () => {
    const { w, calls } = world(() => ({ status: 0, stdout: "" }));
    const out = runSessionEnd(w.deps, payload, { deadlineAt: NOW.getTime() + 100 });
    const p = saved(w, out);
    expect(calls).toEqual([]);
    expect(p.checkedCommits).toEqual([
      { hash: "abc1234", subject: "fix parser", state: "unchecked" },
    ]);
    const body = p.sections.find((s) => s.title === "Completed this session")!.body;
    expect(body.split("\n").filter((l) => /did not answer in time/.test(l))).toHaveLength(1);
  });

  it("a git killed at its timeout leaves the commits unchecked, and stops there", () => {
    const { w, calls } = world(() => ({ status: null, stdout: "" }));
    const p = saved(w, runSessionEnd(w.deps, payload, { deadlineAt: NOW.getTime() + 1000 }));
    expect(calls).toHaveLength(1);
    expect(p.checkedCommits[0]?.state).toBe("unchecked");
    expect(p.sections.find((s) => s.title === "Completed this session")!.body).toContain(
      "git did not answer in time",
    );
  });
});

describe("the block tier's forced save", () => {
  it("spawns no git: commits from the transcript marked unchecked, files changed since", () => {
    const { w, calls } = world(() => ({ status: 0, stdout: "" }));
    const res = writeSnapshotCheckpoint(w.deps, {
      paths: w.paths,
      transcriptPath: TRANSCRIPT,
      sessionId: SID,
      launchCwd: ROOT,
      status: "checkpoint save (forced: context at the block tier)",
      shape: "voluntary",
      writeSentinel: true,
      gitCheck: { git: false },
    });
    expect(calls).toEqual([]);
    const p = parseCheckpoint(w.fs.readFileSync(res.checkpoint, "utf8") as string);
    expect(p.checkedCommits).toEqual([
      { hash: "abc1234", subject: "fix parser", state: "unchecked" },
    ]);
    expect(p.uncommitted).toEqual([{ path: "lib/more.ts", kind: "unchecked" }]);
  });
});
