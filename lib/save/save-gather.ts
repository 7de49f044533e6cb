import type { Deps } from "../core/deps.ts";
import { scanInFlightArtifacts } from "./artifact-scan.ts";
import type { CheckpointData, CommitRef, NextUp } from "../store/checkpoint-format.ts";
import { readBranchCheap, recentCommits } from "../core/git.ts";
import { reduceTaskName } from "../core/ids.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { findPlanFile } from "./plan-file.ts";
import { projectHash } from "../core/project-hash.ts";
import { intentFromUnfinished, parseSessionState, type SessionState } from "../store/session-state.ts";
import { locateSessionState } from "../store/session-state-locate.ts";
import { sessionStartTime } from "../store/session-start-time.ts";
import { utcIso } from "../core/time-format.ts";

export interface GatherInput {
  paths: MemoryPaths;
  launchCwd: string;
  sessionId: string | null;
  transcriptPath: string | null;
  task?: string;
  intent?: string;
  inProgress?: string;
  blockers: readonly string[];
  nextUp: readonly NextUp[];
  /** commits the skill names itself; merged with git's, by hash */
  completed: readonly CommitRef[];
  notes: readonly string[];
}

export interface Gathered {
  data: CheckpointData;
  /** the seed's INFO lines (session-state located by UUID anchor) */
  info: string[];
  /** the seed's WARNING lines */
  warnings: string[];
}

const MAX_COMMITS = 50;

/** A task name for a file name: reduced to [a-z0-9-]; says so when that changed what the user gave. */
export function resolveTask(given: string | undefined, fromSessionState: string | undefined): { task: string; warning?: string } {
  if (given !== undefined && given.trim() !== "") {
    const task = reduceTaskName(given);
    return task === given ? { task } : { task, warning: `[checkpoint] task name ${JSON.stringify(given)} reduced to '${task}' (file names use a-z, 0-9 and '-')` };
  }
  return { task: fromSessionState ? reduceTaskName(fromSessionState) : "unknown" };
}

function readState(deps: Deps, file: string | null): SessionState | null {
  if (!file) return null;
  try {
    return parseSessionState(file, deps.fs.readFileSync(file, "utf8") as string);
  } catch {
    return null;
  }
}

/** Save step 1, gather: session-state by UUID anchor then mtime, branch, intent, plan, commits, in-flight paths (never content). */
export function gatherCheckpoint(deps: Deps, input: GatherInput, status: string): Gathered {
  const { paths } = input;
  const info: string[] = [];
  const warnings: string[] = [];
  const located = locateSessionState(deps.fs, paths.sessions, input.sessionId);
  for (const m of located.messages) (m.includes("WARNING") ? warnings : info).push(m);
  const state = readState(deps, located.file);
  const { task, warning } = resolveTask(input.task, state?.task);
  if (warning) warnings.push(warning);

  // NOTE: .git/HEAD read instead of `git rev-parse --abbrev-ref HEAD`: the same answer without a process.
  const branch = readBranchCheap(deps.fs, paths.root);
  const scan = scanInFlightArtifacts(deps.fs, paths.artifacts);

  const commits = new Map<string, CommitRef>();
  const since = sessionStartTime(deps.fs, input.transcriptPath, paths.recentSessions, input.sessionId);
  if (since && branch !== "unknown") {
    for (const c of recentCommits(deps, paths.root, { max: MAX_COMMITS, since: utcIso(since) })) commits.set(c.hash, { hash: c.hash, subject: c.subject });
  } else if (branch !== "unknown") {
    warnings.push("[checkpoint] WARNING: session start unknown (no transcript, no recent-sessions line); commits of this session not listed");
  }
  for (const c of input.completed) if (![...commits.keys()].some((h) => h.startsWith(c.hash) || c.hash.startsWith(h))) commits.set(c.hash, c);

  const data: CheckpointData = {
    status,
    currentStage: state?.phase ?? state?.currentStage ?? "",
    task,
    branch,
    sessionId: input.sessionId,
    projectHash: projectHash(input.launchCwd),
    savedAt: deps.now(),
    intent: input.intent ?? intentFromUnfinished(state?.unfinished),
    planFile: findPlanFile(deps.fs, paths.root, scan),
    artifacts: {
      currentPlan: scan.currentPlan?.path ?? null,
      architecture: scan.architecture?.path ?? null,
      criticResponse: scan.criticResponse?.path ?? null,
      review: scan.review?.path ?? null,
      sessionState: located.file,
      sessionStateResolution: located.resolution,
    },
    commits: [...commits.values()],
    inProgress: input.inProgress,
    nextUp: input.nextUp,
    blockers: input.blockers,
    openQuestions: state?.openQuestions,
    decisions: state?.decisions,
    unfinished: state?.unfinished,
    notes: input.notes.length ? input.notes : undefined,
  };
  return { data, info, warnings };
}
