import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { isUsableSessionId } from "../core/ids.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { parseSentinelName, sentinelPath } from "../store/sentinels.ts";
import { trashMove } from "../core/trash.ts";

export interface CleanupRequest {
  sessionId: string;
  /**
   * the picker's consumed_sentinel_path: the other session's sentinel the pick came from; "" when
   * none was (this session's own, no candidate, a disk-only checkpoint, a synthesis, a corrupt
   * file)
   */
  consumedSentinelPath: string;
  /** this session's held prompts (CASE B, any answer), or another session's with delete (CASE C) */
  pendingPromptFile: string | null;
  /** keep this session's pending-restore: it names a checkpoint that could not be parsed, never shown */
  keepOwn?: boolean;
}

export interface CleanupReport {
  /** original path -> path in trash/ */
  trashed: Array<{ from: string; to: string }>;
  /** files that should have moved but could not (left in place, warned) */
  failed: Array<{ file: string; reason: string }>;
}

/** Only sentinels of the expected family, directly inside the memory folder, are ever moved. */
function isOwnSentinel(
  paths: MemoryPaths,
  file: string,
  family: "pending-restore" | "pending-prompt",
): boolean {
  const resolved = path.resolve(file);
  return (
    path.dirname(resolved) === path.resolve(paths.memory) &&
    parseSentinelName(path.basename(resolved))?.family === family
  );
}

/**
 * Restore step 5 (the seed's B2 fix: two moves, not one): the current session's pending-restore
 * always; the consumed sentinel when set and different; the pending-prompt file when the replay
 * step consumed it. Into trash/, fail-open: a file that cannot move is reported and left in place.
 */
export function cleanupAfterRestore(
  deps: Deps,
  paths: MemoryPaths,
  req: CleanupRequest,
): CleanupReport {
  const report: CleanupReport = { trashed: [], failed: [] };
  const now = deps.now();
  const move = (file: string) => {
    if (!deps.fs.existsSync(file)) return;
    try {
      report.trashed.push({ from: file, to: trashMove(deps.fs, file, paths.memory, now) });
    } catch (err) {
      report.failed.push({ file, reason: (err as Error).message });
      deps.warn(`[checkpoint] WARNING: could not move ${file} to trash: ${(err as Error).message}`);
    }
  };
  // 1. Current-session cleanup: keys off the session id, not consumed_sentinel_path.
  const own = isUsableSessionId(req.sessionId)
    ? sentinelPath(paths.memory, "pending-restore", req.sessionId)
    : null;
  if (own && !req.keepOwn) move(own);
  // 2. The actually-consumed orphan sentinel of another session, if different (without this, an
  // orphan that was restored would be offered again).
  const consumed = req.consumedSentinelPath;
  if (
    consumed !== "" &&
    (own === null || path.resolve(consumed) !== path.resolve(own)) &&
    isOwnSentinel(paths, consumed, "pending-restore")
  ) {
    move(consumed);
  }
  if (req.pendingPromptFile && isOwnSentinel(paths, req.pendingPromptFile, "pending-prompt"))
    move(req.pendingPromptFile);
  return report;
}
