import type { Deps } from "../core/deps.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import { resolveShowTarget } from "../restore/checkpoint-list.ts";
import { buildMemoryListing } from "../restore/memory-listing.ts";
import type { Refusal } from "./share-record.ts";

// Which checkpoint `share` means (apart from recording, so the SessionEnd bundle's auto-share
// does not carry the restore snapshot reader).

/** The checkpoint `share` means: a number from list, a file name, or this session's newest. */
export function chooseCheckpoint(
  deps: Deps,
  paths: MemoryPaths,
  arg: string | undefined,
  sessionId: string | null,
): { ok: true; file: string } | Refusal {
  if (arg !== undefined) {
    const snap = buildMemoryListing(deps.fs, paths, "", deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
      headCachePid: deps.pid,
    });
    const target = resolveShowTarget(snap, arg);
    return target.ok
      ? target
      : {
          ok: false,
          reason: target.reason,
          expected: "a number from list or a checkpoint file name",
        };
  }
  const newest = sessionId ? newestCheckpointOf(deps, paths, sessionId, null) : null;
  if (newest) return { ok: true, file: newest.file };
  return {
    ok: false,
    reason: sessionId
      ? `session ${sessionId} has no checkpoint to share`
      : "no session id known, so no newest checkpoint of this session",
    expected: "share N (a number from list) or share FILE, or /checkpoint save first",
  };
}
