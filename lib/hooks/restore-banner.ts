import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { parseCheckpointName } from "../store/checkpoint-names.ts";
import { checkSessionId, reduceTaskName } from "../core/ids.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { readSentinelHead, trustedCheckpoint } from "../store/pending-restore.ts";
import { listSentinelFiles, type SentinelFile } from "../store/sentinel-listing.ts";
import { parseKeyValues, sentinelPath, type SentinelFamily } from "../store/sentinels.ts";

export type BannerKind = "own-restore" | "other-restore" | "reference" | "mid-agent";

export interface Banner {
  kind: BannerKind;
  text: string;
  checkpoint: string | null;
  sentinel: string;
}

const SKILL_ENTRY = /^[a-z0-9][a-z0-9_-]{0,63} \(pid [0-9]{1,10}\)$/;

/**
 * A handoff's active_skills as save wrote it ("plan (pid 412), implement (pid 977)"): only entries
 * of that exact shape, so the banner carries skill names, never free text from the file.
 */
function handoffSkills(raw: string | undefined): string {
  const entries = (raw ?? "").split(",").map((e) => e.trim()).filter((e) => SKILL_ENTRY.test(e));
  return entries.slice(0, 10).join(", ") || "(none)";
}

/** The task a checkpoint is for, from its file name only (never its content). */
function taskOf(checkpoint: string): string {
  const shape = parseCheckpointName(path.basename(checkpoint));
  return reduceTaskName(shape?.rest ?? "unknown");
}

function sentinelsOf(listing: readonly SentinelFile[], family: SentinelFamily): Array<{ file: string; sid: string }> {
  return listing.filter((s) => s.family === family).map((s) => ({ file: s.path, sid: s.sid }));
}

/**
 * At most one banner, in DESIGN.md's order: this session's pending restore; else the newest other
 * session's (marked as such); else a load-as-reference checkpoint; else a mid-agent handoff.
 * Paths and task names only. `listing` is the memory folder's sentinels, newest first.
 */
export function chooseBanner(
  deps: Deps,
  paths: MemoryPaths,
  sid: string | null,
  listing: readonly SentinelFile[] = listSentinelFiles(deps.fs, paths.memory),
): Banner | null {
  const restores = sentinelsOf(listing, "pending-restore").filter((s) => s.sid !== "");
  const ordered = sid ? [...restores.filter((s) => s.sid === sid), ...restores.filter((s) => s.sid !== sid)] : restores;
  for (const s of ordered) {
    const checkpoint = trustedCheckpoint(deps, paths, readSentinelHead(deps, s.file)?.split("\n")[0]);
    if (!checkpoint) continue;
    const task = taskOf(checkpoint);
    if (s.sid === sid) {
      return {
        kind: "own-restore",
        checkpoint,
        sentinel: s.file,
        text: `[quoin-checkpoint] A checkpoint for this session is waiting: ${checkpoint} (task '${task}'). Run /checkpoint --restore to resume from it.`,
      };
    }
    return {
      kind: "other-restore",
      checkpoint,
      sentinel: s.file,
      text:
        `[quoin-checkpoint] Another session (${s.sid}) left a checkpoint waiting: ${checkpoint} (task '${task}'). ` +
        "It belongs to that session, not this one. Run /checkpoint --restore to pick it up, or ignore it.",
    };
  }
  for (const s of sentinelsOf(listing, "pending-resume-ref")) {
    const kv = parseKeyValues(readSentinelHead(deps, s.file) ?? "");
    const checkpoint = trustedCheckpoint(deps, paths, kv["checkpoint_path"]);
    const prior = checkSessionId(kv["prior_session_uuid"]);
    if (!checkpoint || !prior.ok) continue;
    return {
      kind: "reference",
      checkpoint,
      sentinel: s.file,
      text:
        `[quoin-checkpoint] Reference checkpoint from session ${prior.id}: ${checkpoint} (task '${taskOf(checkpoint)}'). ` +
        "Treat it as read-only background; open it only if the user's work needs it.",
    };
  }
  for (const s of sentinelsOf(listing, "mid-agent-handoff")) {
    const kv = parseKeyValues(readSentinelHead(deps, s.file) ?? "");
    const prior = checkSessionId(kv["prior_session_uuid"]);
    if (!prior.ok) continue;
    const skills = handoffSkills(kv["active_skills"]);
    return {
      kind: "mid-agent",
      checkpoint: null,
      sentinel: s.file,
      text:
        `[quoin-checkpoint] Mid-agent handoff from session ${prior.id}: task '${reduceTaskName(kv["task_name"])}', skills active then: ${skills}. ` +
        "Run /checkpoint --restore to reload it.",
    };
  }
  return null;
}
