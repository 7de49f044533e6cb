// `git status --porcelain` as a restore brief carries it: counts by kind, and at most a few entries,
// the checkpoint's working set first. Pure; a repository with 7,000 untracked paths costs one line.

import { statusKind as kindOfXY, statusPath, type StatusKind } from "../core/git-parse.ts";

export const STATUS_ENTRIES = 20;

export type { StatusKind };

/** The kind of one porcelain v1 line (`XY path`), by lib/core's one classifier. */
export function statusKind(line: string): StatusKind {
  return kindOfXY(line.slice(0, 2));
}

export interface StatusSummary {
  total: number;
  /** kind -> count, only kinds present, in a fixed order */
  counts: Partial<Record<StatusKind, number>>;
  /** at most STATUS_ENTRIES porcelain lines: the working set's, then those changed since the save */
  entries: string[];
}

const ORDER: StatusKind[] = [
  "modified",
  "added",
  "deleted",
  "renamed",
  "copied",
  "conflicted",
  "untracked",
  "ignored",
];

/** Counts by kind and the first entries, the working set's (project-relative paths) first. */
export function summarizeStatus(
  lines: readonly string[],
  workingSet: ReadonlySet<string>,
  max = STATUS_ENTRIES,
  /** an entry outside the working set is shown only when this says it changed since the save */
  changedSinceSave: (relPath: string) => boolean = () => true,
): StatusSummary {
  const tally = new Map<StatusKind, number>();
  for (const l of lines) tally.set(statusKind(l), (tally.get(statusKind(l)) ?? 0) + 1);
  const counts: Partial<Record<StatusKind, number>> = {};
  for (const k of ORDER) if (tally.has(k)) counts[k] = tally.get(k)!;
  const mine = lines.filter((l) => inSet(statusPath(l), workingSet));
  const rest = lines.filter(
    (l) => !inSet(statusPath(l), workingSet) && changedSinceSave(statusPath(l)),
  );
  return { total: lines.length, counts, entries: [...mine, ...rest].slice(0, max) };
}

function inSet(p: string, set: ReadonlySet<string>): boolean {
  if (set.has(p)) return true;
  // an untracked folder (`?? docs/`) holds every working-set file under it
  if (p.endsWith("/")) for (const s of set) if (s.startsWith(p)) return true;
  return false;
}

/** Whether a project-relative path shows in git status now (itself, or under an untracked folder). */
export function isDirtyNow(file: string, lines: readonly string[]): boolean {
  return lines.some((l) => {
    const p = statusPath(l);
    return p === file || (p.endsWith("/") && file.startsWith(p));
  });
}

/** `7012 changed path(s): 12 modified, 7000 untracked`, or `clean`. */
export function statusCountsLine(s: Pick<StatusSummary, "total" | "counts">): string {
  if (s.total === 0) return "clean";
  const parts = Object.entries(s.counts).map(([k, n]) => `${n} ${k}`);
  return `${s.total} changed path(s): ${parts.join(", ")}`;
}
