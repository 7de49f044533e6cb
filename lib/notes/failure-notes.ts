import { personLine } from "../core/text-cut.ts";
import type { Note } from "./start-notes.ts";

// A save that failed, in words: what PreCompact or SessionEnd could not write, said once by the
// session's next SessionStart or prompt (lib/hooks/save-failure.ts keeps and takes the record).
// Never a raw errno: the reason is read-only, disk full, folder missing or write failed.

export interface SaveFailure {
  /** the hook that failed: PreCompact, SessionEnd */
  event: string;
  /** the reason in words, with the file or folder it was about */
  reason: string;
  at: string;
}

/** `the last checkpoint could not be saved: <reason> (<when>, <at>)` */
export function failureLine(f: SaveFailure): string {
  const event = f.event === "PreCompact" ? "before the compaction" : "at session end";
  return `the last checkpoint could not be saved: ${f.reason} (${event}, ${f.at})`;
}

/** For the model, what was lost and what to tell the user; for the person, the line alone. */
export function saveFailureNote(f: SaveFailure): Note {
  const line = failureLine(f);
  return {
    context: `[quoin-checkpoint] ${line}. Nothing from then is kept; tell the user to free disk space or make the project writable, then run /checkpoint.`,
    person: personLine(`[quoin] ${line}`),
  };
}
