import { readTextByRule } from "../core/file-range.ts";
import type { Deps } from "../core/deps.ts";
import { scanInFlightArtifacts } from "./artifact-scan.ts";
import type { CheckpointData } from "../store/checkpoint-format.ts";
import type { CommitRef, NextUp } from "../store/checkpoint-values.ts";
import { readHeadCheap, statusPorcelain } from "../core/git.ts";
import { checkHandover } from "./session-git.ts";
import type { TranscriptDigest } from "../context/transcript-digest.ts";
import type { Handover } from "../store/checkpoint-handover.ts";
import type { CheckpointDigest } from "../store/checkpoint-digest.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { findPlanFile } from "./plan-file.ts";
import { newestRequestIntent } from "./skeleton-save.ts";
import { readSessionDigest } from "./snapshot-save.ts";
import { projectHash } from "../core/project-hash.ts";
import {
  intentFromUnfinished,
  parseSessionState,
  type SessionState,
} from "../store/session-state.ts";
import { checkpointIdentity } from "./checkpoint-identity.ts";
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
  /** finished items in words (the model's `done`) */
  done?: readonly string[];
  /** the model's decisions and open questions; listed before the session-state file's */
  decisions?: readonly string[];
  openQuestions?: readonly string[];
  /** the transcript digest (null: none could be read) */
  digest?: CheckpointDigest | null;
}

export interface Gathered {
  data: CheckpointData;
  /** the transcript the save was to read and could not find (null: read, or none was named) */
  transcriptMissing: string | null;
  /** the seed's INFO lines (session-state located by UUID anchor) */
  info: string[];
  /** the seed's WARNING lines */
  warnings: string[];
}

/** The model's items first, then the session-state file's text; undefined when neither has any. */
function mergeList(
  fromModel: readonly string[] | undefined,
  fromState: string | undefined,
): string | undefined {
  const lines = (fromModel ?? [])
    .map((i) => `- ${i.replace(/\s*\n\s*/g, " ").trim()}`)
    .filter((l) => l !== "- ");
  const text = [...lines, ...(fromState?.trim() ? [fromState.trim()] : [])].join("\n");
  return text === "" ? undefined : text;
}

function readState(deps: Deps, file: string | null): SessionState | null {
  if (!file) return null;
  try {
    return parseSessionState(file, readTextByRule(deps.fs, file));
  } catch {
    return null;
  }
}

/**
 * This session's own commits (its transcript's `git commit` results, then the model's
 * `completed`), checked against git; the git-log window since its start is only a count.
 */
function gatherHandover(
  deps: Deps,
  input: GatherInput,
  digest: CheckpointDigest | null,
  branch: string,
  warnings: string[],
  transcriptMissing: string | null,
): Handover {
  const { paths } = input;
  const since =
    sessionStartTime(deps.fs, input.transcriptPath, paths.recentSessions, input.sessionId) ??
    digest?.firstRequest?.at;
  // a missing transcript is said once, in its own warning
  if (!since && branch !== "unknown" && !transcriptMissing)
    warnings.push(
      "[checkpoint] WARNING: session start unknown (no transcript, no recent-sessions line); other commits since it not counted",
    );
  const td = digest as Partial<TranscriptDigest> | null;
  // No transcript: the uncommitted files are every file git status shows, not this session's own.
  const dirty =
    digest === null && branch !== "unknown"
      ? (statusPorcelain(deps, paths.root) ?? []).map((l) =>
          l
            .slice(3)
            .replace(/^.* -> /, "")
            .replace(/^"(.*)"$/, "$1"),
        )
      : null;
  return checkHandover(
    deps,
    paths.root,
    {
      commits: td?.commits ?? [],
      changedAfterCommit: dirty ?? td?.changedAfterCommit ?? [],
      firstRequest: since
        ? { text: "", at: typeof since === "string" ? since : utcIso(since), uuid: null }
        : null,
    },
    input.completed,
    { git: branch !== "unknown" },
  );
}

/** Save step 1, gather: session-state by UUID anchor then mtime, branch, intent, plan, commits, in-flight paths (never content). */
export function gatherCheckpoint(deps: Deps, input: GatherInput, status: string): Gathered {
  const { paths } = input;
  const info: string[] = [];
  const warnings: string[] = [];
  const digest =
    input.digest !== undefined
      ? input.digest
      : readSessionDigest(deps, paths.root, input.transcriptPath, input.sessionId);
  // The session-state choice, the branch and the task: the same for every writer (checkpoint-identity.ts).
  const id = checkpointIdentity(deps, paths, {
    sessionId: input.sessionId,
    task: input.task,
    digest,
  });
  const { task, branch, sessionState: located } = id;
  for (const m of located.messages) (m.includes("WARNING") ? warnings : info).push(m);
  if (id.taskWarning) warnings.push(id.taskWarning);
  const state = readState(deps, located.file);
  const scan = scanInFlightArtifacts(deps.fs, paths.artifacts);

  const transcriptMissing =
    digest === null && input.transcriptPath && !deps.fs.existsSync(input.transcriptPath)
      ? input.transcriptPath
      : null;
  if (transcriptMissing)
    warnings.push(
      `[checkpoint] WARNING: no transcript at ${transcriptMissing} (the engine's HOME or CLAUDE_CONFIG_DIR may differ from the client's): requests, this session's commits and last words are unknown; the uncommitted files are git status's, not known to be this session's`,
    );
  const handover = gatherHandover(deps, input, digest, branch, warnings, transcriptMissing);

  const data: CheckpointData = {
    status,
    currentStage: state?.phase ?? state?.currentStage ?? "",
    task,
    branch,
    head: readHeadCheap(deps.fs, paths.root),
    sessionId: input.sessionId,
    projectHash: projectHash(input.launchCwd),
    savedAt: deps.now(),
    intent: input.intent ?? intentFromUnfinished(state?.unfinished) ?? newestRequestIntent(digest),
    planFile: findPlanFile(deps.fs, paths.root, scan),
    artifacts: {
      currentPlan: scan.currentPlan?.path ?? null,
      architecture: scan.architecture?.path ?? null,
      criticResponse: scan.criticResponse?.path ?? null,
      review: scan.review?.path ?? null,
      sessionState: located.file,
      sessionStateResolution: located.resolution,
    },
    commits: handover.commits.map((c): CommitRef => ({ hash: c.hash, subject: c.subject })),
    handover,
    modelDocument: Boolean(
      input.done?.length ||
        input.inProgress ||
        input.nextUp.length ||
        input.blockers.length ||
        input.decisions?.length ||
        input.openQuestions?.length,
    ),
    done: input.done,
    inProgress: input.inProgress,
    nextUp: input.nextUp,
    blockers: input.blockers,
    openQuestions: mergeList(input.openQuestions, state?.openQuestions),
    decisions: mergeList(input.decisions, state?.decisions),
    unfinished: state?.unfinished,
    notes: [
      ...input.notes,
      ...(transcriptMissing
        ? [
            `(unknown: no transcript at ${transcriptMissing}) requests, last words, work items and files`,
          ]
        : []),
    ],
    digest,
    transcriptMissing,
  };
  return { data, info, warnings, transcriptMissing };
}
