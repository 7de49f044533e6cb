import type { ListedCandidate } from "./picker-decision.ts";
import type { RestoreDecision } from "./restore-outcome.ts";
import { runningNote } from "../store/session-liveness.ts";

/**
 * Beside every checkpoint whose session is another one still running, say so (two sessions
 * would otherwise work on one task unawares): in the
 * picker list (the note in [ ], which does not stop an explicit pick) and, for a restored
 * checkpoint, as a warning. The restore itself goes ahead. `running` asks the session registry.
 */
export function markRunningSessions(
  outcome: RestoreDecision,
  currentSid: string,
  running: (sid: string) => boolean,
): RestoreDecision {
  const asked = new Map<string, boolean>();
  const isOther = (sid: string | null | undefined): sid is string => {
    if (!sid || sid === currentSid) return false;
    if (!asked.has(sid)) asked.set(sid, running(sid));
    return asked.get(sid)!;
  };
  if ("list" in outcome && Array.isArray(outcome.list)) {
    outcome.list = outcome.list.map((c: ListedCandidate) =>
      isOther(c.sessionId)
        ? { ...c, note: [c.note, runningNote(c.sessionId)].filter(Boolean).join("; ") }
        : c,
    );
  }
  if (outcome.action === "restore" && outcome.summary && isOther(outcome.summary.sessionId)) {
    outcome.warnings.unshift(`[checkpoint] WARNING: ${runningNote(outcome.summary.sessionId)}.`);
  }
  return outcome;
}
