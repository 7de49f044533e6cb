import { describe, expect, it } from "vitest";
import type { SessionStartInput } from "../../../lib/hooks/hook-io.ts";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { saveFailureReason } from "../../../lib/hooks/save-failure.ts";
import { runSessionEnd } from "../../../lib/hooks/session-end.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import { failing } from "../../helpers/failing-fs.ts";
import { HOME, knobs, memWorld, NOW, ROOT, SID } from "../../helpers/save-deps.ts";
import {
  editLines,
  replyLine,
  transcriptText,
  userLine,
} from "../../helpers/session-transcript.ts";

// PreCompact and SessionEnd cannot speak to the person: a save they could not write is recorded
// outside the repository and said once by the session's next SessionStart.

const STATE = `${HOME}/.claude/quoin-checkpoint/state`;
const TRANSCRIPT = `${HOME}/.claude/projects/-home-u-proj/${SID}.jsonl`;
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString();
const busy = transcriptText([
  userLine(SID, at(50), "fix the parser"),
  editLines(SID, at(48), `${ROOT}/lib/p.ts`),
  userLine(SID, at(30), "and the tests"),
  replyLine(SID, at(29)),
]);
const start = (source: string): SessionStartInput => ({
  session_id: SID,
  cwd: ROOT,
  hook_event_name: "SessionStart",
  source,
});
const said = (a: ReturnType<typeof handleSessionStart>) => ({
  context: a && "hookSpecificOutput" in a ? (a.hookSpecificOutput?.additionalContext ?? "") : "",
  system: a && "systemMessage" in a ? (a.systemMessage ?? "") : "",
});
const inProject = (p: string) => p.startsWith(`${ROOT}/`);

describe("a save that could not be written is told once", () => {
  it("PreCompact in a read-only project: the next SessionStart(compact) says why, once, even though its own writes fail", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    failing(w.deps, "EACCES", inProject);
    const out = runPreCompact(w.deps, {
      session_id: SID,
      transcript_path: TRANSCRIPT,
      cwd: ROOT,
      hook_event_name: "PreCompact",
      trigger: "auto",
    });
    expect(out).toMatchObject({ saved: false, failed: true });
    expect((out as { reason: string }).reason).toMatch(
      /^the checkpoint could not be saved: read-only: \/home\/u\/proj\//,
    );
    expect(w.fs.existsSync(`${STATE}/save-failed-${SID}.json`)).toBe(true);

    const first = said(handleSessionStart(w.deps, start("compact"), knobs()));
    expect(first.system).toMatch(
      /^\[quoin\] the last checkpoint could not be saved: read-only: \/home\/u\/proj\/.* \(before the compaction, [0-9T:-]+Z\)$/,
    );
    expect(first.system.length).toBeLessThanOrEqual(200);
    expect(first.context).toContain(
      "[quoin-checkpoint] the last checkpoint could not be saved: read-only",
    );
    expect(JSON.stringify(first)).not.toMatch(/EACCES|errno/);
    // said once
    expect(said(handleSessionStart(w.deps, start("resume"), knobs())).system).not.toContain(
      "could not be saved",
    );
  });

  it("SessionEnd on a full disk: logged as write-failed, and the resumed session is told", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    failing(w.deps, "ENOSPC", (p) => p.includes("/checkpoints"));
    const out = runSessionEnd(
      w.deps,
      {
        session_id: SID,
        transcript_path: TRANSCRIPT,
        cwd: ROOT,
        hook_event_name: "SessionEnd",
        reason: "other",
      },
      { deadlineAt: Infinity },
    );
    expect(out).toMatchObject({ saved: false, skip: "write-failed" });
    const next = said(handleSessionStart(w.deps, start("resume"), knobs()));
    expect(next.system).toMatch(
      /^\[quoin\] the last checkpoint could not be saved: disk full: .* \(at session end, /,
    );
  });

  it("another session's failure is not said to this one", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    failing(w.deps, "ENOSPC", (p) => p.includes("/checkpoints"));
    runSessionEnd(
      w.deps,
      {
        session_id: SID,
        transcript_path: TRANSCRIPT,
        cwd: ROOT,
        hook_event_name: "SessionEnd",
        reason: "other",
      },
      { deadlineAt: Infinity },
    );
    const other = said(
      handleSessionStart(
        w.deps,
        { ...start("startup"), session_id: "77777777-7777-7777-7777-777777777777" },
        knobs(),
      ),
    );
    expect(other.system).not.toContain("could not be saved");
  });

  it("names the cause in words, never an errno", () => {
    const e = (code: string) => Object.assign(new Error(code), { code });
    expect(
      ["EROFS", "EACCES", "EPERM", "ENOSPC", "EDQUOT", "ENOENT", "EIO"].map((c) =>
        saveFailureReason(e(c)),
      ),
    ).toEqual([
      "read-only",
      "read-only",
      "read-only",
      "disk full",
      "disk full",
      "folder missing",
      "write failed",
    ]);
  });
});
