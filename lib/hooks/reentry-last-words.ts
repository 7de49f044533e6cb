import { TEXT_LIMITS } from "../core/text-limits.ts";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { lastWordsText } from "../notes/reentry-note.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { ownPendingRestore } from "../store/pending-restore.ts";
import type { LastWord } from "../store/checkpoint-values.ts";

// SessionStart(compact): the model's own last words before the compaction (the `lastWords` section of this
// session's PreCompact checkpoint), in the note only where they fit its 2,000-character budget.

/** The note's whole budget (hook-io's capText cuts beyond it); the last words take only what is left. */
export const NOTE_BUDGET = TEXT_LIMITS.hookContext;

/** This session's own PreCompact checkpoint's `lastWords` section; [] when there are none. */
export function reentryLastWords(deps: Deps, paths: MemoryPaths, sid: string): LastWord[] {
  const own = ownPendingRestore(deps, paths, sid);
  const text = own?.checkpoint ? readTextOrNull(deps.fs, own.checkpoint) : null;
  if (text === null) return [];
  const p = parseCheckpoint(text);
  return p.sessionId === sid ? (p.digest.lastWords ?? []) : [];
}

/** The newest last words that fit in `room` characters, as one block; null when not even one fits. */
export const fitLastWords = (words: readonly LastWord[], room: number): string | null =>
  lastWordsText(words, room, TEXT_LIMITS.lastWordChars);
