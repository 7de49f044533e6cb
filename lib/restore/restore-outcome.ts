import type { MidAgentHandoff } from "../store/mid-agent-handoff.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import type { CleanupReport } from "./restore-cleanup.ts";
import type { ListedCandidate, PickerDecision } from "./picker-decision.ts";
import type { ReplayCase, ReplayResult } from "./prompt-replay.ts";
import type { Reconciliation } from "./reconcile.ts";
import type { ResumeSession } from "./resume-session.ts";

// What a restore decided, as data: runRestore computes it (restore-run.ts), the brief renders it
// (brief/), the engine's command prints it. Nothing here imports the computing or the words.

/**
 * A checkpoint another clone shared (fetched, not yet copied here), offered in the picker after
 * the local candidates and numbered after them; never picked automatically.
 */
export interface OfferedShared {
  /** `s1`, `s2`, ...: the alias `restore --shared sN` takes */
  label: string;
  name: string;
  task: string | null;
  branch: string | null;
  savedAt: string | null;
  /** who shared it, from which host and branch, and when */
  from: string;
}

export type Refusal = { ok: false; reason: string; expected: string };

/** How restore reaches the checkpoints other clones shared (lib/share implements it). */
export interface SharedSource {
  /** the fetched shared checkpoints, `s1` first */
  list(): readonly OfferedShared[];
  /** copy the shared checkpoint `arg` (`s2`) here and name it by this session's own pending-restore */
  adopt(arg: string, sessionId: string): { ok: true; file: string } | Refusal;
  /** the default remote when it holds shared checkpoints fetch would bring (a network probe), else null */
  remoteHolding(): string | null;
}

export interface RestoreRequest {
  paths: MemoryPaths;
  /** "" when no session id could be resolved */
  sessionId: string;
  pick?: number;
  synthesize?: boolean;
  /** the answer to "Replay which?", as typed */
  replay?: string;
  /** the session id was guessed (the newest transcript), not given: no same-session claim */
  sessionGuessed?: boolean;
  /** the user chose to proceed after the same-session warning */
  proceed?: boolean;
  /** the user said no to the session-state synthesis offer: remember it for that file, then pick without it */
  declineSynthesis?: boolean;
  /** `--shared sN`: restore that shared checkpoint (copied here first) */
  shared?: string;
  /** the checkpoints other clones shared; absent: none are offered */
  sharedSource?: SharedSource;
  /** whether another session is still running (the session registry); absent: none is */
  running?: (sid: string) => boolean;
}

/** What the resumed session needs: the seed's restore step 2 summary, from a checkpoint or a session-state file. */
export interface ResumeSummary {
  source: "checkpoint" | "session-state";
  /** automatic (a hook's save: no notes of the model) or curated (/checkpoint) */
  kind: "automatic" | "curated" | "session-state";
  /** the brief's line saying so */
  kindLine: string;
  file: string;
  task: string;
  branch: string;
  intent: string;
  sessionId: string | null;
  /** `claude --resume <id>`, or why there is none */
  resume: string;
  savedAt?: string;
  artifacts: string[];
  openQuestions: string[];
  /** what the session was doing, from the checkpoint (the model's fields and the transcript digest) */
  session: ResumeSession;
  /** files to Read now: the artifacts, then the newest changed files that still exist (absolute) */
  reread: string[];
  /** each reread file's size in bytes, in the same order (0: gone) */
  rereadBytes: number[];
  /** untracked files the save recorded as already there (not this session's); absent: not recorded */
  untrackedAtSave?: number;
}

export type Need = "same-session" | "replay" | "manual-recovery";

/** A checkpoint that cannot be restored as one: shown raw (its head), with a hint; its sentinel is kept. */
export interface Damage {
  file: string;
  /** `cut short`, `not a checkpoint`, `empty`, `unreadable`, `no ## Branch` */
  reason: string;
  /** the first bytes, non-printing ones replaced */
  raw: string;
  hint: string;
  /** the other checkpoints, numbered as `--pick` takes them */
  others: ListedCandidate[];
}

export interface Restored {
  action: "restore";
  /** false: a question is open (needs); nothing was cleaned up or logged yet */
  done: boolean;
  needs: Need[];
  path: string;
  summary: ResumeSummary | null;
  sameSession: boolean;
  consumedSentinel: string;
  warnings: string[];
  reconcile: Reconciliation | null;
  prompts: ReplayCase;
  replay: Extract<ReplayResult, { ok: true }> | null;
  cleanup: CleanupReport | null;
  ledger: string | null;
  corrupt?: Damage;
  /** flags that reach this same checkpoint again, to repeat with the answers to `needs` */
  rerun: string[];
}

export type RestoreDecision =
  | Restored
  | Exclude<
      PickerDecision,
      { action: "restore" } | { action: "invalid" } | { action: "synthesize"; confirmed: true }
    >
  | { action: "invalid"; reason: string; expected?: string };

/** What restore found around the decision: said beside it, in the same answer. */
export interface RestoreSurroundings {
  /** a mid-agent save's handoff for this session (the skills that were running) */
  midAgentHandoff: MidAgentHandoff | null;
  /** shared checkpoints a picker numbers after its local rows (choose, synthesize) */
  offeredShared: readonly OfferedShared[];
  /** with nothing to pick: shared checkpoints fetched here, or a remote holding some */
  sharedHint: { fetched: number } | { remote: string } | null;
  /** the local copy of a shared checkpoint this restore picked */
  adoptedShared: string | null;
}

/** One restore, computed: the decision and what was found around it. */
export type RestoreOutcome = RestoreDecision & RestoreSurroundings;

export const NO_SURROUNDINGS: RestoreSurroundings = {
  midAgentHandoff: null,
  offeredShared: [],
  sharedHint: null,
  adoptedShared: null,
};
