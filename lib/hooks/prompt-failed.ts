import { personLine } from "../core/text-limits.ts";
import type { Knobs } from "../core/knobs.ts";
import { describeThreshold, describeUsage } from "../context/context-window.ts";
import type { Utilization } from "../context/context-utilization.ts";
import { windowNote, type BlockFiles } from "./prompt-gate.ts";

// The block tier's answer when its writes failed (compiled only then: prompt-cold.ts).

/** The block tier could not save: what the model is told (the prompt went through). */
export function failedText(u: Utilization, knobs: Knobs, files: BlockFiles): string {
  const f = files.failure!;
  const usage = `${describeUsage(u.tokens, u.limit, u.bps)}; ${windowNote(u)}`;
  const tier = `past the hold threshold (${describeThreshold(knobs.QUOIN_BLOCK_BPS, u.limit)})`;
  const what =
    f.saved === "nothing"
      ? `Nothing could be saved (${f.detail}): no restore state and nothing kept for replay, so the prompt was not held and went through.`
      : `Restore state: ${files.checkpoint}${files.sentinelExisted ? " (saved earlier)" : ""}; the prompt could not be kept for replay (${f.detail}), so it was not held and went through.`;
  return (
    `[quoin-checkpoint] ${usage}; ${tier}. ${what} ` +
    `Tell the user: free disk space or make the project writable, then run /checkpoint; or run /compact here.`
  );
}

/** The same for the person, at most TEXT_LIMITS.personLine characters. */
export function failedLine(u: Utilization, files: BlockFiles): string {
  const f = files.failure!;
  const what = f.saved === "nothing" ? "nothing could be saved" : "the prompt could not be kept";
  return personLine(
    `[quoin] ${describeUsage(u.tokens, u.limit, u.bps)}: ${what} (${f.reason}); your prompt went through. Free space or fix permissions, then /checkpoint`,
  );
}
