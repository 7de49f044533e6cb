import type { Deps } from "../core/deps.ts";
import { createUnique, writeAtomic } from "../core/atomic-write.ts";
import { scanInFlightArtifacts } from "./artifact-scan.ts";
import { NO_ARTIFACTS, renderSkeletonCheckpoint } from "../store/checkpoint-format.ts";
import { precompactCheckpointName, voluntaryCheckpointName } from "../store/checkpoint-names.ts";
import { readBranchCheap } from "../core/git.ts";
import { isUsableSessionId, reduceTaskName } from "../core/ids.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { projectHash } from "../core/project-hash.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { newestSessionState } from "../store/session-state-locate.ts";
import { taskFromSessionFileName } from "../store/session-state.ts";

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
}

export interface SkeletonResult {
  checkpoint: string;
  sentinel: string | null;
  task: string;
  branch: string;
}

/** The cheap task name: the newest session-state file name, else "unknown". */
export function cheapTaskName(deps: Deps, paths: MemoryPaths): string {
  return taskOfSessionState(newestSessionState(deps.fs, paths.sessions));
}

function taskOfSessionState(file: string | null): string {
  return file ? reduceTaskName(taskFromSessionFileName(file)) : "unknown";
}

/**
 * Step C2, the panic tier and precompact: a skeleton checkpoint from cheap sources only (no git
 * process, no content reads), created exclusively, then the pending-restore sentinel naming it.
 */
export function writeSkeletonCheckpoint(deps: Deps, req: SkeletonRequest): SkeletonResult {
  const now = deps.now();
  const { paths } = req;
  // One listing of sessions/ gives both the task name and the session-state path.
  const sessionState = newestSessionState(deps.fs, paths.sessions);
  const task = taskOfSessionState(sessionState);
  const branch = readBranchCheap(deps.fs, paths.root);
  const scan = scanInFlightArtifacts(deps.fs, paths.artifacts);
  const sid = isUsableSessionId(req.sessionId) ? req.sessionId : null;
  const body = renderSkeletonCheckpoint({
    status: req.status,
    currentStage: "(unknown - skeleton save)",
    task,
    branch,
    sessionId: sid,
    projectHash: projectHash(req.launchCwd),
    savedAt: now,
    artifacts: {
      ...NO_ARTIFACTS,
      currentPlan: scan.currentPlan?.path ?? null,
      architecture: scan.architecture?.path ?? null,
      sessionState,
      sessionStateResolution: sessionState ? "mtime-fallback" : null,
    },
    notes: req.notes,
  });
  const nameFor = (n: number) => (req.shape === "precompact" ? precompactCheckpointName(now, task, n) : voluntaryCheckpointName(now, task, n));
  const checkpoint = createUnique(deps.fs, paths.checkpoints, nameFor, body, { mode: 0o600, pid: deps.pid });
  let sentinel: string | null = null;
  if (req.writeSentinel && sid) {
    sentinel = sentinelPath(paths.memory, "pending-restore", sid);
    writeAtomic(deps.fs, sentinel, `${checkpoint}\n`, { mode: 0o600, pid: deps.pid });
  }
  return { checkpoint, sentinel, task, branch };
}
