import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead, readTextOrNull } from "../core/file-range.ts";
import { isInsideCheckpoints, type MemoryPaths } from "../store/memory-paths.ts";
import { parseSentinelName, SENTINEL_HEAD_BYTES, sentinelPath } from "../store/sentinels.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { regularFileStat, sortedNames } from "../core/dir-listing.ts";
import { DAY_MS } from "../core/time-format.ts";

/** One file the picker may look at: what stat gives, no content. */
export interface SnapFile {
  name: string;
  path: string;
  mtimeMs: number;
  size: number;
}

export interface CheckpointFile extends SnapFile {
  /** the sections the picker reads (`## Active task`, `## Branch`, `## Session ID`); absent when not read */
  head?: string;
}

export interface SentinelFile extends SnapFile {
  sid: string;
  /** line 1 (a checkpoint path for pending-restore), CR stripped, trimmed */
  firstLine: string;
}

export interface SessionStateFile extends SnapFile {
  text: string;
}

/** Everything the restore picker decides on, read once. The picker itself does no I/O. */
export interface RestoreSnapshot {
  nowMs: number;
  /** the current session id as given ("" or "unknown" when not known) */
  sessionId: string;
  paths: MemoryPaths;
  /** every *.md in checkpoints/ (temp files excluded), any age */
  checkpoints: CheckpointFile[];
  /** seed 001's `.claude-checkpoint*.md` in the project root, in the window (read candidates only) */
  rootCheckpoints: CheckpointFile[];
  pendingRestores: SentinelFile[];
  pendingPrompts: SentinelFile[];
  /** sessions/<YYYY-MM-DD>-<task>.md */
  sessionStates: SessionStateFile[];
  /** compact-happened-<current sid> exists (same-session exemption) */
  compactHappened: boolean;
}

export interface SnapshotOptions {
  /** checkpoints within this many days get their head read (Tier 3 needs them) */
  checkpointWindowDays: number;
  /** list and read only the checkpoint this session's own sentinel names (Tier 1 alone) */
  ownSentinelOnly?: boolean;
}

/** Enough for Status, Current stage, Active task, Branch and Session ID of a checkpoint this tool writes (else the whole file is read). */
export const HEAD_BYTES = 1024;
export const MIN_CHECKPOINT_BYTES = 100;


// Only regular files are ever read (regularFileStat: a restore may show a checkpoint raw).
function statFile(fs: FsApi, dir: string, name: string): SnapFile | null {
  const full = path.join(dir, name);
  const st = regularFileStat(fs, full);
  return st ? { name, path: full, ...st } : null;
}

/** Seed 001's per-session files in the project root: `.claude-checkpoint.md`, `.claude-checkpoint.<slug>.md`. */
export const SEED001_CHECKPOINT = /^\.claude-checkpoint(?:\.[A-Za-z0-9-]{1,64})?\.md$/;

const NEEDED_HEADINGS = [/^## Active task\s*$/m, /^## Branch\s*$/m, /^## Session ID\s*$/m];

/**
 * The first sections of a checkpoint, read cheaply: a 1 KB prefix cut back to whole sections;
 * the whole file only when a section the picker needs is not in the prefix.
 */
function readCheckpointHead(fs: FsApi, file: SnapFile): string | undefined {
  const prefix = readHead(fs, file.path, HEAD_BYTES, { lstatted: true });
  if (prefix === null) return undefined;
  if (file.size <= HEAD_BYTES) return prefix;
  const lastHeading = prefix.lastIndexOf("\n## ");
  const whole = lastHeading > 0 ? prefix.slice(0, lastHeading + 1) : prefix;
  if (NEEDED_HEADINGS.every((h) => h.test(whole))) return whole;
  return readTextOrNull(fs, file.path) ?? undefined;
}

function readSentinel(fs: FsApi, file: SnapFile, sid: string): SentinelFile {
  const first = readHead(fs, file.path, SENTINEL_HEAD_BYTES, { lstatted: true }) ?? "";
  return { ...file, sid, firstLine: (first.split("\n")[0] ?? "").replace(/\r$/, "").trim() };
}

/** Read the memory folder for the restore picker, through Deps only. Heads are read only where a tier needs them. */
export function buildRestoreSnapshot(
  fs: FsApi,
  paths: MemoryPaths,
  sessionId: string,
  now: Date,
  opts: SnapshotOptions,
): RestoreSnapshot {
  const nowMs = now.getTime();
  const pendingRestores: SentinelFile[] = [];
  const pendingPrompts: SentinelFile[] = [];
  for (const name of sortedNames(fs, paths.memory)) {
    const parsed = parseSentinelName(name);
    if (!parsed || (parsed.family !== "pending-restore" && parsed.family !== "pending-prompt")) continue;
    const file = statFile(fs, paths.memory, name);
    if (!file) continue;
    if (parsed.family === "pending-restore") pendingRestores.push(readSentinel(fs, file, parsed.sid));
    else pendingPrompts.push({ ...file, sid: parsed.sid, firstLine: "" });
  }

  const wanted = new Set<string>();
  for (const s of pendingRestores) {
    if (opts.ownSentinelOnly && s.sid !== sessionId) continue;
    if (isInsideCheckpoints(paths, s.firstLine)) wanted.add(path.resolve(s.firstLine));
  }
  const checkpoints: CheckpointFile[] = [];
  // Tier 1 alone needs only the file its sentinel names: the folder is not listed, so a fall-through
  // to the full snapshot does not stat every checkpoint twice.
  const names = opts.ownSentinelOnly ? [...wanted].map((file) => path.basename(file)) : sortedNames(fs, paths.checkpoints);
  for (const name of names) {
    if (!name.endsWith(".md") || name.startsWith(".")) continue;
    const file = statFile(fs, paths.checkpoints, name);
    if (!file) continue;
    const inWindow = nowMs - file.mtimeMs < opts.checkpointWindowDays * DAY_MS && file.size >= MIN_CHECKPOINT_BYTES;
    checkpoints.push(inWindow || wanted.has(file.path) ? { ...file, head: readCheckpointHead(fs, file) } : file);
  }

  const rootCheckpoints: CheckpointFile[] = [];
  if (!opts.ownSentinelOnly) {
    for (const name of sortedNames(fs, paths.root)) {
      if (!SEED001_CHECKPOINT.test(name)) continue;
      const file = statFile(fs, paths.root, name);
      if (file && nowMs - file.mtimeMs < opts.checkpointWindowDays * DAY_MS && file.size >= MIN_CHECKPOINT_BYTES) {
        rootCheckpoints.push({ ...file, head: readCheckpointHead(fs, file) });
      }
    }
  }

  const sessionStates: SessionStateFile[] = [];
  for (const name of sortedNames(fs, paths.sessions)) {
    if (!/^\d{4}-\d{2}-\d{2}-.+\.md$/.test(name)) continue;
    const file = statFile(fs, paths.sessions, name);
    if (!file) continue;
    sessionStates.push({ ...file, text: readTextOrNull(fs, file.path) ?? "" });
  }

  const compactHappened = isUsableSessionId(sessionId) && fs.existsSync(sentinelPath(paths.memory, "compact-happened", sessionId));
  return {
    nowMs,
    sessionId,
    paths,
    checkpoints,
    rootCheckpoints,
    pendingRestores,
    pendingPrompts,
    sessionStates,
    compactHappened,
  };
}
