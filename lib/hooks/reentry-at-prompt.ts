import type { Deps } from "../core/deps.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { parseKeyValues } from "../store/sentinels.ts";
import { promptReentryText, reentryFollowsText } from "../notes/reentry-note.ts";
import { droppedSinceCompaction, reentryDigest, reentryDigestOf } from "./compact-reentry.ts";

// The model gets what its compaction summary dropped of the checkpoint saved
// before it, once. Claude Code 2.1.197 and 2.1.332 write the compact_boundary and the summary to
// the transcript only after SessionStart(compact) ran, so that note is split in two:
// SessionStart(compact) names the checkpoint and says the list follows; the first prompt after
// the compaction (its postcompact-reset sentinel, step 0.5) reads the summary from the tail and
// carries only what it dropped, or the full list when it cannot read this compaction's summary.
// Should a client write the summary first, SessionStart carries the dropped list itself and marks
// the sentinel `reentry=given`, and the prompt adds nothing.

/** The sentinel key that says SessionStart(compact) already carried the dropped list. */
export const REENTRY_GIVEN_KEY = "reentry";

/** A boundary older than compacted_at by more than this is an earlier compaction's (whole seconds there). */
const BOUNDARY_SLACK_MS = 5000;

/**
 * SessionStart(compact)'s digest part: the dropped list when this compaction's summary is already
 * in the tail (`given`), else the checkpoint's path and that the list follows; null without one.
 */
export function reentryAtStart(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  transcriptPath: string | null | undefined,
  previousCompactionAt: string | null,
): { text: string; given: boolean } | null {
  const r = reentryDigestOf(deps, paths, sid, undefined, transcriptPath, previousCompactionAt);
  if (!r) return null;
  if (r.fromSummary) return { text: r.text, given: true };
  return { text: reentryFollowsText(r.checkpoint), given: false };
}

/**
 * The first prompt after a compaction (`sentinel`: the postcompact-reset text): what this
 * compaction's summary dropped, else the full list; null when SessionStart already gave it or no
 * checkpoint of this session belongs to the compaction.
 */
export function reentryAtPrompt(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  transcriptPath: string | null | undefined,
  sentinel: string,
): string | null {
  const kv = parseKeyValues(sentinel);
  if (kv[REENTRY_GIVEN_KEY] === "given") return null;
  const at = Date.parse(kv["compacted_at"] ?? "");
  const notBefore = Number.isFinite(at) ? new Date(at - BOUNDARY_SLACK_MS).toISOString() : null;
  const dropped = transcriptPath
    ? droppedSinceCompaction(deps, paths, sid, transcriptPath, undefined, notBefore)
    : null;
  if (dropped) return promptReentryText(dropped, false);
  const full = reentryDigest(deps, paths, sid);
  return full ? promptReentryText(full, true) : null;
}
