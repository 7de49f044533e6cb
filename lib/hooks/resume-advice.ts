import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import { regularFileStat } from "../core/dir-listing.ts";
import { formatDuration } from "../core/time-format.ts";
import { formatTokens } from "../context/context-window.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import type { SessionStartInput } from "./hook-io.ts";
import { forkParent } from "./fork-parent.ts";
import { taskOf } from "./restore-banner.ts";

// SessionStart on `resume` and `fork` (2.1.332): a fork's banner names the session it came from
// and offers that session's newest checkpoint; when the client says the prompt cache has likely
// expired, the figures it gives for re-sending the transcript beside the checkpoint's brief.

export interface StartNote {
  context: string;
  systemMessage: string;
}

/** 41020 -> "41,020" (no toLocaleString: ICU's first call costs milliseconds). */
function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;

function forkNote(
  deps: Deps,
  paths: MemoryPaths,
  parent: string | null,
): StartNote & { checkpoint: string | null } {
  if (!parent)
    return {
      checkpoint: null,
      context:
        "[quoin-checkpoint] This session is a fork of an earlier session; the client did not say which, so no checkpoint is offered.",
      systemMessage: "[quoin] forked session: its parent could not be told",
    };
  const newest = newestCheckpointOf(deps, paths, parent, null);
  if (!newest)
    return {
      checkpoint: null,
      context: `[quoin-checkpoint] This session is a fork of session ${parent}, which left no checkpoint.`,
      systemMessage: `[quoin] fork of session ${parent.slice(0, 8)}: no checkpoint of it`,
    };
  const task = taskOf(deps, newest.file);
  return {
    checkpoint: newest.file,
    context:
      `[quoin-checkpoint] This session is a fork of session ${parent}. That session's newest checkpoint, ${newest.file} ` +
      `(task '${task}', saved ${newest.savedAt}), is this fork's task too: /checkpoint --restore re-reads it.`,
    systemMessage: `[quoin] fork of session ${parent.slice(0, 8)}, task ${task}: /checkpoint --restore re-reads its checkpoint ${path.basename(newest.file)}`,
  };
}

/**
 * Only when the client sends `prompt_cache_likely_expired: true` and `context_tokens`, and the
 * session (a fork: its parent) has a checkpoint; the brief's tokens are estimated from its bytes.
 */
function resumeAdvice(
  deps: Deps,
  paths: MemoryPaths,
  input: SessionStartInput,
  knobs: Knobs,
  sessionOfCheckpoint: string | null,
): StartNote | null {
  const tokens = num(input.context_tokens);
  if (input.prompt_cache_likely_expired !== true || tokens === null || !sessionOfCheckpoint)
    return null;
  const newest = newestCheckpointOf(deps, paths, sessionOfCheckpoint, null);
  const size = newest ? regularFileStat(deps.fs, newest.file)?.size : undefined;
  if (!newest || size === undefined) return null;
  const bpt = knobs.QUOIN_BYTES_PER_TOKEN;
  const brief = Math.ceil(size / bpt);
  const usd = num(input.estimated_cache_write_usd);
  const since = num(input.seconds_since_last_response);
  const cost =
    usd === null ? "" : `, an estimated cache write of $${usd.toFixed(2)} (the client's figure)`;
  const ago = since === null ? "" : ` (last response ${formatDuration(since * 1000)} ago)`;
  return {
    context:
      `[quoin-checkpoint] The prompt cache has likely expired${ago}: resuming re-sends ${groupDigits(tokens)} tokens of context${cost}. ` +
      `/clear then /checkpoint --restore continues from ${newest.file} instead, a brief of about ${groupDigits(brief)} tokens ` +
      `(an estimate: ${groupDigits(size)} bytes at ${bpt} bytes per token, QUOIN_BYTES_PER_TOKEN).`,
    systemMessage:
      `[quoin] cache likely expired: resuming re-sends ${formatTokens(tokens)} tokens` +
      `${usd === null ? "" : ` (~$${usd.toFixed(2)} cache write)`}; /clear then /checkpoint --restore loads a ~${formatTokens(brief)}-token brief`,
  };
}

/** The fork banner and the re-cache advice for this start, in that order ([] on other sources). */
export function forkAndResumeNotes(
  deps: Deps,
  paths: MemoryPaths,
  input: SessionStartInput,
  knobs: Knobs,
  ctx: { sid: string | null; configDir: string; clientPid: number | null },
): StartNote[] {
  if (!ctx.sid || (input.source !== "fork" && input.source !== "resume")) return [];
  const notes: StartNote[] = [];
  let checkpointOf: string | null = ctx.sid;
  if (input.source === "fork") {
    const fork = {
      sid: ctx.sid,
      transcriptPath: input.transcript_path,
      contextTokens: input.context_tokens,
    };
    checkpointOf = forkParent(deps, ctx.configDir, fork, ctx.clientPid);
    notes.push(forkNote(deps, paths, checkpointOf));
  }
  const advice = resumeAdvice(deps, paths, input, knobs, checkpointOf);
  if (advice) notes.push(advice);
  return notes;
}
