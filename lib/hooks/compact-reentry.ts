import { TEXT_LIMITS } from "../core/text-limits.ts";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { readCompactSummary, type CompactSummary } from "../context/compact-summary-read.ts";
import type { ParsedDigest } from "../store/checkpoint-digest.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { ownPendingRestore, trustedCheckpoint } from "../store/pending-restore.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import { keptBySummary } from "./summary-kept.ts";
import { reentryDigestText } from "../notes/reentry-note.ts";

// SessionStart(compact): the model's own summary loses exact paths, so the re-entry note carries
// what the checkpoint of this compaction holds (the newest checkpoint of this same session, which
// PreCompact wrote or found already holding everything; else the one its pending-restore names).
// When the summary Claude Code wrote can be read from the transcript's tail, only what it dropped
// is carried (the summary paraphrases and loses exact paths), with one line saying how much it
// kept, plus the newest changed file.

/** Room for the digest part of the note; the whole additionalContext stays under 2,000 characters. */
const REENTRY_DIGEST_CHARS = TEXT_LIMITS.reentryDigest;

/** The checkpoint this compaction belongs to: this session's newest, else its pending-restore's. */
function compactionCheckpoint(deps: Deps, paths: MemoryPaths, sid: string): string | null {
  // The same trust rule as a sentinel's path: inside checkpoints/, a plain file name, present.
  const newest = trustedCheckpoint(deps, paths, newestCheckpointOf(deps, paths, sid, null)?.file);
  if (newest) return newest;
  return ownPendingRestore(deps, paths, sid)?.checkpoint ?? null;
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
  const d = found.digest;
  const kept = summary ? keptBySummary(summary, d) : null;
  const text = reentryDigestText({ checkpoint: found.checkpoint, digest: d, kept }, max);
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
  const d = found.digest;
  return reentryDigestText(
    { checkpoint: found.checkpoint, digest: d, kept: keptBySummary(summary, d) },
    max,
  );
}
