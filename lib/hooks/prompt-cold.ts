import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { utcIso } from "../core/time-format.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { appendBlockedPrompt } from "../store/pending-prompts.ts";
import { settleOwnPendingRestore } from "../store/pending-restore.ts";
import { sentinelPath } from "../store/sentinels.ts";
import {
  FORCED_SAVE_STATUS,
  writeSkeletonCheckpoint,
  type SkeletonRequest,
} from "../save/skeleton-save.ts";
import type { UserPromptSubmitInput } from "./hook-io.ts";
import type { BlockFiles } from "./prompt-gate.ts";
import type { PromptHookOptions } from "./prompt-hook-options.ts";
import { saveFailureDetail, saveFailureReason } from "./save-failure.ts";

// The prompt hook's rare paths: the block tier's hold and forced save, and the re-entry at the
// first prompt after a compaction. The prompt bundle compiles this part only when one is reached
// (scripts/build.ts: lib/edge/lazy-prompt-cold.ts stands in for it there), so a plain prompt does
// not pay for code it never runs.

export { reentryAtPrompt } from "./reentry-at-prompt.ts";
export { failedLine, failedText } from "./prompt-failed.ts";
export { makeWindowKnown } from "../install/window-advice.ts";
export { takeSaveFailure, withSaveFailure } from "./save-failure.ts";

/**
 * The block tier: the forced save (step C2: checkpoint and pending-restore sentinel) first, the
 * held prompt last, so a prompt is held only once everything is on disk. When any write fails
 * nothing is kept for replay: the prompt goes through (it was delivered and is never offered
 * again) and the answer says what could not be saved and why.
 */
export function holdPrompt(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  input: UserPromptSubmitInput,
  now: Date,
  held: boolean,
  opts: PromptHookOptions,
): BlockFiles {
  let saved: { checkpoint: string; sentinelExisted: boolean };
  try {
    saved = forcedSave(deps, paths, sid, input, now, opts);
  } catch (err) {
    return {
      pendingPrompt: null,
      checkpoint: null,
      sentinelExisted: false,
      failure: { saved: "nothing", reason: saveFailureReason(err), detail: saveFailureDetail(err) },
    };
  }
  if (!held) return { pendingPrompt: null, ...saved };
  const pendingPrompt = sentinelPath(paths.memory, "pending-prompt", sid);
  try {
    const next = appendBlockedPrompt(
      readTextOrNull(deps.fs, pendingPrompt),
      input.prompt,
      utcIso(now),
    );
    writeAtomic(deps.fs, pendingPrompt, next, { mode: 0o600, pid: deps.pid });
  } catch (err) {
    return {
      pendingPrompt: null,
      ...saved,
      failure: {
        saved: "checkpoint",
        reason: saveFailureReason(err),
        detail: saveFailureDetail(err),
      },
    };
  }
  return { pendingPrompt, ...saved };
}

/**
 * Step C2: a skeleton checkpoint and pending-restore, unless that sentinel already names a
 * checkpoint that is there (settleOwnPendingRestore: a dangling one goes to trash/). Throws when
 * nothing could be written.
 */
function forcedSave(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  input: UserPromptSubmitInput,
  now: Date,
  opts: PromptHookOptions,
): { checkpoint: string; sentinelExisted: boolean } {
  const { held: sentinelHeld } = settleOwnPendingRestore(deps, paths, sid, now);
  if (sentinelHeld) return { checkpoint: sentinelHeld.checkpoint, sentinelExisted: true };
  const req: SkeletonRequest = {
    paths,
    sessionId: sid,
    launchCwd: input.cwd ?? deps.cwd,
    status: FORCED_SAVE_STATUS,
    shape: "voluntary",
    writeSentinel: true,
  };
  const withDigest =
    opts.forcedSave?.({ ...req, transcriptPath: input.transcript_path ?? null }) ?? null;
  if (withDigest) return { checkpoint: withDigest.checkpoint, sentinelExisted: false };
  // The digest could not be written: the skeleton still holds the place, and says what it lacks.
  const notes = opts.forcedSave
    ? ["transcript digest not written (the engine's snapshot failed); see the transcript"]
    : undefined;
  const written = writeSkeletonCheckpoint(deps, { ...req, notes });
  return { checkpoint: written.checkpoint, sentinelExisted: false };
}
