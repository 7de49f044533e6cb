import type { ParsedCheckpoint } from "../../store/checkpoint-parse.ts";

// The order a resumed session reads the saved session's files in: the uncommitted files first (the
// file in progress, then the most edited: a file changed eleven times is the work's centre even
// when it was not the last one touched), then the rest of the checkpoint's `## Read first` (files
// of the work in progress, then what was read for it), then the other changed files (committed
// work), then the files only read. Project paths, each once.

/** The two newest changed files come first: the edit in progress. */
const NEWEST_FIRST = 2;

export interface ReadOrderFile {
  path: string;
  /** how many times the session changed it (0: only read, or not in the working set) */
  count: number;
}

/** Uncommitted files in reading order: the two newest changed, then the most edited. */
export function uncommittedOrder<T extends { path: string }>(
  uncommitted: readonly T[],
  changed: readonly { path: string; count: number }[],
): T[] {
  const count = new Map(changed.map((f) => [f.path, f.count]));
  const newest = new Map(changed.map((f, i) => [f.path, i]));
  const rank = (path: string) => newest.get(path) ?? Number.POSITIVE_INFINITY;
  return [...uncommitted].sort((x, y) => {
    const [a, b] = [x.path, y.path];
    const na = rank(a) < NEWEST_FIRST;
    const nb = rank(b) < NEWEST_FIRST;
    if (na !== nb) return na ? -1 : 1;
    if (na) return rank(a) - rank(b);
    return (count.get(b) ?? 0) - (count.get(a) ?? 0) || rank(a) - rank(b);
  });
}

export function readOrder(p: ParsedCheckpoint): ReadOrderFile[] {
  const d = p.digest;
  const count = new Map(d.changed.map((f) => [f.path, f.count]));
  const uncommitted = uncommittedOrder(p.uncommitted ?? [], d.changed).map((u) => u.path);
  const readFirst = p.values.readFirst?.items ?? [];
  const out: ReadOrderFile[] = [];
  const seen = new Set<string>();
  const add = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push({ path, count: count.get(path) ?? 0 });
  };
  for (const f of uncommitted) add(f);
  for (const f of readFirst) if (f.why !== "committed" && f.why !== "read") add(f.path);
  // what was read right before the last edits: the newest reads, when ## Read first was cut
  for (const f of d.read.slice(0, NEWEST_FIRST)) add(f.path);
  for (const f of readFirst) add(f.path);
  for (const f of d.changed) add(f.path);
  for (const f of d.read) add(f.path);
  return out;
}
