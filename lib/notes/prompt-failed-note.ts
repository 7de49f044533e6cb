import { personLine } from "../core/text-cut.ts";
import type { Note } from "./start-notes.ts";

// The block tier's answer when its writes failed, in words: the prompt was not held and went
// through; what is on disk and why the rest is not (lib/hooks/prompt-failed.ts gathers the facts).

export interface FailedHoldFacts {
  /** the context figure in words: `context 165k of 167k (98.8%)` */
  usage: string;
  /** the window and where it came from */
  window: string;
  /** the hold threshold in words */
  threshold: string;
  /** what is on disk despite the failure */
  saved: "nothing" | "checkpoint";
  /** read-only, disk full, ... */
  reason: string;
  /** the reason with the path it was about */
  detail: string;
  checkpoint: string | null;
  sentinelExisted: boolean;
}

export function failedHoldNote(f: FailedHoldFacts): Note {
  const what =
    f.saved === "nothing"
      ? `Nothing could be saved (${f.detail}): no restore state and nothing kept for replay, so the prompt was not held and went through.`
      : `Restore state: ${f.checkpoint}${f.sentinelExisted ? " (saved earlier)" : ""}; the prompt could not be kept for replay (${f.detail}), so it was not held and went through.`;
  const lost = f.saved === "nothing" ? "nothing could be saved" : "the prompt could not be kept";
  return {
    context:
      `[quoin-checkpoint] ${f.usage}; ${f.window}; past the hold threshold (${f.threshold}). ${what} ` +
      `Tell the user: free disk space or make the project writable, then run /checkpoint; or run /compact here.`,
    person: personLine(
      `[quoin] ${f.usage}: ${lost} (${f.reason}); your prompt went through. Free space or fix permissions, then /checkpoint`,
    ),
  };
}
