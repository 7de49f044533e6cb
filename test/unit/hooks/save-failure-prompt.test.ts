import { describe, expect, it } from "vitest";
import type { HookAnswer, UserPromptSubmitInput } from "../../../lib/hooks/hook-io.ts";
import { runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { recordSaveFailure } from "../../../lib/hooks/save-failure.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import { handleUserPromptSubmit } from "../../../lib/hooks/user-prompt-submit.ts";
import { failing } from "../../helpers/failing-fs.ts";
import { HOME, knobs, memWorld, ROOT, SID, transcriptLine } from "../../helpers/save-deps.ts";
import {
  editLines,
  replyLine,
  transcriptText,
  userLine,
} from "../../helpers/session-transcript.ts";

// A PreCompact whose compaction did not happen (cancelled, or the client failed it) leaves the
// session going on with no SessionStart: its failed save is told at the next prompt, once.

const STATE = `${HOME}/.claude/quoin-checkpoint/state`;
const RECORD = `${STATE}/save-failed-${SID}.json`;
const TRANSCRIPT = `${HOME}/.claude/projects/-home-u-proj/${SID}.jsonl`;
const busy = transcriptText([
  userLine(SID, "2026-11-29T20:00:00.000Z", "fix the parser"),
  editLines(SID, "2026-11-29T20:02:00.000Z", `${ROOT}/lib/p.ts`),
  replyLine(SID, "2026-11-29T20:03:00.000Z"),
]);
const prompt = (text: string): UserPromptSubmitInput => ({
  session_id: SID,
  transcript_path: TRANSCRIPT,
  cwd: ROOT,
  hook_event_name: "UserPromptSubmit",
  prompt: text,
});
const said = (a: HookAnswer | null) => ({
  context: a && "hookSpecificOutput" in a ? (a.hookSpecificOutput?.additionalContext ?? "") : "",
  system: a && "systemMessage" in a ? (a.systemMessage ?? "") : "",
});

function failedPreCompact() {
  const w = memWorld({ [TRANSCRIPT]: busy });
  failing(w.deps, "EACCES", (p) => p.startsWith(`${ROOT}/`));
  runPreCompact(w.deps, {
    session_id: SID,
    transcript_path: TRANSCRIPT,
    cwd: ROOT,
    hook_event_name: "PreCompact",
    trigger: "manual",
  });
  expect(w.fs.existsSync(RECORD)).toBe(true);
  return w;
}

describe("a failed save is told at the next prompt when no SessionStart told it", () => {
  it("PreCompact failed, no compaction: the next prompt says why, for the model and in one line for the person, then never again", () => {
    const w = failedPreCompact();
    const first = said(handleUserPromptSubmit(w.deps, prompt("go on"), knobs()));
    expect(first.system).toMatch(
      /^\[quoin\] the last checkpoint could not be saved: read-only: \/home\/u\/proj\/.* \(before the compaction, [0-9T:-]+Z\)$/,
    );
    expect(first.system.length).toBeLessThanOrEqual(200);
    expect(first.context).toMatch(
      /^\[quoin-checkpoint\] the last checkpoint could not be saved: read-only: .*then run \/checkpoint\./,
    );
    expect(JSON.stringify(first)).not.toMatch(/EACCES|errno/);
    expect(w.fs.existsSync(RECORD)).toBe(false);
    expect(
      JSON.stringify(handleUserPromptSubmit(w.deps, prompt("and then?"), knobs())),
    ).not.toContain("could not be saved");
  });

  it("told by SessionStart(compact) first: the prompt after it says nothing of it", () => {
    const w = failedPreCompact();
    const start = handleSessionStart(
      w.deps,
      { session_id: SID, cwd: ROOT, hook_event_name: "SessionStart", source: "compact" },
      knobs(),
    );
    expect(said(start).system).toContain("could not be saved");
    expect(JSON.stringify(handleUserPromptSubmit(w.deps, prompt("go on"), knobs()))).not.toContain(
      "could not be saved",
    );
  });

  it("a prompt held at the block tier keeps the record for the next prompt the model reads", () => {
    const w = memWorld({ [TRANSCRIPT]: `${transcriptLine(160_000)}\n` });
    recordSaveFailure(w.deps, SID, {
      event: "SessionEnd",
      reason: "disk full",
      at: "2026-11-29T20:00:00Z",
    });
    const held = handleUserPromptSubmit(w.deps, prompt("refactor it all"), knobs());
    expect(held).toMatchObject({ decision: "block" });
    expect(w.fs.existsSync(RECORD)).toBe(true);
    w.write(TRANSCRIPT, `${transcriptLine(20_000)}\n`);
    const next = said(handleUserPromptSubmit(w.deps, prompt("go on"), knobs()));
    expect(next.system).toBe(
      "[quoin] the last checkpoint could not be saved: disk full (at session end, 2026-11-29T20:00:00Z)",
    );
    expect(w.fs.existsSync(RECORD)).toBe(false);
  });

  it("the plain prompt looks for the record once and reads nothing more of it", () => {
    const w = memWorld({ [TRANSCRIPT]: busy });
    const looked: string[] = [];
    const exists = w.fs.existsSync.bind(w.fs);
    w.deps.fs.existsSync = (p: Parameters<typeof exists>[0]) => {
      if (String(p).startsWith(STATE)) looked.push(String(p));
      return exists(p);
    };
    handleUserPromptSubmit(w.deps, prompt("go on"), knobs());
    expect(looked).toEqual([RECORD]);
  });
});
