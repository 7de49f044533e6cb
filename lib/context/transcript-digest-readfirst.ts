import type { ReadFirstValue, ReadFirstWhy } from "../store/checkpoint-lessons.ts";
import type { WorkingFile } from "./transcript-digest-files.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";

// The files a fresh session reads first, in order: the files of the work in progress (changed
// since the session's last commit, or since the item in progress was claimed, whichever is later),
// then the files read during that work (what the edits were made against), then the files left
// uncommitted from earlier work (edited before the item in progress began), then the files changed
// for finished, committed work, then the other files read. The save puts the uncommitted files git
// reports in front (it alone asks git).

/** A `## Read first` row: the format's own type (the checkpoint stores exactly this). */
export type ReadFirstFile = ReadFirstValue;

const after = (at: string | null, start: string | null) =>
  start === null || (at !== null && at >= start);

/** The ordered list from the working set (each newest first) and when the work in progress began. */
export function readFirstOf(
  changed: readonly WorkingFile[],
  read: readonly WorkingFile[],
  changedAfterCommit: readonly string[],
  workStart: string | null,
): ReadFirstFile[] {
  const out: ReadFirstFile[] = [];
  const seen = new Set<string>();
  const add = (path: string, why: ReadFirstWhy) => {
    if (seen.has(path) || out.length >= TEXT_LIMITS.digest.readFirst) return;
    seen.add(path);
    out.push({ path, why });
  };
  const afterCommit = new Set(changedAfterCommit);
  // in progress: edited since the work began (the last commit, claim or close); a file left
  // uncommitted but last edited before that belongs to an item finished earlier
  for (const f of changed) if (after(f.lastAt, workStart)) add(f.path, "in progress");
  for (const f of read) if (after(f.lastAt, workStart)) add(f.path, "read for it");
  for (const f of changed) if (afterCommit.has(f.path)) add(f.path, "edited earlier this session");
  for (const f of changed) add(f.path, "committed");
  for (const f of read) add(f.path, "read");
  return out;
}
