import * as path from "node:path";
import { formatDuration } from "../core/time-format.ts";
import { formatTokens } from "../context/context-window.ts";

// The SessionStart notes other than the banner and the re-entry, in words, each rendered from what
// the hook found: the last session's snapshot at startup, what became of the session before
// /clear, a killed session's recovery, a fork's parent and the re-cache figures on resume. Each
// gives the model's text (additionalContext) and the person's one line (systemMessage).

/** A note for the model and, when the hook answers with it, the person's line. */
export interface Note {
  context: string;
  person: string;
}

/** At startup: another session's session-end snapshot under a day old. */
export function lastSessionNote(s: { task: string; agoMs: number; file: string }): Note {
  const ago = formatDuration(s.agoMs);
  return {
    context: `[quoin-checkpoint] Last session, task '${s.task}', ended ${ago} ago; its snapshot is ${s.file}. /checkpoint --restore continues it.`,
    person: `[quoin] last session, task ${s.task}, ended ${ago} ago: /checkpoint --restore to continue`,
  };
}

/** What the session before /clear left: saved now, unchanged since its checkpoint, or still saving. */
export type ClearFacts =
  | { state: "saved"; sid: string; checkpoint: string; task: string }
  | { state: "unchanged"; sid: string; checkpoint: string }
  | { state: "writing" };

export function clearNote(c: ClearFacts): Note {
  if (c.state === "writing")
    return {
      context:
        "[quoin-checkpoint] The session before /clear was still being saved when this one started; run /checkpoint --restore to look for it.",
      person:
        "[quoin] the cleared session's save had not finished; /checkpoint --restore looks for it",
    };
  const short = c.sid.slice(0, 8);
  if (c.state === "saved")
    return {
      context: `[quoin-checkpoint] The session before /clear (${short}) was saved: ${c.checkpoint} (task '${c.task}'). Run /checkpoint --restore to bring it back.`,
      person: `[quoin] cleared session saved as ${path.basename(c.checkpoint)}; /checkpoint --restore brings it back`,
    };
  return {
    context: `[quoin-checkpoint] The session before /clear (${short}) had nothing new since its checkpoint ${c.checkpoint}. Run /checkpoint --restore to bring it back.`,
    person: `[quoin] cleared session's checkpoint ${path.basename(c.checkpoint)} is current; /checkpoint --restore brings it back`,
  };
}

/** A recovered checkpoint's note, as its `## Notes` line says it. */
export const RECOVERED_NOTE = "(recovered: the session ended without SessionEnd)";

/** A session killed without SessionEnd, saved now from its transcript (the model's text only). */
export const recoveredText = (r: { sessionId: string; checkpoint: string; task: string }) =>
  `[quoin-checkpoint] Session ${r.sessionId.slice(0, 8)} (task '${r.task}') ended without SessionEnd (killed or crashed); its place was saved now into ${r.checkpoint} ${RECOVERED_NOTE}. /checkpoint --restore continues it.`;

/** A fork's parent: not told by the client, without a checkpoint, or with its newest one. */
export type ForkFacts =
  | { parent: null }
  | { parent: string; checkpoint: null }
  | { parent: string; checkpoint: string; task: string; savedAt: string };

export function forkNote(f: ForkFacts): Note {
  if (f.parent === null)
    return {
      context:
        "[quoin-checkpoint] This session is a fork of an earlier session; the client did not say which, so no checkpoint is offered.",
      person: "[quoin] forked session: its parent could not be told",
    };
  if (f.checkpoint === null)
    return {
      context: `[quoin-checkpoint] This session is a fork of session ${f.parent}, which left no checkpoint.`,
      person: `[quoin] fork of session ${f.parent.slice(0, 8)}: no checkpoint of it`,
    };
  return {
    context:
      `[quoin-checkpoint] This session is a fork of session ${f.parent}. That session's newest checkpoint, ${f.checkpoint} ` +
      `(task '${f.task}', saved ${f.savedAt}), is this fork's task too: /checkpoint --restore re-reads it.`,
    person: `[quoin] fork of session ${f.parent.slice(0, 8)}, task ${f.task}: /checkpoint --restore re-reads its checkpoint ${path.basename(f.checkpoint)}`,
  };
}

/** The client's figures on a resume whose prompt cache likely expired, and the checkpoint's size. */
export interface ResumeFacts {
  /** context tokens resuming re-sends */
  tokens: number;
  /** the client's estimated cache write, dollars */
  usd: number | null;
  /** seconds since the last response */
  since: number | null;
  checkpoint: string;
  bytes: number;
  bytesPerToken: number;
}

/** 41020 -> "41,020" (no toLocaleString: ICU's first call costs milliseconds). */
function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function resumeNote(r: ResumeFacts): Note {
  const brief = Math.ceil(r.bytes / r.bytesPerToken);
  const cost =
    r.usd === null
      ? ""
      : `, an estimated cache write of $${r.usd.toFixed(2)} (the client's figure)`;
  const ago = r.since === null ? "" : ` (last response ${formatDuration(r.since * 1000)} ago)`;
  return {
    context:
      `[quoin-checkpoint] The prompt cache has likely expired${ago}: resuming re-sends ${groupDigits(r.tokens)} tokens of context${cost}. ` +
      `/clear then /checkpoint --restore continues from ${r.checkpoint} instead, a brief of about ${groupDigits(brief)} tokens ` +
      `(an estimate: ${groupDigits(r.bytes)} bytes at ${r.bytesPerToken} bytes per token, QUOIN_BYTES_PER_TOKEN).`,
    person:
      `[quoin] cache likely expired: resuming re-sends ${formatTokens(r.tokens)} tokens` +
      `${r.usd === null ? "" : ` (~$${r.usd.toFixed(2)} cache write)`}; /clear then /checkpoint --restore loads a ~${formatTokens(brief)}-token brief`,
  };
}
