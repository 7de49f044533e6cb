import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead, readTextOrNull } from "../core/file-range.ts";
import { headFields, HEAD_BYTES, readCheckpointHead, type HeadFields } from "./checkpoint-heads.ts";
import {
  cachedFields,
  emptyHeadCache,
  openHeadCache,
  rememberFields,
  saveHeadCache,
  type HeadCache,
} from "./head-cache.ts";
import { isInsideCheckpoints, type MemoryPaths } from "../store/memory-paths.ts";
import { parseSentinelName, SENTINEL_HEAD_BYTES, sentinelPath } from "../store/sentinels.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { regularFileStat, sortedNames } from "../core/dir-listing.ts";
import { DAY_MS } from "../core/time-format.ts";
import { damageOf, type DamageKind } from "./checkpoint-damage.ts";

/** One file the picker may look at: what stat gives, no content. */
export interface ListedFile {
  name: string;
  path: string;
  mtimeMs: number;
  size: number;
  /** the inode (the head cache's key with mtime and size) */
  ino?: number;
}

export interface CheckpointFile extends ListedFile {
  /** what the picker reads from the first sections (status, task, branch, session id, intent); absent when not read */
  fields?: HeadFields;
  /** why it cannot be restored as a checkpoint, when its head shows it (checkpoint-damage.ts) */
  damage?: DamageKind;
}

export interface SentinelFile extends ListedFile {
  sid: string;
  /** line 1 (a checkpoint path for pending-restore), CR stripped, trimmed */
  firstLine: string;
}

export interface SessionStateFile extends ListedFile {
  text: string;
}

/** Everything the restore picker decides on, read once. The picker itself does no I/O. */
export interface MemoryListing {
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

export interface ListingOptions {
  /** checkpoints within this many days get their head read (Tier 3, full enumeration, needs them) */
  checkpointWindowDays: number;
  /** list and read only the checkpoint this session's own sentinel names (Tier 1 alone) */
  ownSentinelOnly?: boolean;
  /**
   * QUOIN_RESTORE_SENTINEL_WINDOW: line 1 of an older pending-restore sentinel is read only when it
   * is this session's or its session has a held prompt (Tier 2, the pending-prompt
   * cross-reference); absent: every sentinel is read.
   * With ownSentinelOnly only this session's is read.
   */
  sentinelWindowDays?: number;
  /** this process's pid: write the head cache back (head-cache.ts) when it is worth it; absent: read it only */
  headCachePid?: number;
  /** HEAD_CACHE_BATCH, for tests */
  headCacheBatch?: number;
}

export const MIN_CHECKPOINT_BYTES = 100;

// Only regular files are ever read (regularFileStat: a restore may show a checkpoint raw).
// NOTE: dir is a normal absolute folder (memoryPaths) and name a directory entry, so a plain
// concatenation is path.join's answer without its normalizing pass over 1,000 names.
function statFile(fs: FsApi, dir: string, name: string): ListedFile | null {
  const full = dir.endsWith(path.sep) ? `${dir}${name}` : `${dir}${path.sep}${name}`;
  const st = regularFileStat(fs, full);
  return st ? { name, path: full, ...st } : null;
}

/** Seed 001's per-session files in the project root: `.claude-checkpoint.md`, `.claude-checkpoint.<slug>.md`. */
export const SEED001_CHECKPOINT = /^\.claude-checkpoint(?:\.[A-Za-z0-9-]{1,64})?\.md$/;

function readSentinel(fs: FsApi, file: ListedFile, sid: string): SentinelFile {
  const first = readHead(fs, file.path, SENTINEL_HEAD_BYTES, { lstatted: true }) ?? "";
  return { ...file, sid, firstLine: (first.split("\n")[0] ?? "").replace(/\r$/, "").trim() };
}

/** pending-restore and pending-prompt sentinels; line 1 of a pending-restore only where a tier may use it. */
function readSentinels(
  fs: FsApi,
  paths: MemoryPaths,
  sessionId: string,
  nowMs: number,
  opts: ListingOptions,
): Pick<MemoryListing, "pendingRestores" | "pendingPrompts"> {
  const restores: Array<{ file: ListedFile; sid: string }> = [];
  const pendingPrompts: SentinelFile[] = [];
  for (const name of sortedNames(fs, paths.memory)) {
    const parsed = parseSentinelName(name);
    if (!parsed || (parsed.family !== "pending-restore" && parsed.family !== "pending-prompt"))
      continue;
    const file = statFile(fs, paths.memory, name);
    if (!file) continue;
    if (parsed.family === "pending-restore") restores.push({ file, sid: parsed.sid });
    else pendingPrompts.push({ ...file, sid: parsed.sid, firstLine: "" });
  }
  const window = opts.sentinelWindowDays;
  const held = new Set(pendingPrompts.map((p) => p.sid));
  // A stale sentinel is only counted (enumerateCandidates): its line 1 is not read.
  const needed = (r: { file: ListedFile; sid: string }) =>
    r.sid === sessionId ||
    (!opts.ownSentinelOnly &&
      (window === undefined || nowMs - r.file.mtimeMs < window * DAY_MS || held.has(r.sid)));
  const pendingRestores = restores.map((r) =>
    needed(r) ? readSentinel(fs, r.file, r.sid) : { ...r.file, sid: r.sid, firstLine: "" },
  );
  return { pendingRestores, pendingPrompts };
}

/** A checkpoint's head fields: from the cache when its stat matches, else read (and remembered). */
function fieldsOf(
  fs: FsApi,
  cache: HeadCache,
  file: ListedFile,
  nowMs: number,
): HeadFields | undefined {
  const hit = cachedFields(cache, file);
  if (hit) return hit;
  const head = readCheckpointHead(fs, file);
  if (head === undefined) return undefined;
  const fields = headFields(head);
  rememberFields(cache, file, fields, nowMs);
  return fields;
}

/**
 * Head fields through the cache, and damage where the head shows it: an empty file; a head with
 * none of the fields the picker reads (not a checkpoint); a file of at most HEAD_BYTES is its own
 * head, read whole and checked (cut short, not a checkpoint; a checkpoint written here is usually larger,
 * so this costs a read only for odd files). A file cut past its head shows it only when restored.
 */
function readSmallOrCached(
  fs: FsApi,
  cache: HeadCache,
  file: ListedFile,
  nowMs: number,
): Pick<CheckpointFile, "fields" | "damage"> {
  if (file.size === 0) return { fields: {}, damage: "empty" };
  const fields = fieldsOf(fs, cache, file, nowMs);
  if (!fields) return {};
  if (file.size <= HEAD_BYTES) {
    const text = readHead(fs, file.path, HEAD_BYTES, { lstatted: true });
    const damage = text === null ? null : damageOf(text, file.size);
    if (damage) return { fields, damage };
  }
  const named = [fields.status, fields.task, fields.branch, fields.sessionId, fields.intent];
  return named.every((v) => v === undefined) ? { fields, damage: "not a checkpoint" } : { fields };
}

/** checkpoints/*.md (temp files excluded), with head fields where a tier needs them. */
function readCheckpoints(
  fs: FsApi,
  paths: MemoryPaths,
  nowMs: number,
  wanted: ReadonlySet<string>,
  opts: ListingOptions,
): CheckpointFile[] {
  // Tier 1 alone reads one head: parsing the cache of 1,000 would cost more.
  const cache = opts.ownSentinelOnly
    ? emptyHeadCache(paths.memory)
    : openHeadCache(fs, paths.memory);
  const checkpoints: CheckpointFile[] = [];
  // Tier 1 alone needs only the file its sentinel names: the folder is not listed, so a fall-through
  // to the full listing does not stat every checkpoint twice.
  const names = opts.ownSentinelOnly
    ? [...wanted].map((file) => path.basename(file))
    : sortedNames(fs, paths.checkpoints);
  const listed = new Set<string>();
  for (const name of names) {
    if (!name.endsWith(".md") || name.startsWith(".")) continue;
    const file = statFile(fs, paths.checkpoints, name);
    if (!file) continue;
    listed.add(name);
    const inWindow = nowMs - file.mtimeMs < opts.checkpointWindowDays * DAY_MS;
    checkpoints.push(
      inWindow || wanted.has(file.path)
        ? { ...file, ...readSmallOrCached(fs, cache, file, nowMs) }
        : file,
    );
  }
  if (opts.headCachePid !== undefined && !opts.ownSentinelOnly) {
    saveHeadCache(fs, cache, {
      pid: opts.headCachePid,
      listed,
      ...(opts.headCacheBatch === undefined ? {} : { batch: opts.headCacheBatch }),
    });
  }
  return checkpoints;
}

/** Read the memory folder for the restore picker, through Deps only. Heads are read only where a tier needs them. */
export function buildMemoryListing(
  fs: FsApi,
  paths: MemoryPaths,
  sessionId: string,
  now: Date,
  opts: ListingOptions,
): MemoryListing {
  const nowMs = now.getTime();
  const { pendingRestores, pendingPrompts } = readSentinels(fs, paths, sessionId, nowMs, opts);
  const wanted = new Set<string>();
  for (const s of pendingRestores) {
    if (opts.ownSentinelOnly && s.sid !== sessionId) continue;
    if (s.firstLine !== "" && isInsideCheckpoints(paths, s.firstLine))
      wanted.add(path.resolve(s.firstLine));
  }
  const checkpoints = readCheckpoints(fs, paths, nowMs, wanted, opts);

  const rootCheckpoints: CheckpointFile[] = [];
  if (!opts.ownSentinelOnly) {
    for (const name of sortedNames(fs, paths.root)) {
      if (!SEED001_CHECKPOINT.test(name)) continue;
      const file = statFile(fs, paths.root, name);
      if (
        !file ||
        nowMs - file.mtimeMs >= opts.checkpointWindowDays * DAY_MS ||
        file.size < MIN_CHECKPOINT_BYTES
      )
        continue;
      const head = readCheckpointHead(fs, file);
      rootCheckpoints.push(head === undefined ? file : { ...file, fields: headFields(head) });
    }
  }
  const sessionStates: SessionStateFile[] = [];
  for (const name of sortedNames(fs, paths.sessions)) {
    if (!/^\d{4}-\d{2}-\d{2}-.+\.md$/.test(name)) continue;
    const file = statFile(fs, paths.sessions, name);
    if (!file) continue;
    sessionStates.push({ ...file, text: readTextOrNull(fs, file.path) ?? "" });
  }

  const compactHappened =
    isUsableSessionId(sessionId) &&
    fs.existsSync(sentinelPath(paths.memory, "compact-happened", sessionId));
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
