import * as path from "node:path";
import { parseCheckpointName, savedTimeLabel } from "../store/checkpoint-names.ts";
import { isInsideCheckpoints } from "../store/memory-paths.ts";
import { kindOf } from "../store/checkpoint-status.ts";
import {
  SEED001_CHECKPOINT,
  type CheckpointFile,
  type MemoryListing,
  type SentinelFile,
} from "./memory-listing.ts";
import { utcHuman, DAY_MS } from "../core/time-format.ts";
import type { HeadFields } from "./checkpoint-heads.ts";
import { compareNames } from "../core/dir-listing.ts";
import type { DamageKind } from "./checkpoint-damage.ts";

/**
 * Tier 3 (full enumeration): checkpoints on disk are candidates for 30 days (sentinels only for
 * QUOIN_RESTORE_SENTINEL_WINDOW).
 */
export const CHECKPOINT_WINDOW_DAYS = 30;

/** One entry of the picker list: a checkpoint file, annotated as the seed's restore step 2 says. */
export interface Candidate {
  file: string;
  name: string;
  mtimeMs: number;
  size: number;
  task: string;
  branch: string;
  /** undefined: no `sessionId` section (legacy); null: recorded as unknown */
  sessionId: string | null | undefined;
  /** YYYY-MM-DD HH:MM UTC, YYYY-MM-DD (legacy) or YYYY-MM-DD (precompact) */
  saved: string;
  source: "sentinel" | "disk-only";
  /** absolute path of the pending-restore sentinel naming this checkpoint, when sentinel-backed */
  sentinel: string | null;
  /** The `status` section, first line, when the head has it */
  status?: string;
  /** The `intent` section (the model's intent, else the newest request), so two saves of one task differ */
  intent?: string;
  /** what the session was doing in the model's words (checkpoint-heads.ts), when the head holds it */
  working?: string;
  lastWord?: string;
  /** why it cannot be restored as a checkpoint: listed, marked, never picked by itself */
  damage?: DamageKind;
}

/** Restore step 2 saved-time: from the file name's shape; a name of none of the three shapes shows its mtime. */
export function savedLabel(name: string, mtimeMs: number): string {
  const shape = parseCheckpointName(name);
  return shape ? savedTimeLabel(shape) : `${utcHuman(new Date(mtimeMs))} (mtime)`;
}

const indexes = new WeakMap<MemoryListing, Map<string, CheckpointFile>>();

/** Checkpoints by resolved path, built once per listing. */
export function checkpointIndex(snap: MemoryListing): Map<string, CheckpointFile> {
  let index = indexes.get(snap);
  if (!index) {
    // Listing paths are absolute and normal already (path.join of an absolute folder).
    index = new Map(
      snap.checkpoints.map((c) => [path.isAbsolute(c.path) ? c.path : path.resolve(c.path), c]),
    );
    indexes.set(snap, index);
  }
  return index;
}

/**
 * The checkpoint a pending-restore sentinel names, or null. A path read from a sentinel is
 * trusted only if it resolves to a file directly inside this project's checkpoints/ folder.
 */
export function sentinelTarget(
  snap: MemoryListing,
  index: Map<string, CheckpointFile>,
  sentinel: SentinelFile,
): CheckpointFile | null {
  const target = sentinel.firstLine;
  if (target === "" || !isInsideCheckpoints(snap.paths, target)) return null;
  return index.get(path.resolve(target)) ?? null;
}

/**
 * Seed 001's root files have no `task` section: their task is named after the file
 * (`claude-checkpoint`, `claude-checkpoint.<slug>`), which says whose it is.
 */
function seed001Task(name: string): string | undefined {
  return SEED001_CHECKPOINT.test(name) ? name.slice(1, -".md".length) : undefined;
}

/**
 * A candidate from a checkpoint file; a damaged one is a candidate marked so (listed, never picked
 * by itself); null when its head was not read, or its task section cannot be parsed.
 */
export function toCandidate(file: CheckpointFile, sentinel: string | null): Candidate | null {
  if (file.fields === undefined) return null;
  const fields: HeadFields =
    file.fields.task === undefined ? { ...file.fields, task: seed001Task(file.name) } : file.fields;
  if (file.damage) return damagedCandidate(file, sentinel, file.damage);
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
    ...(fields.status === undefined ? {} : { status: fields.status }),
    ...(fields.intent ? { intent: fields.intent } : {}),
    ...(fields.working ? { working: fields.working } : {}),
    ...(fields.lastWord ? { lastWord: fields.lastWord } : {}),
  };
}

function damagedCandidate(
  file: CheckpointFile,
  sentinel: string | null,
  damage: DamageKind,
): Candidate {
  const f = damage === "not a checkpoint" ? {} : (file.fields ?? {});
  return {
    file: file.path,
    name: file.name,
    mtimeMs: file.mtimeMs,
    size: file.size,
    task: f.task || "(unknown task)",
    branch: f.branch || "(unknown)",
    sessionId: f.sessionId,
    saved: savedLabel(file.name, file.mtimeMs),
    source: sentinel ? "sentinel" : "disk-only",
    sentinel,
    damage,
  };
}

/**
 * The checkpoint files the picker does not offer by itself (older than its window, a twin it
 * dropped), newest first: numbered after its candidates, so `list` and `--pick` count alike.
 */
export function notOffered(snap: MemoryListing, offered: readonly Candidate[]): Candidate[] {
  const seen = new Set(offered.map((c) => c.file));
  return groupBySession(notOfferedRows(snap, seen));
}

/**
 * Rows of one session together, groups ordered by their newest row, each group's rows in the
 * order given (newest first, a curated save before the snapshot it outranks); a row with no
 * session id is a group of its own.
 */
export function groupBySession(list: readonly Candidate[]): Candidate[] {
  const groups: Candidate[][] = [];
  const bySid = new Map<string, Candidate[]>();
  for (const c of list) {
    const group = c.sessionId ? bySid.get(c.sessionId) : undefined;
    if (group) group.push(c);
    else {
      groups.push([c]);
      if (c.sessionId) bySid.set(c.sessionId, groups[groups.length - 1]!);
    }
  }
  const newest = (g: readonly Candidate[]) => Math.max(...g.map((c) => c.mtimeMs));
  return groups.sort((a, b) => newest(b) - newest(a)).flat();
}

function notOfferedRows(snap: MemoryListing, seen: ReadonlySet<string>): Candidate[] {
  return [...snap.checkpoints]
    .filter((c) => !seen.has(c.path))
    .sort((a, b) => b.mtimeMs - a.mtimeMs || compareNames(b.name, a.name))
    .map(
      (c) =>
        toCandidate(c, null) ?? {
          file: c.path,
          name: c.name,
          mtimeMs: c.mtimeMs,
          size: c.size,
          task: c.fields ? "(no Active task)" : "(not read)",
          branch: c.fields?.branch ?? "(unknown)",
          sessionId: c.fields?.sessionId ?? null,
          saved: savedLabel(c.name, c.mtimeMs),
          source: "disk-only" as const,
          sentinel: null,
        },
    );
}

export interface EnumerationWindows {
  sentinelWindowDays: number;
  dedupWindowDays: number;
}

export interface Enumeration {
  /** grouped by session, groups newest first (checkpoint mtime) */
  candidates: Candidate[];
  staleSentinels: number;
  messages: string[];
}

/**
 * Restore step 3 de-duplication: drop `<date>-<task>-precompact.md` when `<date>-<task>.md` exists and
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

/**
 * A session-end snapshot against a curated checkpoint (/checkpoint) of the same session, within
 * the window: the curated one outranks it, as a checkpoint outranks its precompact twin. Older than
 * the curated one, the snapshot is dropped (the session was saved by hand after it); newer, it
 * stays (it holds the work done since) but is listed right after the curated one, never before.
 */
function rankSessionEndSnapshots(list: readonly Candidate[], windowDays: number): Candidate[] {
  const curated = list.filter((c) => c.sessionId && kindOf(c.status).kind === "voluntary");
  const outranking = (c: Candidate) =>
    kindOf(c.status).kind === "session-end" && c.sessionId
      ? curated.find(
          (k) =>
            k.sessionId === c.sessionId && Math.abs(k.mtimeMs - c.mtimeMs) <= windowDays * DAY_MS,
        )
      : undefined;
  const held = new Map<Candidate, Candidate[]>();
  const out: Candidate[] = [];
  for (const c of list) {
    const over = outranking(c);
    if (!over) out.push(c);
    else if (c.mtimeMs > over.mtimeMs) held.set(over, [...(held.get(over) ?? []), c]);
  }
  return out.flatMap((c) => [c, ...(held.get(c) ?? [])]);
}

/**
 * Tier 3 full enumeration: in-window sentinels (the seed's B1 mtime filter) plus 30-day
 * checkpoints, de-duplicated by path.
 */
export function enumerateCandidates(snap: MemoryListing, w: EnumerationWindows): Enumeration {
  const index = checkpointIndex(snap);
  const messages: string[] = [];
  const byPath = new Map<string, Candidate>();

  // B1 (the mtime filter): sentinels within the window, newest first so the newest sentinel backs a
  // shared checkpoint.
  const sentinels = snap.pendingRestores.filter(
    (s) => snap.nowMs - s.mtimeMs < w.sentinelWindowDays * DAY_MS,
  );
  const stale = snap.pendingRestores.length - sentinels.length;
  if (stale > 0) {
    messages.push(
      `[checkpoint] ${stale} stale pending-restore-*.txt sentinels older than ${w.sentinelWindowDays}d skipped`,
    );
  }
  for (const s of [...sentinels].sort((a, b) => b.mtimeMs - a.mtimeMs)) {
    const target = sentinelTarget(snap, index, s);
    if (!target) continue;
    const key = target.path;
    if (byPath.has(key)) continue;
    const c = toCandidate(target, s.path);
    if (c) byPath.set(key, c);
  }

  // Checkpoints within 30 days, damaged ones included (marked). Seed 001's root files (already
  // windowed by the listing) are candidates the same way.
  for (const file of [...snap.checkpoints, ...(snap.rootCheckpoints ?? [])]) {
    if (snap.nowMs - file.mtimeMs >= CHECKPOINT_WINDOW_DAYS * DAY_MS) continue;
    // Listing paths are already absolute and normal (path.join), the same keys as the index.
    if (byPath.has(file.path)) continue;
    const c = toCandidate(file, null);
    if (c) byPath.set(file.path, c);
  }

  const sorted = [...byPath.values()].sort(
    (a, b) => b.mtimeMs - a.mtimeMs || compareNames(b.name, a.name),
  );
  return {
    candidates: groupBySession(
      rankSessionEndSnapshots(dropPrecompactTwins(sorted, w.dedupWindowDays), w.dedupWindowDays),
    ),
    staleSentinels: stale,
    messages,
  };
}
