import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { readHead } from "../core/file-range.ts";
import { trashIfPresent } from "../core/trash.ts";
import { isInsideCheckpoints, type MemoryPaths } from "./memory-paths.ts";
import { SENTINEL_HEAD_BYTES, sentinelPath } from "./sentinels.ts";

const SAFE_FILE = /^[A-Za-z0-9._-]{1,200}\.md$/;

/** A sentinel's first 4 KB: all any sentinel needs. */
export function readSentinelHead(deps: Deps, file: string): string | null {
  return readHead(deps.fs, file, SENTINEL_HEAD_BYTES);
}

/**
 * A path read from a sentinel is used only if it resolves inside this project's checkpoints/
 * folder, has a plain file name (no text that could pass for an instruction), and exists.
 */
export function trustedCheckpoint(
  deps: Deps,
  paths: MemoryPaths,
  candidate: string | undefined,
): string | null {
  if (!candidate) return null;
  const p = candidate.trim();
  if (!isInsideCheckpoints(paths, p) || !SAFE_FILE.test(path.basename(p))) return null;
  return deps.fs.existsSync(p) ? path.resolve(p) : null;
}

/**
 * This session's pending-restore sentinel, if any, and the checkpoint it names when that one is
 * trusted and still there (null otherwise: a sentinel naming nothing holds no place).
 */
export function ownPendingRestore(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
): { sentinel: string; checkpoint: string | null } | null {
  const sentinel = sentinelPath(paths.memory, "pending-restore", sid);
  if (!deps.fs.existsSync(sentinel)) return null;
  return {
    sentinel,
    checkpoint: trustedCheckpoint(deps, paths, readSentinelHead(deps, sentinel)?.split("\n")[0]),
  };
}

/**
 * The one policy for this session's pending-restore before a save writes its own (save step 1.4,
 * PreCompact, the prompt hook's block): one naming a trusted, existing checkpoint holds this
 * session's place and is returned as `held`; one naming nothing (missing, or outside checkpoints/)
 * holds no place and goes to trash/ (`trashed`), never overwritten, so nothing is lost.
 */
export function settleOwnPendingRestore(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  now: Date,
): { held: { sentinel: string; checkpoint: string } | null; trashed: string | null } {
  const pending = ownPendingRestore(deps, paths, sid);
  if (!pending) return { held: null, trashed: null };
  if (pending.checkpoint)
    return { held: { sentinel: pending.sentinel, checkpoint: pending.checkpoint }, trashed: null };
  return {
    held: null,
    trashed: trashIfPresent(deps.fs, pending.sentinel, paths.memory, now) ?? pending.sentinel,
  };
}
