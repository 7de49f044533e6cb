import { statusText } from "../store/checkpoint-status.ts";
import type { Deps } from "../core/deps.ts";
import { createUnique, writeAtomic } from "../core/atomic-write.ts";
import { scanInFlightArtifacts } from "./artifact-scan.ts";
import { renderSkeletonCheckpoint } from "../store/checkpoint-format.ts";
import { NO_ARTIFACTS, type CommitRef } from "../store/checkpoint-values.ts";
import { precompactCheckpointName, voluntaryCheckpointName } from "../store/checkpoint-names.ts";
import { readHeadCheap } from "../core/git.ts";
import { isUsableSessionId } from "../core/ids.ts";
import type { CheckpointDigest } from "../store/checkpoint-digest.ts";
import type { Handover } from "../store/checkpoint-handover.ts";
import { oneLine } from "../core/text-cut.ts";
import type { TaskSource } from "../store/task-name.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { projectHash } from "../core/project-hash.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { checkpointIdentity } from "./checkpoint-identity.ts";

/** The status line of the block tier's forced save (step C2). */
export const FORCED_SAVE_STATUS = statusText({ kind: "forced" });

export interface SkeletonRequest {
  paths: MemoryPaths;
  sessionId: string | null;
  /** the raw launch cwd, for the transcript folder name */
  launchCwd: string;
  status: string;
  shape: "voluntary" | "precompact";
  notes?: string[];
  /** write pending-restore-<sid> too (skipped when the session id is not usable) */
  writeSentinel: boolean;
  /** the transcript digest, when the writer read one (the prompt hook's forced save does not) */
  digest?: CheckpointDigest | null;
  /** an explicit task (--task); else the task rule of lib/store/task-name.ts */
  task?: string;
  /** commits of this session, when the writer ran git for them (session end) */
  commits?: readonly CommitRef[];
  /** this session's commits (checked against git, or unchecked) and uncommitted files */
  handover?: Handover | null;
}

export interface SkeletonResult {
  checkpoint: string;
  sentinel: string | null;
  task: string;
  taskSource: TaskSource;
  branch: string;
  bytes: number;
}

/** The newest typed request of a digest, for the intent section (the picker rows show it). */
export function newestRequestIntent(
  digest: CheckpointDigest | null | undefined,
): string | undefined {
  const newest = digest?.requests.at(-1) ?? digest?.firstRequest;
  return newest ? `(newest request) ${oneLine(newest.text, 200)}` : undefined;
}

/**
 * Step C2 (the block tier's forced save), the panic tier, precompact and session end: a skeleton
 * checkpoint from cheap sources (no git process, no content reads) plus the transcript digest the
 * caller read, created exclusively, then (when asked) the pending-restore sentinel naming it.
 */
export function writeSkeletonCheckpoint(deps: Deps, req: SkeletonRequest): SkeletonResult {
  const now = deps.now();
  const { paths } = req;
  // One choice of session-state file, branch and task for every writer (checkpoint-identity.ts).
  const id = checkpointIdentity(deps, paths, {
    sessionId: req.sessionId,
    task: req.task,
    digest: req.digest,
  });
  const { task, branch } = id;
  const scan = scanInFlightArtifacts(deps.fs, paths.artifacts);
  const sid = isUsableSessionId(req.sessionId) ? req.sessionId : null;
  const body = renderSkeletonCheckpoint({
    status: req.status,
    currentStage: "(unknown - skeleton save)",
    task,
    branch,
    head: readHeadCheap(deps.fs, paths.root),
    sessionId: sid,
    projectHash: projectHash(req.launchCwd),
    savedAt: now,
    intent: newestRequestIntent(req.digest),
    artifacts: {
      ...NO_ARTIFACTS,
      currentPlan: scan.currentPlan?.path ?? null,
      architecture: scan.architecture?.path ?? null,
      sessionState: id.sessionState.file,
      sessionStateResolution: id.sessionState.resolution,
    },
    notes: req.notes,
    digest: req.digest ?? null,
    ...(req.commits ? { commits: req.commits } : {}),
    ...(req.handover ? { handover: req.handover } : {}),
  });
  const nameFor = (n: number) =>
    req.shape === "precompact"
      ? precompactCheckpointName(now, task, n)
      : voluntaryCheckpointName(now, task, n);
  const checkpoint = createUnique(deps.fs, paths.checkpoints, nameFor, body, {
    mode: 0o600,
    pid: deps.pid,
  });
  let sentinel: string | null = null;
  if (req.writeSentinel && sid) {
    sentinel = sentinelPath(paths.memory, "pending-restore", sid);
    writeAtomic(deps.fs, sentinel, `${checkpoint}\n`, { mode: 0o600, pid: deps.pid });
  }
  return {
    checkpoint,
    sentinel,
    task,
    taskSource: id.taskSource,
    branch,
    bytes: Buffer.byteLength(body),
  };
}
