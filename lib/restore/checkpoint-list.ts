import * as path from "node:path";
import { titleOf } from "../store/checkpoint-sections.ts";
import { savedLabel, sentinelTarget, checkpointIndex } from "./restore-candidates.ts";
import { MIN_CHECKPOINT_BYTES, type MemoryListing } from "./memory-listing.ts";
import { isInsideCheckpoints } from "../store/memory-paths.ts";
import { formatDuration } from "../core/time-format.ts";
import { compareNames } from "../core/dir-listing.ts";

/** One row of `list`: every checkpoint on disk, newest first, for a person at a terminal. */
export interface CheckpointRow {
  n: number;
  name: string;
  file: string;
  task: string;
  branch: string;
  saved: string;
  age: string;
  size: number;
  /** pending-restore sentinels naming it */
  sentinels: string[];
  legacy: boolean;
  sessionId: string | null;
  /** the model's intent, else the newest request (the intent section (key intent)) */
  intent: string | null;
}

export function listCheckpoints(snap: MemoryListing): CheckpointRow[] {
  const index = checkpointIndex(snap);
  const backed = new Map<string, string[]>();
  for (const s of snap.pendingRestores) {
    const target = sentinelTarget(snap, index, s);
    if (target)
      backed.set(path.resolve(target.path), [
        ...(backed.get(path.resolve(target.path)) ?? []),
        s.path,
      ]);
  }
  return [...snap.checkpoints]
    .sort((a, b) => b.mtimeMs - a.mtimeMs || compareNames(b.name, a.name))
    .map((c, i) => {
      const f = c.fields ?? {};
      return {
        n: i + 1,
        name: c.name,
        file: c.path,
        task:
          f.task ??
          (c.size < MIN_CHECKPOINT_BYTES ? "(under 100 bytes)" : `(no ${titleOf("task")})`),
        branch: f.branch ?? "(unknown)",
        saved: savedLabel(c.name, c.mtimeMs),
        age: formatDuration(snap.nowMs - c.mtimeMs),
        size: c.size,
        sentinels: backed.get(path.resolve(c.path)) ?? [],
        legacy: c.fields !== undefined && f.sessionId === undefined,
        sessionId: f.sessionId ?? null,
        intent: f.intent ?? null,
      };
    });
}

/**
 * `show <file>`: a number from `list`, a file name, or a path; only files directly inside this
 * project's checkpoints/ folder are shown.
 */
export function resolveShowTarget(
  snap: MemoryListing,
  arg: string,
): { ok: true; file: string } | { ok: false; reason: string } {
  const rows = listCheckpoints(snap);
  if (/^\d+$/.test(arg)) {
    const row = rows[Number(arg) - 1];
    return row
      ? { ok: true, file: row.file }
      : {
          ok: false,
          reason: `no checkpoint number ${arg}; expected 1 to ${rows.length} (see list)`,
        };
  }
  const candidate = path.isAbsolute(arg)
    ? arg
    : path.join(snap.paths.checkpoints, path.basename(arg));
  if (!isInsideCheckpoints(snap.paths, candidate))
    return { ok: false, reason: `${arg}: expected a checkpoint inside ${snap.paths.checkpoints}` };
  const found = rows.find((r) => path.resolve(r.file) === path.resolve(candidate));
  return found
    ? { ok: true, file: found.file }
    : { ok: false, reason: `${arg}: no such checkpoint in ${snap.paths.checkpoints}` };
}
