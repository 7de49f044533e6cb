import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead, readTextOrNull } from "../core/file-range.ts";
import { regularFileStat } from "../core/dir-listing.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { refuseSymlinkedTree } from "../core/memory-tree-guard.ts";
import { isRecord } from "../core/value-checks.ts";
import { unescapeBody } from "../core/markdown-sections.ts";
import { titleOf, type SectionKey } from "../store/checkpoint-sections.ts";

// What the picker needs from a checkpoint's first sections (status, task, branch, session id,
// intent), read cheaply, and a cache of it in memory/checkpoint-heads.json so a restore over
// 1,000 checkpoints does not open 1,000 files (docs/performance.md).

export interface HeadFields {
  status?: string;
  task?: string;
  branch?: string;
  /** undefined: no session-id section (legacy); null: recorded as unknown */
  sessionId?: string | null;
  /** first line of the intent section, when it lies within the head */
  intent?: string;
}

/** Enough for Status, Current stage, Active task, Branch and Session ID of a checkpoint this tool writes (else the whole file is read). */
export const HEAD_BYTES = 1024;

/** `## Title` of a section, as the file has it (the section table's title). */
const heading = (key: SectionKey) => `## ${titleOf(key)}`;
const NEEDED_HEADINGS = (["task", "branch", "sessionId"] as const).map(
  (k) => new RegExp(`^${heading(k)}\\s*$`, "m"),
);
/** `line` is the heading of `key` (trailing blanks allowed). */
const isHeading = (line: string, key: SectionKey) =>
  line.startsWith(heading(key)) && line.slice(heading(key).length).trim() === "";
const TITLE = {
  branch: titleOf("branch").toLowerCase(),
  sessionId: titleOf("sessionId").toLowerCase(),
  intent: titleOf("intent").toLowerCase(),
};

/**
 * The first sections of a checkpoint, read cheaply: a 1 KB prefix cut back to whole sections;
 * the whole file only when a section the picker needs is not in the prefix. `file` was just
 * lstatted as a regular file (regularFileStat).
 */
export function readCheckpointHead(
  fs: FsApi,
  file: { path: string; size: number },
): string | undefined {
  const prefix = readHead(fs, file.path, HEAD_BYTES, { lstatted: true });
  if (prefix === null) return undefined;
  if (file.size <= HEAD_BYTES) return prefix;
  const lastHeading = prefix.lastIndexOf("\n## ");
  const whole = lastHeading > 0 ? prefix.slice(0, lastHeading + 1) : prefix;
  if (NEEDED_HEADINGS.every((h) => h.test(whole))) return whole;
  return readTextOrNull(fs, file.path) ?? undefined;
}

function normalTitle(line: string): string {
  return line.slice(3).trim().replace(/:$/, "").toLowerCase();
}

/**
 * The fields the picker needs from a checkpoint's first sections, in one pass over the lines.
 * NOTE: runs on up to thousands of heads per restore, so it stops once it has all three; the
 * results equal parseSections + firstLineOf (and parseActiveTask for the task).
 */
export function headFields(head: string): HeadFields {
  let task: string | undefined;
  let status: string | undefined;
  let statusNext = false;
  let branch: string | null | undefined;
  let sid: string | null | undefined;
  let intent: string | undefined;
  let intentSeen = false;
  // which field the next non-blank line fills: 1 branch, 2 session id, 3 intent
  let want = 0;
  let taskNext = false;
  let at = 0;
  while (at <= head.length) {
    const end = head.indexOf("\n", at);
    const raw = head.slice(at, end < 0 ? head.length : end);
    at = end < 0 ? head.length + 1 : end + 1;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    // a field's value as written (an escaped `#` or `---` line is text, never a heading)
    const value = () => unescapeBody(line).trim();
    if (statusNext && line.trim() !== "") {
      status = value();
      statusNext = false;
    }
    if (taskNext) {
      // The seed's awk: the line right after the task heading, CR stripped.
      task = value() || undefined;
      taskNext = false;
    }
    if (line.startsWith("## ")) {
      if (want === 1) branch = null;
      if (want === 2) sid = null;
      want = 0;
      statusNext = false;
      if (isHeading(line, "task") && task === undefined) taskNext = true;
      if (isHeading(line, "status") && status === undefined) statusNext = true;
      const title = normalTitle(line);
      if (title === TITLE.branch && branch === undefined) want = 1;
      else if (title === TITLE.sessionId && sid === undefined) want = 2;
      else if (title === TITLE.intent && !intentSeen) {
        want = 3;
        intentSeen = true;
      }
    } else if (want !== 0 && line.trim() !== "") {
      if (want === 1) branch = value();
      else if (want === 2) sid = value();
      else intent = value() === "(none)" ? undefined : value();
      want = 0;
    }
    // The intent follows the session link; past the artifacts it is not there.
    const pastIntent = intentSeen || isHeading(line, "artifacts");
    if (task !== undefined && branch !== undefined && sid !== undefined && pastIntent && want === 0)
      break;
  }
  if (want === 1) branch = null;
  if (want === 2) sid = null;
  return {
    ...(status === undefined ? {} : { status }),
    task,
    branch: branch ?? undefined,
    sessionId: sid === undefined ? undefined : sid && sid !== "unknown" ? sid : null,
    ...(intent ? { intent } : {}),
  };
}

/** memory/checkpoint-heads.json: the fields of each checkpoint's head, keyed by file name. */
export const HEAD_CACHE_FILE = "checkpoint-heads.json";
const HEAD_CACHE_VERSION = 1;
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
    v.length === 8 &&
    typeof v[0] === "number" &&
    typeof v[1] === "number" &&
    typeof v[2] === "number" &&
    optString(v[3]) &&
    optString(v[4]) &&
    optString(v[5]) &&
    (v[6] === false || optString(v[6])) &&
    optString(v[7])
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
