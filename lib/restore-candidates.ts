import * as path from "node:path";
import { parseActiveTask } from "./checkpoint-format.ts";
import { parseCheckpointName, savedTimeLabel } from "./checkpoint-names.ts";
import { firstLineOf, parseSections, sectionBody } from "./markdown-sections.ts";
import { isInsideCheckpoints } from "./memory-paths.ts";
import { MIN_CHECKPOINT_BYTES, type CheckpointFile, type RestoreSnapshot, type SentinelFile } from "./restore-snapshot.ts";
import { utcHuman } from "./time-format.ts";

export const DAY_MS = 86_400_000;
/** Tier 3: checkpoints on disk are candidates for 30 days (sentinels only for QUOIN_RESTORE_SENTINEL_WINDOW). */
export const CHECKPOINT_WINDOW_DAYS = 30;

/** One entry of the picker list: a checkpoint file, annotated as step 2 of the seed says. */
export interface Candidate {
  file: string;
  name: string;
  mtimeMs: number;
  size: number;
  task: string;
  branch: string;
  /** undefined: no `## Session ID` section (legacy); null: recorded as unknown */
  sessionId: string | null | undefined;
  /** YYYY-MM-DD HH:MM UTC, YYYY-MM-DD (legacy) or YYYY-MM-DD (precompact) */
  saved: string;
  source: "sentinel" | "disk-only";
  /** absolute path of the pending-restore sentinel naming this checkpoint, when sentinel-backed */
  sentinel: string | null;
}

export interface HeadFields {
  task?: string;
  branch?: string;
  sessionId?: string | null;
}

/** The fields the picker needs from a checkpoint's first sections. */
export function headFields(head: string): HeadFields {
  const sections = parseSections(head);
  const sidBody = sectionBody(sections, "Session ID");
  const sid = firstLineOf(sidBody);
  return {
    // The seed's awk: the line after `## Active task`, CR stripped.
    task: parseActiveTask(head),
    branch: firstLineOf(sectionBody(sections, "Branch")),
    sessionId: sidBody === undefined ? undefined : sid && sid !== "unknown" ? sid : null,
  };
}

/** Step 2 saved-time: from the file name's shape; a name of none of the three shapes shows its mtime. */
export function savedLabel(name: string, mtimeMs: number): string {
  const shape = parseCheckpointName(name);
  return shape ? savedTimeLabel(shape) : `${utcHuman(new Date(mtimeMs))} (mtime)`;
}

export function checkpointIndex(snap: RestoreSnapshot): Map<string, CheckpointFile> {
  return new Map(snap.checkpoints.map((c) => [path.resolve(c.path), c]));
}

/**
 * The checkpoint a pending-restore sentinel names, or null. A path read from a sentinel is
 * trusted only if it resolves to a file directly inside this project's checkpoints/ folder.
 */
export function sentinelTarget(snap: RestoreSnapshot, index: Map<string, CheckpointFile>, sentinel: SentinelFile): CheckpointFile | null {
  const target = sentinel.firstLine;
  if (target === "" || !isInsideCheckpoints(snap.paths, target)) return null;
  return index.get(path.resolve(target)) ?? null;
}

/** A candidate from a checkpoint file; null when `## Active task` cannot be parsed (dropped silently). */
export function toCandidate(file: CheckpointFile, sentinel: string | null): Candidate | null {
  if (file.head === undefined) return null;
  const fields = headFields(file.head);
  if (!fields.task) return null;
  return {
    file: file.path,
    name: file.name,
    mtimeMs: file.mtimeMs,
    size: file.size,
    task: fields.task,
    branch: fields.branch ?? "(unknown)",
    sessionId: fields.sessionId,
    saved: savedLabel(file.name, file.mtimeMs),
    source: sentinel ? "sentinel" : "disk-only",
    sentinel,
  };
}

export interface EnumerationWindows {
  sentinelWindowDays: number;
  dedupWindowDays: number;
}

export interface Enumeration {
  /** newest first (checkpoint mtime) */
  candidates: Candidate[];
  staleSentinels: number;
  messages: string[];
}

/**
 * Step 3 de-duplication: drop `<date>-<task>-precompact.md` when `<date>-<task>.md` exists and
 * their mtimes are within the window. Older pairs stay independent entries.
 */
function dropPrecompactTwins(list: Candidate[], windowDays: number): Candidate[] {
  const byName = new Map(list.map((c) => [c.name, c]));
  return list.filter((c) => {
    if (!c.name.endsWith("-precompact.md")) return true;
    const twin = byName.get(`${c.name.slice(0, -"-precompact.md".length)}.md`);
    return !twin || Math.abs(twin.mtimeMs - c.mtimeMs) > windowDays * DAY_MS;
  });
}

/** Tier 3 full enumeration: in-window sentinels (B1) plus 30-day checkpoints, de-duplicated by path. */
export function enumerateCandidates(snap: RestoreSnapshot, w: EnumerationWindows): Enumeration {
  const index = checkpointIndex(snap);
  const messages: string[] = [];
  const byPath = new Map<string, Candidate>();

  // B1: sentinels within the window, newest first so the newest sentinel backs a shared checkpoint.
  const sentinels = snap.pendingRestores.filter((s) => snap.nowMs - s.mtimeMs < w.sentinelWindowDays * DAY_MS);
  const stale = snap.pendingRestores.length - sentinels.length;
  if (stale > 0) {
    messages.push(`[checkpoint] ${stale} stale pending-restore-*.txt sentinels older than ${w.sentinelWindowDays}d skipped`);
  }
  for (const s of [...sentinels].sort((a, b) => b.mtimeMs - a.mtimeMs)) {
    const target = sentinelTarget(snap, index, s);
    if (!target || target.size < MIN_CHECKPOINT_BYTES) continue;
    const key = path.resolve(target.path);
    if (byPath.has(key)) continue;
    const c = toCandidate(target, s.path);
    if (c) byPath.set(key, c);
  }

  // Checkpoints within 30 days; files under 100 bytes are skipped (0-byte corrupt entries).
  for (const file of snap.checkpoints) {
    if (snap.nowMs - file.mtimeMs >= CHECKPOINT_WINDOW_DAYS * DAY_MS) continue;
    if (file.size < MIN_CHECKPOINT_BYTES) continue;
    const key = path.resolve(file.path);
    if (byPath.has(key)) continue;
    const c = toCandidate(file, null);
    if (c) byPath.set(key, c);
  }

  const sorted = [...byPath.values()].sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
  return { candidates: dropPrecompactTwins(sorted, w.dedupWindowDays), staleSentinels: stale, messages };
}
