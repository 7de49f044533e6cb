import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { renderKeyValues, sentinelPath, type SentinelFamily } from "../store/sentinels.ts";
import { utcIso } from "../core/time-format.ts";

export const SAVE_MODES = ["restore", "load-as-reference", "mid-agent"] as const;

export type SaveMode = (typeof SAVE_MODES)[number];

const MODE_SENTINEL: Record<SaveMode, SentinelFamily> = {
  restore: "pending-restore",
  "load-as-reference": "pending-resume-ref",
  "mid-agent": "mid-agent-handoff",
};

/** The seed's empty/unknown-SID guard text, per mode (save steps 3, 4b, 4c). */
export function refusedSentinelWarning(mode: SaveMode): string {
  const family = MODE_SENTINEL[mode];
  const tail =
    mode === "restore"
      ? "Checkpoint file kept; restore via picker."
      : mode === "load-as-reference"
        ? "Checkpoint file kept."
        : "Proceeding without sentinel.";
  return `[checkpoint] WARNING: session UUID empty/unknown; refusing to write ${family} sentinel (would create orphan ${family}-.txt). ${tail}`;
}

export interface SentinelFields {
  sid: string;
  checkpoint: string | null;
  task: string;
  activeSkills: string;
}

/** The sentinel's text for its mode: a path on line 1, or the seed's key=value lines. */
function sentinelText(mode: SaveMode, f: SentinelFields, now: Date): string {
  if (mode === "restore") return `${f.checkpoint ?? ""}\n`;
  if (mode === "load-as-reference")
    return renderKeyValues({ prior_session_uuid: f.sid, checkpoint_path: f.checkpoint ?? "" });
  return renderKeyValues({
    prior_session_uuid: f.sid,
    task_name: f.task,
    active_skills: f.activeSkills,
    timestamp: utcIso(now),
  });
}

/** Save steps 3, 4b, 4c: write this mode's sentinel (one per session: a newer save of the same session replaces it whole). */
export function writeModeSentinel(
  deps: Deps,
  paths: MemoryPaths,
  mode: SaveMode,
  f: SentinelFields,
): string {
  const file = sentinelPath(paths.memory, MODE_SENTINEL[mode], f.sid);
  writeAtomic(deps.fs, file, sentinelText(mode, f, deps.now()), { mode: 0o600, pid: deps.pid });
  return file;
}
