import type { ParsedCheckpoint } from "../../store/checkpoint-parse.ts";

// The order a resumed session reads the saved session's files in: the files of the item in
// progress (uncommitted, edited since it began), then the files the model's own plan names (its
// last words, in-progress text and next steps: `app.js`, `SessionLive` for session_live.ex),
// then the other uncommitted files (the most edited first: a file changed eleven times is the
// work's centre), then the rest of the checkpoint's `## Read first` (what was read for the work),
// then the other changed files (committed work), then the files only read. Project paths, once.

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

/** `SessionLive` -> `session_live`: a module name as its file's stem. */
const snake = (w: string) => w.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const stemOf = (p: string) => (p.split("/").pop() ?? p).replace(/\.[^.]*$/, "").toLowerCase();
const baseOf = (p: string) => (p.split("/").pop() ?? p).toLowerCase();

/**
 * The paths among these that the text names, in the order it names them: by file name
 * (`app.js`, `spotter.css`) or by a CamelCase name that is the file's stem, in snake case
 * (`TranscriptComputers`: transcript_computers.ex) or as is (`WidgetList`: WidgetList.tsx); a
 * single capitalised word (`Update`) names nothing. A name shared by two files names both.
 */
export function namedIn(text: string, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9_][\w.-]*[A-Za-z0-9]/g)) {
    const w = m[0];
    const base = w.toLowerCase();
    const camel = /^[A-Z][a-z0-9]+[A-Z]/.test(w);
    const named = (p: string) =>
      baseOf(p) === base || (camel && (stemOf(p) === snake(w) || stemOf(p) === base));
    for (const p of paths) if (!out.includes(p) && named(p)) out.push(p);
  }
  return out;
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
  const uncommitted = uncommittedOrder(p.uncommitted ?? [], d.changed);
  const inProgress = readFirst.filter((f) => f.why === "in progress").map((f) => f.path);
  // the item's own files: as ## Read first says, else (older checkpoints) the two newest changed
  for (const f of uncommitted.slice(0, inProgress.length ? uncommitted.length : NEWEST_FIRST))
    if (!inProgress.length || inProgress.includes(f.path)) add(f.path);
  for (const f of inProgress) add(f);
  const plan = [
    ...(d.lastWords ?? []).map((w) => w.text),
    p.inProgress ?? "",
    ...p.nextUp.map((n) => n.item),
  ].join("\n");
  const known = [...uncommitted.map((f) => f.path), ...readFirst.map((f) => f.path)];
  for (const f of [...d.changed, ...d.read]) known.push(f.path);
  for (const f of namedIn(plan, [...new Set(known)])) add(f);
  for (const f of uncommitted) add(f.path);
  for (const f of readFirst) if (f.why !== "committed" && f.why !== "read") add(f.path);
  // what was read right before the last edits: the newest reads, when ## Read first was cut
  for (const f of [...d.read.slice(0, NEWEST_FIRST), ...readFirst, ...d.changed, ...d.read])
    add(f.path);
  return out;
}
