import { TEXT_LIMITS } from "../core/text-limits.ts";
import type { Knobs } from "../core/knobs.ts";
import {
  describeThreshold,
  describeUsage,
  formatBps,
  formatTokens,
  MAKE_WINDOW_KNOWN,
} from "../context/context-window.ts";
import type { Utilization } from "../context/context-utilization.ts";
import { isTaskNotification } from "../store/pending-prompts.ts";

// Commands that must always get through: they are how a user gets out of a full context.
const EXEMPT_COMMANDS = [
  "/compact",
  "/clear",
  "/help",
  "/checkpoint",
  "/quoin-checkpoint:checkpoint",
];

/**
 * UserPromptSubmit `source` values of turns the client injected (a /loop wakeup, a scheduled task,
 * peer messages and task notifications, the poll-event channel): never held, no advisory. Absent
 * (older clients, and 2.1.332 as shipped, which declares the field but does not send it yet),
 * `user` and `sdk` are typed; so is a value not listed here.
 */
const INJECTED_SOURCES = new Set(["loop_wakeup", "schedule_wakeup", "system", "poll_event"]);

/**
 * A turn the client injected: by `source`, or, since no shipped client sends `source`, a
 * background task's `<task-notification>` turn, which both 2.1.197 and 2.1.332 pass to this hook
 * as its `prompt` (test/e2e/injected-prompt-real-client.test.ts). Holding it would hide from the
 * model that its task ended. NOTE: a /loop wakeup without `source` cannot be told from a typed
 * prompt (docs/claude-code-versions.md).
 */
export function isInjectedPrompt(source: string | undefined, prompt: string): boolean {
  return (source !== undefined && INJECTED_SOURCES.has(source)) || isTaskNotification(prompt);
}

/** `/compact`, `/clear`, `/help` and `/checkpoint` pass untouched; `/checkpoint --purge` does not. */
export function isExemptPrompt(prompt: string): boolean {
  const trimmed = prompt.trim();
  for (const cmd of EXEMPT_COMMANDS) {
    if (trimmed === cmd || trimmed.startsWith(`${cmd} `) || trimmed.startsWith(`${cmd}\n`)) {
      if (cmd.endsWith("checkpoint") && /(^|\s)--purge(\s|$)/.test(trimmed.slice(cmd.length)))
        return false;
      return true;
    }
  }
  return false;
}

export type Tier = "quiet" | "advisory" | "block";

export function utilizationTier(bps: number, knobs: Knobs): Tier {
  if (bps >= knobs.QUOIN_BLOCK_BPS) return "block";
  if (bps >= knobs.QUOIN_STOP_BPS) return "advisory";
  return "quiet";
}

export function windowNote(u: Utilization): string {
  const estimate = u.source === "bytes" ? "; estimated from transcript bytes, no usage data" : "";
  return `window ${formatTokens(u.window)} (${u.windowFrom})${estimate}`;
}

/** No prompt is held on a figure estimated from the transcript's size. */
function holdNote(u: Utilization, knobs: Knobs): string {
  return u.source === "bytes"
    ? "no prompt is held on an estimate"
    : `prompts are held at ${describeThreshold(knobs.QUOIN_BLOCK_BPS, u.limit)}`;
}

export function advisoryText(u: Utilization, knobs: Knobs): string {
  return (
    `[quoin-checkpoint] ${describeUsage(u.tokens, u.limit, u.bps)}; ${windowNote(u)}. ` +
    `Advisory from ${describeThreshold(knobs.QUOIN_STOP_BPS, u.limit)}; ${holdNote(u, knobs)}. ` +
    `Suggest to the user: run /checkpoint now to save this session's place, or /checkpoint --defer to silence this until the next compaction.`
  );
}

/** The advisory's one short line for the person (systemMessage); the model gets advisoryText. */
export function advisoryLine(u: Utilization): string {
  const estimate = u.source === "bytes" ? " (estimated from transcript size)" : "";
  return `[quoin] ${describeUsage(u.tokens, u.limit, u.bps)}${estimate}: /checkpoint saves this session's place, /checkpoint --defer silences this`;
}

/** What the block tier does: hold the prompt on a known window; advise with QUOIN_BLOCK_MODE=advise or on a guessed window. */
export type BlockMode = "block" | "advise" | "advise-guess";

export function blockMode(u: Utilization, knobs: Knobs): BlockMode {
  if (knobs.QUOIN_BLOCK_MODE === "advise") return "advise";
  return u.windowKnown ? "block" : "advise-guess";
}

export interface BlockFiles {
  /** set only when the prompt was held (a prompt that went through is never offered for replay) */
  pendingPrompt: string | null;
  checkpoint: string | null;
  sentinelExisted: boolean;
  /** a write failed: the prompt was not held and went through */
  failure?: SaveFailed;
}

export interface SaveFailed {
  /** what is on disk despite the failure: nothing, or the checkpoint and its sentinel */
  saved: "nothing" | "checkpoint";
  /** read-only, disk full, ... (save-failure.ts) */
  reason: string;
  /** the reason with the path it was about */
  detail: string;
}

/** The most a line for the person may take: the model's additionalContext says the rest. */
export const PERSON_LINE_MAX = TEXT_LIMITS.personLine;

/**
 * The person's line when a prompt past the hold threshold went through (systemMessage, at most
 * PERSON_LINE_MAX characters); the model gets blockText's whole account.
 */
export function blockLine(u: Utilization, knobs: Knobs, mode: BlockMode): string {
  const why =
    mode === "advise"
      ? "QUOIN_BLOCK_MODE=advise"
      : `window ${formatTokens(u.window)} assumed; QUOIN_CONTEXT_WINDOW sets it`;
  return (
    `[quoin] ${describeUsage(u.tokens, u.limit, u.bps)}, past ${formatBps(knobs.QUOIN_BLOCK_BPS)}: ` +
    `sent, not held (${why}). Run /checkpoint now, then /checkpoint --restore in a new session`
  );
}

export function blockText(
  u: Utilization,
  knobs: Knobs,
  files: BlockFiles,
  mode: BlockMode,
  /** how to make the window known, in this install's words (lib/install/window-advice.ts) */
  makeKnown: string = MAKE_WINDOW_KNOWN,
): string {
  const usage = `${describeUsage(u.tokens, u.limit, u.bps)}; ${windowNote(u)}`;
  const tier = `the block tier (${describeThreshold(knobs.QUOIN_BLOCK_BPS, u.limit)})`;
  const head =
    mode === "block"
      ? `[quoin-checkpoint] Prompt held: ${usage}; past ${tier}. Prompt saved to ${files.pendingPrompt}.`
      : mode === "advise"
        ? `[quoin-checkpoint] ${usage}; past ${tier}; the prompt went through (QUOIN_BLOCK_MODE=advise).`
        : `[quoin-checkpoint] ${usage}; past ${tier}; the prompt went through because the window is assumed, not known (to make it known: ${makeKnown}).`;
  const saved = files.checkpoint
    ? `Restore state: ${files.checkpoint}${files.sentinelExisted ? " (saved earlier)" : ""}.`
    : "No restore state could be saved (no usable session id).";
  const next =
    mode === "block"
      ? "Start a fresh session and run /checkpoint --restore (it offers to replay the prompt), or run /compact here and send it again."
      : "Save and move on soon: /checkpoint, then /checkpoint --restore in a fresh session, or /compact here.";
  return `${head} ${saved} ${next}`;
}

export function idleText(
  gapMs: number,
  previousIso: string,
  u: Utilization | null,
  formatGap: (ms: number) => string,
): string {
  const usage = u ? ` Now at ${describeUsage(u.tokens, u.limit, u.bps)}.` : "";
  return (
    `[quoin-checkpoint] This session was idle ${formatGap(gapMs)} (previous prompt ${previousIso}).${usage} ` +
    `If the work has moved on, /checkpoint and a fresh session keep the context small.`
  );
}

export interface RotationState {
  startedAt: string;
  prompts: number;
  advised: boolean;
}

/** Seed 001's rotation budget: once per session, when prompts or hours reach the knob. */
export function rotationDue(state: RotationState, now: Date, knobs: Knobs): boolean {
  if (state.advised) return false;
  const byCount =
    knobs.QUOIN_ROTATE_OBSERVATIONS > 0 && state.prompts >= knobs.QUOIN_ROTATE_OBSERVATIONS;
  const hours = (now.getTime() - Date.parse(state.startedAt)) / 3_600_000;
  const byAge = knobs.QUOIN_ROTATE_HOURS > 0 && hours >= knobs.QUOIN_ROTATE_HOURS;
  return byCount || byAge;
}

export function rotationText(
  state: RotationState,
  now: Date,
  knobs: Knobs,
  engine: string,
): string {
  const hours = ((now.getTime() - Date.parse(state.startedAt)) / 3_600_000).toFixed(1);
  const limits = [
    knobs.QUOIN_ROTATE_OBSERVATIONS > 0 ? `${knobs.QUOIN_ROTATE_OBSERVATIONS} prompts` : null,
    knobs.QUOIN_ROTATE_HOURS > 0 ? `${knobs.QUOIN_ROTATE_HOURS}h` : null,
  ]
    .filter(Boolean)
    .join(" or ");
  return (
    `[quoin-checkpoint] Rotation budget reached: ${state.prompts} prompts over ${hours}h in this session (budget ${limits}). ` +
    `Write a checkpoint (/checkpoint) and hand over to a successor session (run: ${engine} successor) before the context runs out.`
  );
}
