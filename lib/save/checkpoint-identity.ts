import type { Deps } from "../core/deps.ts";
import { readBranchCheap } from "../core/git.ts";
import { readKnob } from "../core/knobs.ts";
import type { CheckpointDigest } from "../store/checkpoint-digest.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { locateSessionState, type LocatedSessionState } from "../store/session-state-locate.ts";
import { taskFromSessionFileName } from "../store/session-state.ts";
import { chooseTask, type TaskSource } from "../store/task-name.ts";

// What every checkpoint writer knows about the session before it writes: the
// session-state file, the branch, the first request and the task named from them. PreCompact,
// the block tier's forced save, the panic tier, SessionEnd and `/checkpoint` save all ask here,
// so one session gets one task name whichever writer runs.

export interface IdentityInput {
  sessionId: string | null | undefined;
  /** the model's or the person's --task; wins when given */
  task?: string;
  /** the transcript digest, when the writer read one (its first request names a task last) */
  digest?: CheckpointDigest | null;
}

export interface CheckpointIdentity {
  task: string;
  taskSource: TaskSource;
  /** set when --task had to be reduced to a file-name-safe form */
  taskWarning?: string;
  /** the branch from .git/HEAD (no git process); "unknown" when unreadable */
  branch: string;
  /** the session-state file: by `Session UUID:` anchor, else the newest within QUOIN_SESSION_FALLBACK_WINDOW (save step 1.1) */
  sessionState: LocatedSessionState;
  /** the session's first typed request, from the digest */
  firstRequest: string | undefined;
}

/** The first typed request of a digest (the head read, else the oldest request of the tail). */
export function firstRequestOf(digest: CheckpointDigest | null | undefined): string | undefined {
  return digest?.firstRequest?.text ?? digest?.requests[0]?.text;
}

/** The session-state choice, the branch and the task rule of lib/store/task-name.ts over them. */
export function checkpointIdentity(
  deps: Deps,
  paths: MemoryPaths,
  input: IdentityInput,
): CheckpointIdentity {
  // Without a UUID anchor (no session-state file names this session), the newest session-state
  // file within the fallback window.
  const sessionState = locateSessionState(deps.fs, paths.sessions, input.sessionId, {
    nowMs: deps.now().getTime(),
    windowDays: readKnob(deps.env, "QUOIN_SESSION_FALLBACK_WINDOW"),
  });
  // NOTE: .git/HEAD read instead of `git rev-parse --abbrev-ref HEAD`: the same answer without a process.
  const branch = readBranchCheap(deps.fs, paths.root);
  const firstRequest = firstRequestOf(input.digest);
  const choice = chooseTask({
    given: input.task,
    sessionState: sessionState.file ? taskFromSessionFileName(sessionState.file) : null,
    branch,
    firstRequest,
  });
  return {
    task: choice.task,
    taskSource: choice.source,
    ...(choice.warning ? { taskWarning: choice.warning } : {}),
    branch,
    sessionState,
    firstRequest,
  };
}
