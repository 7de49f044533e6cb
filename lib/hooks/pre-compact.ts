import type { Deps } from "../core/deps.ts";
import type { PreCompactInput } from "./hook-io.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { notAProject, projectMemory } from "../store/project-root.ts";
import { writeSnapshotCheckpoint, type SnapshotResult } from "../save/snapshot-save.ts";
import { describeSkills, otherActiveSkills } from "../save/skill-presence.ts";
import { settleOwnPendingRestore } from "../store/pending-restore.ts";
import { precompactStatus } from "../store/checkpoint-status.ts";

export type PreCompactOutcome =
  | { saved: true; result: SnapshotResult; trigger: string; activeSkills: string }
  | { saved: false; reason: string };

/** "auto" and "manual" both save: either way the detail is about to be thrown away. */
export function triggerLabel(trigger: string | undefined): string {
  return trigger === "manual"
    ? "manual"
    : trigger === "auto"
      ? "auto"
      : `auto (trigger ${JSON.stringify(trigger ?? "")})`;
}

/**
 * The automatic save before compaction: a skeleton checkpoint with the transcript digest
 * (<date>-<task>-precompact.md) and pending-restore-<sid>, unless that sentinel already names an existing checkpoint (an earlier save
 * of this session is still waiting to be restored, and it holds more than a skeleton would).
 */
export function runPreCompact(deps: Deps, input: PreCompactInput): PreCompactOutcome {
  const cwd = input.cwd ?? deps.cwd;
  const paths = projectMemory(deps.fs, cwd, deps.home);
  if (!paths) return { saved: false, reason: `${notAProject(cwd)}: nothing is written there` };
  const sid = isUsableSessionId(input.session_id) ? input.session_id : null;
  const { held, trashed } = sid
    ? settleOwnPendingRestore(deps, paths, sid, deps.now())
    : { held: null, trashed: null };
  if (held)
    return {
      saved: false,
      reason: `pending-restore-${sid}.txt already names ${held.checkpoint}; kept as is`,
    };
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
    status: precompactStatus(trigger),
    shape: "precompact",
    notes,
    writeSentinel: true,
  });
  return { saved: true, result, trigger, activeSkills: describeSkills(skills) };
}
