import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead } from "../core/file-range.ts";
import { regularFileStat } from "../core/dir-listing.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { refuseSymlinkedTree } from "../core/memory-tree-guard.ts";
import { isRecord } from "../core/value-checks.ts";
import type { HeadFields } from "./checkpoint-heads.ts";

// The head fields of every checkpoint kept in memory/checkpoint-heads.json, so a restore over
// 1,000 checkpoints does not open 1,000 files (docs/performance.md); an entry counts only while
// the file's size, mtime and inode are what they were when its head was read.

/** memory/checkpoint-heads.json: the fields of each checkpoint's head, keyed by file name. */
export const HEAD_CACHE_FILE = "checkpoint-heads.json";
/** 2: the model's words (working, lastWord) joined the fields; a version-1 file is read as empty. */
const HEAD_CACHE_VERSION = 2;
/**
 * A head younger than this is read, never cached: a file rewritten twice within one mtime tick
 * (and at the same size and inode) would otherwise keep the first head.
 */
export const HEAD_CACHE_SETTLE_MS = 2000;
/** The cache file is rewritten only for this many new heads (or as many gone ones): a restore after one save does not rewrite 1,000 entries. */
export const HEAD_CACHE_BATCH = 16;
/** A cache file larger than this is not read (about 200 bytes an entry: 50,000 checkpoints). */
const HEAD_CACHE_MAX_BYTES = 10 << 20;
/** Longer field values are not cached (the head is read instead): a checkpoint line is short. */
const MAX_FIELD = 2048;

/**
 * One entry: the file's stat key, then its fields. sessionId: a string, null (recorded unknown),
 * or false (no session-id section); the other fields: a string, or null when absent.
 */
type Entry = [
  mtimeMs: number,
  size: number,
  ino: number,
  status: string | null,
  task: string | null,
  branch: string | null,
  sessionId: string | null | false,
  intent: string | null,
  working: string | null,
  lastWord: string | null,
];

/** The stat key a cache entry must match: a rewrite (new inode by rename, new mtime or size) misses. */
export interface HeadKey {
  name: string;
  mtimeMs: number;
  size: number;
  ino?: number;
}

export interface HeadCache {
  file: string;
  entries: Map<string, Entry>;
  /** entries to write: what was valid and still listed, plus the heads read this run */
  next: Map<string, Entry>;
  misses: number;
}

const optString = (v: unknown): v is string | null =>
  v === null || (typeof v === "string" && v.length <= MAX_FIELD);

function validEntry(v: unknown): v is Entry {
  return (
    Array.isArray(v) &&
    v.length === 10 &&
    typeof v[0] === "number" &&
    typeof v[1] === "number" &&
    typeof v[2] === "number" &&
    optString(v[3]) &&
    optString(v[4]) &&
    optString(v[5]) &&
    (v[6] === false || optString(v[6])) &&
    optString(v[7]) &&
    optString(v[8]) &&
    optString(v[9])
  );
}

/** A cache with no entries (a read of one or two heads does not pay for parsing the file). */
export function emptyHeadCache(memoryDir: string): HeadCache {
  return {
    file: path.join(memoryDir, HEAD_CACHE_FILE),
    entries: new Map(),
    next: new Map(),
    misses: 0,
  };
}

/** The cache of `memoryDir`; an empty one when it is missing, not a regular file, too large or not this version. Never throws. */
export function openHeadCache(fs: FsApi, memoryDir: string): HeadCache {
  const cache = emptyHeadCache(memoryDir);
  const file = cache.file;
  const st = regularFileStat(fs, file);
  if (!st || st.size > HEAD_CACHE_MAX_BYTES) return cache;
  let doc: unknown;
  try {
    doc = JSON.parse(readHead(fs, file, st.size, { lstatted: true }) ?? "");
  } catch {
    return cache;
  }
  if (!isRecord(doc) || doc["version"] !== HEAD_CACHE_VERSION || !isRecord(doc["entries"]))
    return cache;
  for (const [name, entry] of Object.entries(doc["entries"]))
    if (validEntry(entry)) cache.entries.set(name, entry);
  return cache;
}

const orNull = (v: string | undefined): string | null => v ?? null;
const orUndefined = (v: string | null): string | undefined => v ?? undefined;

function toFields(e: Entry): HeadFields {
  return {
    ...(e[3] === null ? {} : { status: e[3] }),
    task: orUndefined(e[4]),
    branch: orUndefined(e[5]),
    sessionId: e[6] === false ? undefined : e[6],
    ...(e[7] === null ? {} : { intent: e[7] }),
    ...(e[8] === null ? {} : { working: e[8] }),
    ...(e[9] === null ? {} : { lastWord: e[9] }),
  };
}

function toEntry(key: HeadKey, ino: number, f: HeadFields): Entry {
  return [
    key.mtimeMs,
    key.size,
    ino,
    orNull(f.status),
    orNull(f.task),
    orNull(f.branch),
    f.sessionId === undefined ? false : f.sessionId,
    orNull(f.intent),
    orNull(f.working),
    orNull(f.lastWord),
  ];
}

/** The cached fields of a checkpoint whose size, mtime and inode match its entry; undefined otherwise. */
export function cachedFields(cache: HeadCache, key: HeadKey): HeadFields | undefined {
  const e = cache.entries.get(key.name);
  if (!e || key.ino === undefined || e[0] !== key.mtimeMs || e[1] !== key.size || e[2] !== key.ino)
    return undefined;
  cache.next.set(key.name, e);
  return toFields(e);
}

/** Remember fields just read from a head, unless the file is too young to be trusted by its stat (HEAD_CACHE_SETTLE_MS). */
export function rememberFields(
  cache: HeadCache,
  key: HeadKey,
  fields: HeadFields,
  nowMs: number,
): void {
  if (key.ino === undefined || nowMs - key.mtimeMs < HEAD_CACHE_SETTLE_MS) return;
  const entry = toEntry(key, key.ino, fields);
  if (!entry.every((v) => typeof v !== "string" || v.length <= MAX_FIELD)) return;
  cache.next.set(key.name, entry);
  cache.misses += 1;
}

export interface HeadCacheWrite {
  pid: number;
  /** names in checkpoints/ now (a full listing); entries for other names are dropped */
  listed: ReadonlySet<string>;
  /** rewrite after this many new heads or gone entries (HEAD_CACHE_BATCH) */
  batch?: number;
}

/**
 * Write the cache back when it is worth it: at least `batch` heads were read, or at least `batch`
 * entries (and a quarter of them) name files no longer listed. Best effort: a failure leaves the
 * old file (or none), and the next restore reads heads.
 */
export function saveHeadCache(fs: FsApi, cache: HeadCache, w: HeadCacheWrite): boolean {
  const batch = w.batch ?? HEAD_CACHE_BATCH;
  let gone = 0;
  for (const name of cache.entries.keys()) if (!w.listed.has(name)) gone += 1;
  const worth = cache.misses >= batch || (gone >= batch && gone * 4 >= cache.entries.size);
  if (!worth) return false;
  // Entries still valid but not looked at this run (a list of a narrower window) are kept.
  for (const [name, e] of cache.entries)
    if (w.listed.has(name) && !cache.next.has(name)) cache.next.set(name, e);
  const entries: Record<string, Entry> = {};
  for (const [name, e] of [...cache.next].sort((a, b) => (a[0] < b[0] ? -1 : 1))) entries[name] = e;
  try {
    refuseSymlinkedTree(fs, cache.file);
    writeAtomic(fs, cache.file, `${JSON.stringify({ version: HEAD_CACHE_VERSION, entries })}\n`, {
      mode: 0o600,
      pid: w.pid,
    });
    return true;
  } catch {
    return false;
  }
}
