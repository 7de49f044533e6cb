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

// The prompt hook's rare paths: the block tier's hold and forced save, and the re-entry at the
// first prompt after a compaction. The prompt bundle compiles this part only when one is reached
// (scripts/build.ts: lib/edge/lazy-prompt-cold.ts stands in for it there), so a plain prompt does
// not pay for code it never runs.

export { reentryAtPrompt } from "./reentry-at-prompt.ts";

/**
 * The block tier: a held prompt is saved for replay (a prompt that goes through was delivered and
 * is never offered again), then the forced save (step C2), before any answer is printed.
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
  let pendingPrompt: string | null = null;
  if (held) {
    pendingPrompt = sentinelPath(paths.memory, "pending-prompt", sid);
    const next = appendBlockedPrompt(
      readTextOrNull(deps.fs, pendingPrompt),
      input.prompt,
      utcIso(now),
    );
    writeAtomic(deps.fs, pendingPrompt, next, { mode: 0o600, pid: deps.pid });
  }

  // Step C2: a skeleton checkpoint and pending-restore, unless that sentinel already names a
  // checkpoint that is there (settleOwnPendingRestore: a dangling one goes to trash/).
  const { held: sentinelHeld } = settleOwnPendingRestore(deps, paths, sid, now);
  if (sentinelHeld)
    return { pendingPrompt, checkpoint: sentinelHeld.checkpoint, sentinelExisted: true };
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
  if (withDigest)
    return { pendingPrompt, checkpoint: withDigest.checkpoint, sentinelExisted: false };
  // The digest could not be written: the skeleton still holds the place, and says what it lacks.
  const notes = opts.forcedSave
    ? ["transcript digest not written (the engine's snapshot failed); see the transcript"]
    : undefined;
  const saved = writeSkeletonCheckpoint(deps, { ...req, notes });
  return { pendingPrompt, checkpoint: saved.checkpoint, sentinelExisted: false };
}
