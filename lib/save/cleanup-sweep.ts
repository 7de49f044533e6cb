import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { listSentinelFiles, type SentinelFile } from "../store/sentinel-listing.ts";
import { trashMove } from "../core/trash.ts";
import { regularFileStat, sortedNames } from "../core/dir-listing.ts";
import { DAY_MS } from "../core/time-format.ts";


export interface CleanupOptions {
  /** this session's sentinels are never swept, whatever their age; null skips the sentinel sweep (cleanup step 3: fail safe) */
  currentSessionId: string | null;
  /** QUOIN_CLEANUP_SENTINEL_WINDOW, days */
  sentinelWindowDays: number;
  /** QUOIN_CLEANUP_CKPT_WINDOW, days; null skips the checkpoint sweep (the SessionStart sweep) */
  checkpointWindowDays: number | null;
  dryRun: boolean;
  /** the memory folder's sentinels, when the caller has listed them already (SessionStart) */
  sentinelFiles?: readonly SentinelFile[];
}

export interface CleanupResult {
  /** files moved to trash (or that would be, on a dry run), by original path */
  sentinels: string[];
  checkpoints: string[];
  /** files that could not be moved (another process moved them first, permissions) */
  failed: string[];
  dryRun: boolean;
}

function olderThan(fs: FsApi, file: string, nowMs: number, days: number): boolean {
  const st = regularFileStat(fs, file);
  return st !== null && nowMs - st.mtimeMs > days * DAY_MS;
}


/**
 * The /cleanup core, steps 4 and 5: which sentinels (every family in the registry, the current
 * session protected by id before any age check) and which checkpoints are stale. Reads only.
 */
export function planCleanup(fs: FsApi, paths: MemoryPaths, now: Date, opts: CleanupOptions): { sentinels: string[]; checkpoints: string[] } {
  const nowMs = now.getTime();
  const sentinels: string[] = [];
  if (opts.currentSessionId !== null) {
    for (const s of opts.sentinelFiles ?? listSentinelFiles(fs, paths.memory)) {
      // Cleanup step 4: id check BEFORE age check. Empty-id orphans (pending-restore-.txt) never match.
      if (s.sid === opts.currentSessionId) continue;
      if (nowMs - s.mtimeMs > opts.sentinelWindowDays * DAY_MS) sentinels.push(s.path);
    }
    sentinels.sort();
  }
  const checkpoints: string[] = [];
  if (opts.checkpointWindowDays !== null) {
    for (const name of sortedNames(fs, paths.checkpoints)) {
      // Cleanup step 5: *.md only; temp files of a save in flight (.x.md.<pid>.tmp) never match.
      if (!name.endsWith(".md") || name.startsWith(".")) continue;
      const file = path.join(paths.checkpoints, name);
      if (olderThan(fs, file, nowMs, opts.checkpointWindowDays)) checkpoints.push(file);
    }
  }
  return { sentinels, checkpoints };
}

/** Plan, then move each stale file to trash/ (unless a dry run). A file another process moved first is reported, not fatal. */
export function runCleanup(fs: FsApi, paths: MemoryPaths, now: Date, opts: CleanupOptions): CleanupResult {
  const plan = planCleanup(fs, paths, now, opts);
  if (opts.dryRun) return { ...plan, failed: [], dryRun: true };
  const moved = { sentinels: [] as string[], checkpoints: [] as string[] };
  const failed: string[] = [];
  for (const kind of ["sentinels", "checkpoints"] as const) {
    for (const file of plan[kind]) {
      try {
        trashMove(fs, file, paths.memory, now);
        moved[kind].push(file);
      } catch {
        failed.push(file);
      }
    }
  }
  return { ...moved, failed, dryRun: false };
}

/** Cleanup step 6: the one summary line, with the recover command. */
export function cleanupSummary(paths: MemoryPaths, result: CleanupResult, trashDate: string, prefix = "[checkpoint]"): string {
  const s = result.sentinels.length;
  const c = result.checkpoints.length;
  if (s === 0 && c === 0) return `${prefix} cleanup: nothing stale to clean`;
  if (result.dryRun) {
    return `${prefix} cleanup (dry run): would trash ${s} sentinel(s) from ${paths.memory}/, ${c} checkpoint(s) from ${paths.checkpoints}/`;
  }
  const failed = result.failed.length ? `; ${result.failed.length} could not be moved` : "";
  return (
    `${prefix} cleanup: trashed ${s} sentinel(s) -> ${paths.memory}/, ${c} checkpoint(s) -> ${paths.checkpoints}/` +
    ` (recover: mv ${paths.trash}/${trashDate}/<file> <original-dir>)${failed}`
  );
}
