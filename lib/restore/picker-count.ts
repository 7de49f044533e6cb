import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { buildMemoryListing } from "./memory-listing.ts";
import { CHECKPOINT_WINDOW_DAYS, enumerateCandidates } from "./restore-candidates.ts";
import { pickerSettings } from "./restore-run.ts";

// How many local candidates the picker numbers: shared checkpoints (fetched from other clones) are
// numbered after them in the same list, so `--pick N` past this count means a shared one.

/** The length of the list `restore --pick N` picks from, built as the picker builds it. */
export function localPickerCount(
  deps: Deps,
  knobs: Knobs,
  req: { paths: MemoryPaths; sessionId: string },
): number {
  const s = pickerSettings(knobs);
  const snap = buildMemoryListing(deps.fs, req.paths, req.sessionId, deps.now(), {
    checkpointWindowDays: CHECKPOINT_WINDOW_DAYS,
    sentinelWindowDays: s.sentinelWindowDays,
    headCachePid: deps.pid,
  });
  return enumerateCandidates(snap, {
    sentinelWindowDays: s.sentinelWindowDays,
    dedupWindowDays: s.dedupWindowDays,
  }).candidates.length;
}
