import * as path from "node:path";
import { sentinelTarget, checkpointIndex } from "./restore-candidates.ts";
import type { MemoryListing } from "./memory-listing.ts";
import { numberedList } from "./restore-picker.ts";
import { defaultPickerSettings, type PickerSettings } from "./picker-decision.ts";
import type { DamageKind } from "./checkpoint-damage.ts";
import { isInsideCheckpoints } from "../store/memory-paths.ts";
import { formatDuration } from "../core/time-format.ts";

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
  /** the model's intent, else the newest request (the `intent` section) */
  intent: string | null;
  /** the model's in-progress line or work item in progress, when the head holds it */
  working?: string;
  /** the newest of the model's last words, when the head holds it */
  lastWord?: string;
  /** why it cannot be restored as a checkpoint */
  damage?: DamageKind;
  /** `## Status`, first line (what kind of save it is) */
  status?: string;
}

/**
 * Every checkpoint on disk, numbered as `restore --pick` takes them: the picker's candidates in
 * its order, then the files it does not offer by itself (older, a twin), newest first.
 */
export function listCheckpoints(snap: MemoryListing, s: PickerSettings): CheckpointRow[] {
  const index = checkpointIndex(snap);
  const backed = new Map<string, string[]>();
  for (const sentinel of snap.pendingRestores) {
    const target = sentinelTarget(snap, index, sentinel);
    if (target)
      backed.set(path.resolve(target.path), [
        ...(backed.get(path.resolve(target.path)) ?? []),
        sentinel.path,
      ]);
  }
  return numberedList(snap, s).map((c) => ({
    n: c.n,
    name: c.name,
    file: c.file,
    task: c.task,
    branch: c.branch,
    saved: c.saved,
    age: formatDuration(snap.nowMs - c.mtimeMs),
    size: c.size,
    sentinels: backed.get(path.resolve(c.file)) ?? [],
    legacy: !c.damage && c.sessionId === undefined,
    sessionId: c.sessionId ?? null,
    intent: c.intent ?? null,
    ...(c.working ? { working: c.working } : {}),
    ...(c.lastWord ? { lastWord: c.lastWord } : {}),
    ...(c.damage ? { damage: c.damage } : {}),
    ...(c.status ? { status: c.status } : {}),
  }));
}

/**
 * `show <file>`: a number from `list`, a file name, or a path; only files directly inside this
 * project's checkpoints/ folder are shown.
 */
export function resolveShowTarget(
  snap: MemoryListing,
  arg: string,
  s: PickerSettings = defaultPickerSettings(),
): { ok: true; file: string } | { ok: false; reason: string } {
  const rows = listCheckpoints(snap, s);
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
