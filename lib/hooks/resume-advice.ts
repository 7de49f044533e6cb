import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import { regularFileStat } from "../core/dir-listing.ts";
import { forkNote, type ForkFacts, type Note, resumeNote } from "../notes/start-notes.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import type { SessionStartInput } from "./hook-io.ts";
import { forkParent } from "./fork-parent.ts";
import { taskOf } from "./restore-banner.ts";

// SessionStart on `resume` and `fork` (2.1.332): a fork's banner names the session it came from
// and offers that session's newest checkpoint; when the client says the prompt cache has likely
// expired, the figures it gives for re-sending the transcript beside the checkpoint's brief.

const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;

/** The fork's note: its parent and that session's newest checkpoint, when the client says which. */
function forkFacts(deps: Deps, paths: MemoryPaths, parent: string | null): ForkFacts {
  if (!parent) return { parent: null };
  const newest = newestCheckpointOf(deps, paths, parent, null);
  if (!newest) return { parent, checkpoint: null };
  return {
    parent,
    checkpoint: newest.file,
    task: taskOf(deps, newest.file),
    savedAt: newest.savedAt,
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
): Note | null {
  const tokens = num(input.context_tokens);
  if (input.prompt_cache_likely_expired !== true || tokens === null || !sessionOfCheckpoint)
    return null;
  const newest = newestCheckpointOf(deps, paths, sessionOfCheckpoint, null);
  const size = newest ? regularFileStat(deps.fs, newest.file)?.size : undefined;
  if (!newest || size === undefined) return null;
  return resumeNote({
    tokens,
    usd: num(input.estimated_cache_write_usd),
    since: num(input.seconds_since_last_response),
    checkpoint: newest.file,
    bytes: size,
    bytesPerToken: knobs.QUOIN_BYTES_PER_TOKEN,
  });
}

/** The fork banner and the re-cache advice for this start, in that order ([] on other sources). */
export function forkAndResumeNotes(
  deps: Deps,
  paths: MemoryPaths,
  input: SessionStartInput,
  knobs: Knobs,
  ctx: { sid: string | null; configDir: string; clientPid: number | null },
): Note[] {
  if (!ctx.sid || (input.source !== "fork" && input.source !== "resume")) return [];
  const notes: Note[] = [];
  let checkpointOf: string | null = ctx.sid;
  if (input.source === "fork") {
    const fork = {
      sid: ctx.sid,
      transcriptPath: input.transcript_path,
      contextTokens: input.context_tokens,
    };
    checkpointOf = forkParent(deps, ctx.configDir, fork, ctx.clientPid);
    notes.push(forkNote(forkFacts(deps, paths, checkpointOf)));
  }
  const advice = resumeAdvice(deps, paths, input, knobs, checkpointOf);
  if (advice) notes.push(advice);
  return notes;
}
