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
  const key = (u: T) => {
    const i = changed.findIndex((f) => f.path === u.path);
    const at = i < 0 ? 1e9 : i;
    // the newest two by age; the rest by edits, then age
    return at < NEWEST_FIRST ? at - 1e12 : -(changed[i]?.count ?? 0) * 1e9 + at;
  };
  return [...uncommitted].sort((a, b) => key(a) - key(b));
}

export function readOrder(p: ParsedCheckpoint): ReadOrderFile[] {
  const d = p.digest;
  const count = (path: string) => d.changed.find((f) => f.path === path)?.count ?? 0;
  const out: ReadOrderFile[] = [];
  const seen = new Set<string>();
  const add = (path: string) => {
    if (!seen.has(path)) out.push({ path, count: count(path) });
    seen.add(path);
  };
  const readFirst = p.values.readFirst?.items ?? [];
  for (const f of uncommittedOrder(p.uncommitted ?? [], d.changed)) add(f.path);
  for (const f of readFirst) if (f.why !== "committed" && f.why !== "read") add(f.path);
  // what was read right before the last edits: the newest reads, when ## Read first was cut
  for (const f of [...d.read.slice(0, NEWEST_FIRST), ...readFirst, ...d.changed, ...d.read])
    add(f.path);
  return out;
}
