import { readTextOrNull } from "../core/file-range.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { readHeadCheap, recentCommits } from "../core/git.ts";
import { isUsableSessionId } from "../core/ids.ts";
import type { TranscriptDigest } from "../context/transcript-digest.ts";
import { readTranscriptDigest } from "../context/transcript-digest-read.ts";
import { checkHandover } from "../save/session-git.ts";
import { statusText } from "../store/checkpoint-status.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { projectMemory } from "../store/project-root.ts";
import { writeSkeletonCheckpoint } from "../save/skeleton-save.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import type { SessionEndInput } from "./hook-io.ts";
import { markClearDone, markClearStart } from "./clear-handoff.ts";
import { appendHookLog } from "./hook-log.ts";
import { reasonLabel, sessionEndSkip, type SessionEndSkip } from "./session-end-rules.ts";
import { autoShare, autoShareOn } from "../share/share-auto.ts";
import { recordSaveFailure, saveFailureDetail } from "./save-failure.ts";
import { utcIso } from "../core/time-format.ts";

/**
 * The transcript bytes the SessionEnd hook digests, from the end (plus the reader's head read).
 * NOTE: smaller than a save's budget: all SessionEnd hooks share 1.5 s, node's start included.
 */
const SESSIONEND_DIGEST_BUDGET = 4 * 1024 * 1024;
/** The head read for the session's first request (the reader's default is 512 KiB: measured, most of a cold run's digest time). */
const SESSIONEND_HEAD_BYTES = 128 * 1024;

/**
 * Claude Code's limit for each SessionEnd hook without a `timeout` (Claude Code's hook docs, and
 * measured: SIGTERM at 1.5 s; CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS can shorten it, never
 * lengthen it).
 * The hook's own deadline is QUOIN_SESSIONEND_DEADLINE_MS (1200 ms) from its process start: past
 * it, it stops before the git and write steps and writes nothing.
 */
export const SESSIONEND_BUDGET_MS = 1500;

/** The local share under QUOIN_SHARE=auto took 80-190 ms (about 10 git plumbing calls) on a loaded 2-core box: it starts only with this much left. */
const AUTO_SHARE_ROOM_MS = 300;

export type SessionEndOutcome =
  | { saved: true; checkpoint: string; task: string; reason: string }
  | ({ saved: false; reason: string } & (
      | SessionEndSkip
      | { skip: "deadline" | "no-session-id" | "write-failed"; detail: string }
    ));

export interface SessionEndOptions {
  /** epoch ms after which the hook stops before its next expensive step and writes nothing */
  deadlineAt: number;
  /** the QUOIN_SHARE knob; unset: off */
  share?: Knobs["QUOIN_SHARE"];
}

/** Commits since the previous snapshot, the git call cut to what is left of the deadline. */
function commitsSince(deps: Deps, root: string, savedAt: string, deadlineAt: number): number {
  const left = deadlineAt - WRITE_RESERVE_MS - deps.now().getTime();
  if (left < 60) return 0;
  return recentCommits(deps, root, { max: 1, since: savedAt, timeoutMs: Math.floor(left) }).length;
}

/** Kept free before the deadline for the checkpoint's write after the last git call. */
const WRITE_RESERVE_MS = 80;

/** Write the snapshot through the one mechanical writer: the voluntary name shape, mode 0600, no sentinel, never over another file. */
function writeSnapshot(
  deps: Deps,
  paths: MemoryPaths,
  input: SessionEndInput,
  sid: string,
  digest: TranscriptDigest,
  reason: string,
  deadlineAt: number,
): { checkpoint: string; task: string } {
  const written = writeSkeletonCheckpoint(deps, {
    paths,
    sessionId: sid,
    launchCwd: input.cwd ?? deps.cwd,
    status: statusText({ kind: "session-end", reason }),
    shape: "voluntary",
    writeSentinel: false,
    digest,
    // Each git call is cut to what is left of the 1.2 s deadline; a late git is skipped and said so.
    handover: checkHandover(deps, paths.root, digest, [], {
      git: true,
      deadlineAt,
      reserveMs: WRITE_RESERVE_MS,
    }),
  });
  return { checkpoint: written.checkpoint, task: written.task };
}

/**
 * SessionEnd, any reason: a mechanical checkpoint of this session with its transcript digest,
 * unless a skip rule applies (session-end-rules.ts). No pending-restore sentinel: the picker finds
 * it on disk. A `clear` leaves a marker in <config>/quoin-checkpoint/state/ for the SessionStart
 * that follows.
 */
export function runSessionEnd(
  deps: Deps,
  input: SessionEndInput,
  opts: SessionEndOptions,
): SessionEndOutcome {
  const reason = reasonLabel(input.reason);
  const sid = isUsableSessionId(input.session_id) ? input.session_id : null;
  if (!sid)
    return {
      saved: false,
      reason,
      skip: "no-session-id",
      detail: "the payload's session_id is not usable in a file name",
    };
  const start = path.resolve(input.cwd ?? deps.cwd);
  // Null for $HOME, its ancestors and /: never a project, nothing is written there.
  const paths = projectMemory(deps, start);
  const configDir = claudeConfigDir(deps.env, deps.home);
  const clearRoot = reason === "clear" ? paths?.root : undefined;
  if (clearRoot) markClearStart(deps, configDir, sid, clearRoot);
  const outcome = decideAndWrite(deps, input, opts, {
    sid,
    reason,
    root: paths?.root ?? start,
    paths,
  });
  if (clearRoot) markClearDone(deps, configDir, sid, clearRoot, outcome);
  // QUOIN_SHARE=auto: recorded on the local shared ref only; the next share or fetch pushes it.
  if (
    outcome.saved &&
    paths &&
    autoShareOn({ QUOIN_SHARE: opts.share ?? "off" }) &&
    deps.now().getTime() + AUTO_SHARE_ROOM_MS < opts.deadlineAt
  )
    autoShare(deps, { file: outcome.checkpoint, root: paths.root, launchCwd: start, push: false });
  return outcome;
}

interface Where {
  sid: string;
  reason: string;
  root: string;
  /** null outside a project */
  paths: MemoryPaths | null;
}

function decideAndWrite(
  deps: Deps,
  input: SessionEndInput,
  opts: SessionEndOptions,
  w: Where,
): SessionEndOutcome {
  const late = (): SessionEndOutcome | null =>
    deps.now().getTime() > opts.deadlineAt
      ? {
          saved: false,
          reason: w.reason,
          skip: "deadline",
          detail: "the hook's own deadline passed; nothing written",
        }
      : null;
  const paths = w.paths;
  const rootIsHomeOrSlash = paths === null;
  const digest =
    !paths || !input.transcript_path
      ? null
      : readTranscriptDigest(deps.fs, input.transcript_path, {
          projectRoot: w.root,
          sessionId: w.sid,
          budgetBytes: SESSIONEND_DIGEST_BUDGET,
          headBytes: SESSIONEND_HEAD_BYTES,
        });
  const newest =
    digest && paths
      ? newestCheckpointOf(deps, paths, w.sid, digest.firstRequest?.at ?? null)
      : null;
  const previousText = newest ? readTextOrNull(deps.fs, newest.file) : null;
  const previous = newest
    ? { ...newest, parsed: previousText === null ? null : parseCheckpoint(previousText) }
    : null;
  const skip = sessionEndSkip({
    rootIsHomeOrSlash,
    root: w.root,
    digest,
    transcriptPath: input.transcript_path,
    previous,
    commitsSincePrevious: () =>
      late() ? 0 : commitsSince(deps, w.root, previous?.savedAt ?? "", opts.deadlineAt),
    headNow: () => readHeadCheap(deps.fs, w.root),
  });
  if (skip) return { saved: false, reason: w.reason, ...skip };
  const cut = late();
  if (cut || !digest || !paths)
    return cut ?? { saved: false, reason: w.reason, skip: "no-transcript", detail: "no digest" };
  try {
    const written = writeSnapshot(deps, paths, input, w.sid, digest, w.reason, opts.deadlineAt);
    return { saved: true, reason: w.reason, ...written };
  } catch (err) {
    // Nothing could be saved (read-only, disk full): recorded outside the repository, so this
    // session's next start says so once; the hook log gets the line too.
    const detail = saveFailureDetail(err);
    recordSaveFailure(deps, w.sid, { event: "SessionEnd", reason: detail, at: utcIso(deps.now()) });
    return { saved: false, reason: w.reason, skip: "write-failed", detail };
  }
}

/** One line in the hook log (<config>/quoin-checkpoint/logs/hooks.log), only where the memory folder already exists (a skip leaves no trace) or a write failed. */
export function logSessionEnd(
  deps: Deps,
  input: SessionEndInput,
  outcome: SessionEndOutcome,
): void {
  const paths = projectMemory(deps, input.cwd ?? deps.cwd);
  const failed = !outcome.saved && outcome.skip === "write-failed";
  if (!paths || (!failed && !deps.fs.existsSync(paths.memory))) return;
  const what = outcome.saved
    ? `saved ${outcome.checkpoint}`
    : `skipped (${outcome.skip}): ${outcome.detail}`;
  appendHookLog(deps, `SessionEnd ${outcome.reason}: ${what}`, paths.root);
}
