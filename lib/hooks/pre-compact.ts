import type { Deps } from "../core/deps.ts";
import type { PreCompactInput } from "./hook-io.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { notAProject, projectMemory } from "../store/project-root.ts";
import { writeSnapshotCheckpoint, type SnapshotResult } from "../save/snapshot-save.ts";
import { describeSkills, otherActiveSkills } from "../save/skill-presence.ts";
import { settleOwnPendingRestore } from "../store/pending-restore.ts";
import { kindOf, statusText } from "../store/checkpoint-status.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { readHeadCheap, recentCommits } from "../core/git.ts";
import type { TranscriptDigest } from "../context/transcript-digest.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import { readSessionDigest } from "../save/snapshot-save.ts";
import { appendHookLog } from "./hook-log.ts";
import { changesSince } from "./precompact-once.ts";
import { steeringText } from "./compact-steer.ts";
import { recordSaveFailure, saveFailureDetail } from "./save-failure.ts";
import type { Knobs } from "../core/knobs.ts";
import { utcIso } from "../core/time-format.ts";

export type PreCompactOutcome =
  | {
      saved: true;
      result: SnapshotResult;
      trigger: string;
      activeSkills: string;
      /** the checkpoint this compaction belongs to (the one just written) */
      checkpoint: string;
      digest: TranscriptDigest | null;
    }
  | {
      saved: false;
      reason: string;
      /** a write failed (read-only, disk full): logged, and recorded for the next SessionStart */
      failed?: true;
      /** the checkpoint that already holds this session's place, when there is one */
      checkpoint?: string;
      digest?: TranscriptDigest | null;
    };

/** "auto" and "manual" both save: either way the detail is about to be thrown away. */
export function triggerLabel(trigger: string | undefined): string {
  return trigger === "manual"
    ? "manual"
    : trigger === "auto"
      ? "auto"
      : `auto (trigger ${JSON.stringify(trigger ?? "")})`;
}

/**
 * This session's newest checkpoint when it already holds everything the transcript shows now
 * (precompact-once.ts); null when something happened since, or there is none.
 */
function unchangedCheckpoint(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  digest: TranscriptDigest,
): { file: string; savedAt: string } | null {
  const newest = newestCheckpointOf(deps, paths, sid, digest.firstRequest?.at ?? null);
  const text = newest ? readTextOrNull(deps.fs, newest.file) : null;
  if (!newest || text === null) return null;
  const changes = changesSince({
    digest,
    previous: parseCheckpoint(text),
    headNow: readHeadCheap(deps.fs, paths.root),
    commitsSince: () => recentCommits(deps, paths.root, { max: 1, since: newest.savedAt }).length,
  });
  return changes.length ? null : newest;
}

/**
 * The automatic save before compaction: a skeleton checkpoint with the transcript digest
 * (<date>-<task>-precompact.md) and pending-restore-<sid>. Nothing is written when this session's
 * newest checkpoint already holds everything (PreCompact may fire twice for one
 * compaction), or when the sentinel names a checkpoint that is not an earlier precompact save
 * (a /checkpoint or forced save still waiting to be restored holds more than a skeleton would).
 */
export function runPreCompact(deps: Deps, input: PreCompactInput): PreCompactOutcome {
  const cwd = input.cwd ?? deps.cwd;
  const paths = projectMemory(deps, cwd);
  if (!paths) return { saved: false, reason: `${notAProject(cwd)}: nothing is written there` };
  const sid = isUsableSessionId(input.session_id) ? input.session_id : null;
  try {
    return saveBeforeCompaction(deps, input, paths, sid);
  } catch (err) {
    // Nothing could be saved: said in the hook log and, once, at this session's next start.
    const reason = saveFailureDetail(err);
    recordSaveFailure(deps, sid, { event: "PreCompact", reason, at: utcIso(deps.now()) });
    return logged(deps, paths, {
      saved: false,
      failed: true,
      reason: `the checkpoint could not be saved: ${reason}`,
    });
  }
}

function saveBeforeCompaction(
  deps: Deps,
  input: PreCompactInput,
  paths: MemoryPaths,
  sid: string | null,
): PreCompactOutcome {
  const { held, trashed } = sid
    ? settleOwnPendingRestore(deps, paths, sid, deps.now())
    : { held: null, trashed: null };
  const digest = readSessionDigest(deps, paths.root, input.transcript_path, sid);
  const heldStatus = held
    ? parseCheckpoint(readTextOrNull(deps.fs, held.checkpoint) ?? "").status
    : undefined;
  // An earlier precompact checkpoint gives way to a newer one only when the digest shows more.
  if (held && (kindOf(heldStatus).kind !== "precompact" || !digest))
    return logged(deps, paths, {
      saved: false,
      reason: `pending-restore-${sid}.txt already names ${held.checkpoint}; kept as is`,
      checkpoint: held.checkpoint,
      digest,
    });
  const unchanged = sid && digest ? unchangedCheckpoint(deps, paths, sid, digest) : null;
  if (unchanged)
    return logged(deps, paths, {
      saved: false,
      reason: `nothing new since ${unchanged.file} (saved ${unchanged.savedAt}); no checkpoint written`,
      checkpoint: unchanged.file,
      digest,
    });
  return writePrecompact(deps, paths, input, sid, digest, trashed);
}

function logged(
  deps: Deps,
  paths: MemoryPaths,
  out: Extract<PreCompactOutcome, { saved: false }>,
): PreCompactOutcome {
  try {
    appendHookLog(deps, `PreCompact: ${out.reason}`, paths.root);
  } catch {
    // fail open: the outcome stands without its log line
  }
  return out;
}

function writePrecompact(
  deps: Deps,
  paths: MemoryPaths,
  input: PreCompactInput,
  sid: string | null,
  digest: TranscriptDigest | null,
  trashed: string | null,
): PreCompactOutcome {
  const trigger = triggerLabel(input.trigger);
  const skills = otherActiveSkills(deps, paths, sid);
  const notes = [`compaction trigger: ${trigger}`];
  if (trashed) {
    notes.push(
      "the earlier pending-restore sentinel named a checkpoint that is missing or outside checkpoints/; moved to trash/",
    );
  }
  // Still save while other skills run, but say so: their own state may be mid-write.
  if (skills.length)
    notes.push(
      `skills active at compaction: ${describeSkills(skills)}; their output may be incomplete`,
    );
  const result = writeSnapshotCheckpoint(deps, {
    paths,
    transcriptPath: input.transcript_path,
    sessionId: sid,
    launchCwd: input.cwd ?? deps.cwd,
    status: statusText({ kind: "precompact", trigger }),
    shape: "precompact",
    notes,
    writeSentinel: true,
    digest,
  });
  return {
    saved: true,
    result,
    trigger,
    activeSkills: describeSkills(skills),
    checkpoint: result.checkpoint,
    digest,
  };
}

/**
 * PreCompact's stdout for the summariser (compact-steer.ts): what to keep verbatim, naming the
 * checkpoint of this compaction. Null with QUOIN_STEER_COMPACTION=0 or outside a project.
 */
export function preCompactSteering(
  out: PreCompactOutcome,
  input: PreCompactInput,
  knobs: Pick<Knobs, "QUOIN_STEER_COMPACTION">,
): string | null {
  if (knobs.QUOIN_STEER_COMPACTION === "0") return null;
  const checkpoint = out.checkpoint ?? null;
  if (!checkpoint) return null;
  return steeringText({ checkpoint, digest: out.digest, focus: input.custom_instructions });
}
