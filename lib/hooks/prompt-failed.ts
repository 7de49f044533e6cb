import type { Knobs } from "../core/knobs.ts";
import { describeThreshold, describeUsage } from "../context/context-window.ts";
import type { Utilization } from "../context/context-utilization.ts";
import { failedHoldNote, type FailedHoldFacts } from "../notes/prompt-failed-note.ts";
import { windowNote, type BlockFiles } from "./prompt-gate.ts";

// The block tier's answer when its writes failed (compiled only then: prompt-cold.ts); the words
// are lib/notes/prompt-failed-note.ts's.

function facts(u: Utilization, files: BlockFiles, threshold: string): FailedHoldFacts {
  const f = files.failure!;
  return {
    usage: describeUsage(u.tokens, u.limit, u.bps),
    window: windowNote(u),
    threshold,
    saved: f.saved,
    reason: f.reason,
    detail: f.detail,
    checkpoint: files.checkpoint ?? null,
    sentinelExisted: files.sentinelExisted === true,
  };
}

/** The block tier could not save: what the model is told (the prompt went through). */
export function failedText(u: Utilization, knobs: Knobs, files: BlockFiles): string {
  return failedHoldNote(facts(u, files, describeThreshold(knobs.QUOIN_BLOCK_BPS, u.limit))).context;
}

/** The same for the person, at most TEXT_LIMITS.personLine characters. */
export function failedLine(u: Utilization, files: BlockFiles): string {
  return failedHoldNote(facts(u, files, "")).person;
}
