import * as path from "node:path";
import type { Deps } from "./deps.ts";
import { parseCheckpointName } from "./checkpoint-names.ts";
import { readHead } from "./file-range.ts";
import { checkSessionId, reduceTaskName } from "./ids.ts";
import { isInsideCheckpoints, type MemoryPaths } from "./memory-paths.ts";
import { listSentinelFiles, type SentinelFile } from "./sentinel-listing.ts";
import { parseKeyValues, sentinelPath, type SentinelFamily } from "./sentinels.ts";

export type BannerKind = "own-restore" | "other-restore" | "reference" | "mid-agent";

export interface Banner {
  kind: BannerKind;
  text: string;
  checkpoint: string | null;
  sentinel: string;
}

const SAFE_FILE = /^[A-Za-z0-9._-]{1,200}\.md$/;

const SENTINEL_HEAD_BYTES = 4096;

/** A sentinel's first 4 KB: all any sentinel needs. */
function readSmall(deps: Deps, file: string): string | null {
  return readHead(deps.fs, file, SENTINEL_HEAD_BYTES);
}

/**
 * A path read from a sentinel is used only if it resolves inside this project's checkpoints/
 * folder, has a plain file name (no text that could pass for an instruction), and exists.
 */
export function trustedCheckpoint(deps: Deps, paths: MemoryPaths, candidate: string | undefined): string | null {
  if (!candidate) return null;
  const p = candidate.trim();
  if (!isInsideCheckpoints(paths, p) || !SAFE_FILE.test(path.basename(p))) return null;
  return deps.fs.existsSync(p) ? path.resolve(p) : null;
}

/**
 * This session's pending-restore sentinel, if any, and the checkpoint it names when that one is
 * trusted and still there (null otherwise: a sentinel naming nothing holds no place).
 */
export function ownPendingRestore(deps: Deps, paths: MemoryPaths, sid: string): { sentinel: string; checkpoint: string | null } | null {
  const sentinel = sentinelPath(paths.memory, "pending-restore", sid);
  if (!deps.fs.existsSync(sentinel)) return null;
  return { sentinel, checkpoint: trustedCheckpoint(deps, paths, readSmall(deps, sentinel)?.split("\n")[0]) };
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
    const checkpoint = trustedCheckpoint(deps, paths, readSmall(deps, s.file)?.split("\n")[0]);
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
    const kv = parseKeyValues(readSmall(deps, s.file) ?? "");
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
    const kv = parseKeyValues(readSmall(deps, s.file) ?? "");
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
