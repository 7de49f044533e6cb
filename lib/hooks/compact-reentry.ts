import { TEXT_LIMITS } from "../core/text-limits.ts";
import { firstOf, listWithin } from "../core/text-list.ts";
import { todoMark } from "../core/text-todo-mark.ts";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { readCompactSummary, type CompactSummary } from "../context/compact-summary-read.ts";
import { oneLine } from "../core/text-cut.ts";
import { newestRequestOf, type ParsedDigest } from "../store/checkpoint-digest.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { ownPendingRestore, trustedCheckpoint } from "../store/pending-restore.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import { keptBySummary, keptLine, type KeptReport } from "./summary-kept.ts";

// SessionStart(compact): the model's own summary loses exact paths, so the re-entry note carries
// what the checkpoint of this compaction holds (the newest checkpoint of this same session, which
// PreCompact wrote or found already holding everything; else the one its pending-restore names).
// When the summary Claude Code wrote can be read from the transcript's tail, only what it dropped
// is carried (the summary paraphrases and loses exact paths), with one line saying how much it
// kept, plus the newest changed file.

/** Room for the digest part of the note; the whole additionalContext stays under 2,000 characters. */
const REENTRY_DIGEST_CHARS = TEXT_LIMITS.reentryDigest;
const CHANGED_FILES = 8;
const TODOS = 8;
const REQUEST_CHARS = 160;

/** The checkpoint this compaction belongs to: this session's newest, else its pending-restore's. */
function compactionCheckpoint(deps: Deps, paths: MemoryPaths, sid: string): string | null {
  // The same trust rule as a sentinel's path: inside checkpoints/, a plain file name, present.
  const newest = trustedCheckpoint(deps, paths, newestCheckpointOf(deps, paths, sid, null)?.file);
  if (newest) return newest;
  return ownPendingRestore(deps, paths, sid)?.checkpoint ?? null;
}

const todoText = (t: { status: string; content: string }) =>
  `${todoMark(t.status)} ${oneLine(t.content, 80)}`;

/** The note's lines when nothing is known of the summary: the newest requests, todos and changed files. */
function fullLines(d: ParsedDigest): string[] {
  const lines: string[] = [];
  const newest = newestRequestOf(d);
  const earlier = d.requests.filter((r) => r.text !== newest).slice(-2);
  for (const r of earlier) lines.push(`Earlier request: ${oneLine(r.text, REQUEST_CHARS)}`);
  if (newest) lines.push(`Newest request: ${oneLine(newest, REQUEST_CHARS)}`);
  if (d.todos?.length) lines.push(`Todos: ${firstOf(d.todos.map(todoText), TODOS, "; ")}`);
  if (d.changed.length)
    lines.push(
      `Newest changed files: ${firstOf(
        d.changed.map((f) => f.path),
        CHANGED_FILES,
      )}`,
    );
  return lines;
}

/** The note's lines after a summary was read: how much it kept, the newest changed file, what it dropped. */
function droppedLines(d: ParsedDigest, r: KeptReport, room: number): string[] {
  const lines = [keptLine(r)];
  const newestChanged = d.changed[0]?.path;
  if (newestChanged) lines.push(`Newest changed file: ${newestChanged}`);
  const paths = r.paths.dropped.filter((p) => p !== newestChanged);
  if (paths.length) lines.push(`Paths it dropped: ${listWithin(paths, Math.max(200, room / 2))}`);
  const requests = r.requests.dropped;
  if (requests.length) {
    // The newest three; the earlier ones are counted, so none goes unmentioned.
    const of = requests.length > 3 ? `, the newest 3 of ${requests.length}` : "";
    lines.push(
      `Requests it dropped (oldest first${of}): ${listWithin(
        requests.slice(-3).map((t) => oneLine(t, REQUEST_CHARS)),
        room / 3,
        " | ",
      )}`,
    );
  }
  if (r.todos.dropped.length)
    lines.push(`Todos it dropped: ${listWithin(r.todos.dropped.map(todoText), room / 3, "; ")}`);
  return lines;
}

/** Lines joined under the head while they fit in `max`; null when none fits. */
function fitted(head: string, body: readonly string[], max: number): string | null {
  let out = head;
  for (const l of body) {
    const next = `${out}\n${l}`;
    if (next.length > max) break;
    out = next;
  }
  return out === head ? null : out;
}

/** This compaction's checkpoint and its parsed digest, when it is this session's. */
function compactionDigest(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
): { checkpoint: string; digest: ParsedDigest; savedAt: string | undefined } | null {
  const checkpoint = compactionCheckpoint(deps, paths, sid);
  const text = checkpoint ? readTextOrNull(deps.fs, checkpoint) : null;
  if (!checkpoint || text === null) return null;
  const p = parseCheckpoint(text);
  return p.sessionId === sid ? { checkpoint, digest: p.digest, savedAt: p.savedAt } : null;
}

const ms = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : null;
};

/**
 * A summary belongs to this compaction only when its boundary is not older than the checkpoint's
 * save (whole seconds) and newer than the previous SessionStart(compact) of this session: the
 * real clients write the boundary after SessionStart(compact), so at that moment the newest one in
 * the tail is the previous compaction's.
 */
function summaryOfThisCompaction(
  summary: CompactSummary | null,
  savedAt: string | undefined,
  previousCompactionAt: string | null | undefined,
  notBefore: string | null = null,
): string | null {
  const at = ms(summary?.at);
  if (!summary || at === null) return null;
  const saved = ms(savedAt);
  if (saved !== null && at < saved) return null;
  const floor = ms(notBefore);
  if (floor !== null && at < floor) return null;
  // compacted_at has whole seconds: a boundary within that second counts as the previous one's
  // (2.1.332 writes it a few ms after that SessionStart).
  const previous = ms(previousCompactionAt);
  return previous !== null && at < previous + 1000 ? null : summary.text;
}

/** The re-entry digest, and whether it was cut against this compaction's summary. */
export interface ReentryDigest {
  text: string;
  /** true: it carries only what the summary dropped (the summary was read) */
  fromSummary: boolean;
  checkpoint: string;
}

/**
 * The digest lines of this compaction's checkpoint, cut to `max` characters; null when there is
 * none. With `transcriptPath`, the summary at its newest compact_boundary decides what is carried
 * when it belongs to this compaction (`previousCompactionAt`: the compacted_at this session's
 * compact-happened sentinel held before this SessionStart).
 */
export function reentryDigestOf(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  max = REENTRY_DIGEST_CHARS,
  transcriptPath?: string | null,
  previousCompactionAt?: string | null,
): ReentryDigest | null {
  const found = compactionDigest(deps, paths, sid);
  if (!found) return null;
  const summary = summaryOfThisCompaction(
    transcriptPath ? readCompactSummary(deps.fs, transcriptPath) : null,
    found.savedAt,
    previousCompactionAt,
  );
  const head = `Saved before the compaction: ${found.checkpoint}`;
  const d = found.digest;
  const body = summary
    ? droppedLines(d, keptBySummary(summary, d), max - head.length)
    : fullLines(d);
  const text = fitted(head, body, max);
  return text === null
    ? null
    : { text, fromSummary: summary !== null, checkpoint: found.checkpoint };
}

/** The text of reentryDigestOf. */
export function reentryDigest(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  max = REENTRY_DIGEST_CHARS,
  transcriptPath?: string | null,
  previousCompactionAt?: string | null,
): string | null {
  return reentryDigestOf(deps, paths, sid, max, transcriptPath, previousCompactionAt)?.text ?? null;
}

/**
 * Only what the summary dropped, or null while the summary is not in the transcript's tail.
 * Claude Code 2.1.197 and 2.1.332 write the summary after SessionStart(compact) and PostCompact
 * ran, so SessionStart cannot use this; the first prompt after the compaction can (the transcript
 * holds it by then). `notBefore`: the summary's boundary must not be older (ISO; the compacted_at
 * SessionStart(compact) recorded, less a few seconds), so a previous compaction's is never taken.
 */
export function droppedSinceCompaction(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  transcriptPath: string,
  max = REENTRY_DIGEST_CHARS,
  notBefore?: string | null,
): string | null {
  const found = compactionDigest(deps, paths, sid);
  // After SessionStart(compact) the newest boundary is this compaction's (written by then).
  const summary = found
    ? summaryOfThisCompaction(
        readCompactSummary(deps.fs, transcriptPath),
        found.savedAt,
        null,
        notBefore,
      )
    : null;
  if (!summary || !found) return null;
  const head = `Saved before the compaction: ${found.checkpoint}`;
  const d = found.digest;
  return fitted(head, droppedLines(d, keptBySummary(summary, d), max - head.length), max);
}
