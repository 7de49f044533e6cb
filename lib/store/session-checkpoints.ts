import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { sortedNames } from "../core/dir-listing.ts";
import { readHead } from "../core/file-range.ts";
import { DAY_MS, utcDate } from "../core/time-format.ts";
import { parseCheckpoint } from "./checkpoint-parse.ts";
import { kindOf } from "./checkpoint-status.ts";
import type { MemoryPaths } from "./memory-paths.ts";

// Checkpoints of one session, or the newest session-end snapshot, found from the first sections
// of the files whose name date is recent enough: the folder may hold thousands, a hook reads few.

/** Heads read per lookup at most (newest name dates first). */
export const SESSION_LOOKUP_LIMIT = 200;
const HEAD_READ_BYTES = 2048;
const DATED = /^(\d{4}-\d{2}-\d{2})[T-].*\.md$/;

export interface CheckpointHead {
  file: string;
  name: string;
  status: string | undefined;
  task: string | undefined;
  /** undefined: no `sessionId` section; null: recorded as unknown */
  sessionId: string | null | undefined;
  /** The `savedAt` section, as written */
  savedAt: string | undefined;
  savedMs: number | null;
  /** The `head` section: undefined when not recorded (older checkpoints), null when recorded as `(none)` */
  head: string | null | undefined;
}

function headOf(deps: Deps, dir: string, name: string): CheckpointHead | null {
  const file = path.join(dir, name);
  try {
    // lstat: a symlink in checkpoints/ may point anywhere; only regular files are read.
    if (!deps.fs.lstatSync(file).isFile()) return null;
  } catch {
    return null;
  }
  const head = readHead(deps.fs, file, HEAD_READ_BYTES);
  if (head === null) return null;
  const p = parseCheckpoint(head);
  const savedMs = p.savedAt ? Date.parse(p.savedAt) : NaN;
  return {
    file,
    name,
    status: p.status,
    task: p.task,
    sessionId: p.sessionId,
    savedAt: p.savedAt,
    savedMs: Number.isFinite(savedMs) ? savedMs : null,
    head: p.head,
  };
}

/** Heads of checkpoints named on or after `sinceMs`'s UTC day, newest name first, at most SESSION_LOOKUP_LIMIT. */
function recentCheckpointHeads(deps: Deps, paths: MemoryPaths, sinceMs: number): CheckpointHead[] {
  const since = utcDate(new Date(sinceMs));
  const names = sortedNames(deps.fs, paths.checkpoints)
    .filter((n) => {
      const m = DATED.exec(n);
      return m !== null && m[1]! >= since;
    })
    .reverse()
    .slice(0, SESSION_LOOKUP_LIMIT);
  return names
    .map((n) => headOf(deps, paths.checkpoints, n))
    .filter((h): h is CheckpointHead => h !== null);
}

/** How far back a session's own checkpoints are looked for when its start is unknown. */
const UNKNOWN_START_DAYS = 30;

/**
 * Two checkpoints saved in the same second: the one created second carries the exclusive-create
 * suffix of the first's name (`...-parser.md`, then `...-parser-2.md`).
 */
function laterTwin(a: CheckpointHead, b: CheckpointHead): boolean {
  const stem = (n: string) => n.replace(/\.md$/, "");
  const m = /-(\d+)$/.exec(stem(a.name));
  if (!m) return false;
  const n = /-(\d+)$/.exec(stem(b.name));
  const aBase = stem(a.name).slice(0, -m[0].length);
  if (aBase === stem(b.name)) return true;
  return n !== null && aBase === stem(b.name).slice(0, -n[0].length) && Number(m[1]) > Number(n[1]);
}

/**
 * This session's newest checkpoint (any kind: curated, precompact, session end) by the `savedAt` section
 * (a same-second twin by its name), or null.
 */
export function newestCheckpointOf(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  sessionStartIso: string | null,
): { file: string; savedAt: string; head: string | null | undefined } | null {
  const start = sessionStartIso ? Date.parse(sessionStartIso) : NaN;
  const sinceMs = Number.isFinite(start)
    ? start
    : deps.now().getTime() - UNKNOWN_START_DAYS * DAY_MS;
  let best: CheckpointHead | null = null;
  for (const h of recentCheckpointHeads(deps, paths, sinceMs)) {
    if (h.sessionId !== sid || h.savedMs === null) continue;
    if (
      !best ||
      h.savedMs > (best.savedMs ?? 0) ||
      (h.savedMs === best.savedMs && laterTwin(h, best))
    )
      best = h;
  }
  return best?.savedAt ? { file: best.file, savedAt: best.savedAt, head: best.head } : null;
}

/** The newest session-end snapshot saved within `maxAgeMs`, of a session other than `notSid`. */
export function newestSessionEndSnapshot(
  deps: Deps,
  paths: MemoryPaths,
  notSid: string | null,
  maxAgeMs: number,
): CheckpointHead | null {
  const nowMs = deps.now().getTime();
  let best: CheckpointHead | null = null;
  for (const h of recentCheckpointHeads(deps, paths, nowMs - maxAgeMs)) {
    if (
      kindOf(h.status).kind !== "session-end" ||
      h.savedMs === null ||
      nowMs - h.savedMs > maxAgeMs
    )
      continue;
    if (notSid && h.sessionId === notSid) continue;
    if (!best || h.savedMs > (best.savedMs ?? 0)) best = h;
  }
  return best;
}
