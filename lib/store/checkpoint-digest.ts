import type { Section } from "../core/markdown-sections.ts";
import { oneLine } from "../core/text-cut.ts";
import { moreLines } from "../core/text-list.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";
import { FLOOR } from "./checkpoint-budget.ts";
import { failureLine, fileLine, requestLine, todoLine } from "./checkpoint-digest-lines.ts";
import { wordLine } from "./checkpoint-lines.ts";
import { SECTIONS } from "./checkpoint-sections.ts";
import type {
  CheckpointValues,
  DigestFailure,
  DigestFile,
  DigestTodo,
  LabelledRequest,
  LastWord,
  SectionValues,
} from "./checkpoint-values.ts";
import {
  fixedLine,
  openLine,
  readFirstLine,
  storedFix,
  storedReadFirst,
  storedWorkItems,
  type FixedValue,
  type ReadFirstValue,
  type WorkItemsValue,
} from "./checkpoint-lessons.ts";

// The transcript digest as a checkpoint holds it: the sections keyed lastWords, progress,
// requests, todos, workingSet, failures, compactionSummary and transcriptDigest, fitted into the
// room the checkpoint leaves. lib/context/transcript-digest.ts's TranscriptDigest extends the
// shape below, so a digest passes as is while this store module imports nothing above its rank.

export interface CheckpointRequest {
  text: string;
  at: string | null;
}

export interface CheckpointDigest {
  firstRequest: CheckpointRequest | null;
  /** the newest few, oldest first */
  requests: readonly CheckpointRequest[];
  requestCount: number;
  /** newest first */
  changed: readonly DigestFile[];
  /** newest first */
  read: readonly DigestFile[];
  todos: readonly DigestTodo[] | null;
  failures: readonly DigestFailure[];
  /** the model's newest text replies, newest last (absent in older digests) */
  lastWords?: readonly LastWord[];
  /** what the model said it finished, older than the last words, and tracker items it closed */
  progress?: readonly LastWord[];
  summary: { transcript: string; uuid: string } | null;
  truncated: boolean;
  /** the item in progress and the open items (absent in older digests) */
  work?: WorkItemsValue;
  /** failures a later run settled, newest first */
  fixed?: readonly FixedValue[];
  /** the files to read first, in order */
  readFirst?: readonly ReadFirstValue[];
  /** one line when the last edits were not followed by a build, test or lint run */
  unverified?: string | null;
  /** how many tracker items the session closed (`bd close X`, `gh issue close N`) */
  closedItems?: number;
}

/** What a checkpoint's digest sections read back as (counts of what did not fit included). */
export interface ParsedDigest {
  requests: LabelledRequest[];
  requestCount: number | null;
  todos: DigestTodo[] | null;
  changed: DigestFile[];
  read: DigestFile[];
  failures: DigestFailure[];
  /** null when the checkpoint has no last-words section */
  lastWords: LastWord[] | null;
  /** null when the checkpoint has no progress section */
  progress: LastWord[] | null;
  summary: { transcript: string; uuid: string } | null;
  truncated: boolean;
  /** "+12 more read files" and the like, as written */
  omitted: string[];
}

const LIMIT = TEXT_LIMITS.checkpointDigest;

/** `2026-12-01T10:04Z` from an ISO time; null when none. */
function minuteOf(at: string | null): string | null {
  if (!at) return null;
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? null : `${d.toISOString().slice(0, 16)}Z`;
}

/** The model's words as a checkpoint keeps them: to the minute, one line of at most 800 characters. */
export const storedWord = (w: LastWord): LastWord => ({
  at: minuteOf(w.at),
  text: oneLine(w.text, TEXT_LIMITS.savedWordChars),
});

type Label = "first" | "earlier" | "newest";
const storedRequest = (r: CheckpointRequest, label: Label): LabelledRequest => ({
  label,
  at: r.at ? oneLine(r.at, 40) : null,
  text: oneLine(r.text, FLOOR.requestChars),
});

type Kind =
  | "todos"
  | "requests"
  | "progress lines"
  | "changed files"
  | "read files"
  | "failures"
  | "open items"
  | "work description"
  | "fixes"
  | "files to read";
interface Item<T = unknown> {
  kind: Kind;
  /**
   * the handover's own lines (the work items, what closed items did, the files of the work in
   * progress, the fixes): they may take the checkpoint past the 4 KB soft cap, up to the 6 KB
   * hard cap, paid from that extra room first
   */
  handover?: boolean;
  /** position in its section */
  order: number;
  line: string;
  value: T;
}

/** The requests to show: the first, then the newest few (the newest last), without repeats. */
function requestItems(d: CheckpointDigest): {
  first: Item | null;
  newest: Item | null;
  middle: Item[];
} {
  const seen = new Set<string>();
  const key = (r: CheckpointRequest) => `${r.at ?? ""}\u0000${r.text}`;
  const first = d.firstRequest;
  if (first) seen.add(key(first));
  const rest = d.requests.filter((r) => !seen.has(key(r)));
  const item = (r: CheckpointRequest, label: Label, order: number): Item => {
    const value = storedRequest(r, label);
    return { kind: "requests", order, line: requestLine(value), value };
  };
  const newestReq = rest.at(-1) ?? null;
  return {
    first: first ? item(first, "first", 0) : null,
    newest: newestReq ? item(newestReq, "newest", 1000) : null,
    middle: rest.slice(0, -1).map((r, i) => item(r, "earlier", i + 1)),
  };
}

function items<T>(kind: Kind, values: readonly T[], line: (v: T) => string): Item<T>[] {
  return values.map((value, order) => ({ kind, order, line: line(value), value }));
}

/** Items in priority order: todos and the newest request, changed files, read files, the rest. */
function prioritized(d: CheckpointDigest): Item[] {
  const req = requestItems(d);
  const todos = (d.todos ?? []).map((t) => ({
    ...t,
    content: oneLine(t.content, LIMIT.todoChars),
  }));
  const file = (f: DigestFile) => ({ ...f, path: oneLine(f.path, 300) });
  const progress = (d.progress ?? []).map(storedWord);
  const failures = d.failures.map((f) => ({
    command: oneLine(f.command, LIMIT.commandChars).replace(/`/g, "'"),
    at: f.at ? oneLine(f.at, 40) : null,
    error: oneLine(f.error, LIMIT.errorChars),
  }));
  const work = d.work ? storedWorkItems(d.work) : null;
  const readFirst = items("files to read", (d.readFirst ?? []).map(storedReadFirst), readFirstLine);
  // the files of the work in progress (and what was read for it) before the committed ones; all
  // of them are in the working set too, which keeps its place: the order is what this adds (and
  // the restore orders its files to re-read from the uncommitted files and the working set alone)
  const wip = readFirst.filter(
    (i) => i.value.why === "in progress" || i.value.why === "read for it",
  );
  const handover = <T>(list: Item<T>[]) => list.map((i) => ({ ...i, handover: true }));
  // a tracker's close (`$ bd close X --reason=...`) says what a finished item did
  const progressItems = items("progress lines", progress, wordLine).map((i) =>
    i.value.text.startsWith("$ ") ? { ...i, handover: true } : i,
  );
  return [
    ...items("todos", todos, todoLine),
    ...(req.newest ? [req.newest] : []),
    // newest first: an older report goes before a newer one when room runs out
    ...progressItems.reverse(),
    ...handover(
      items(
        "work description",
        work?.current?.text ? [work.current.text] : [],
        (t) => `- description: ${t}`,
      ),
    ),
    ...handover(
      items(
        "open items",
        (work?.open ?? []).filter((i) => !work?.current || i.id !== work.current.id),
        openLine,
      ),
    ),
    ...items("changed files", d.changed.map(file), fileLine),
    ...items("read files", d.read.map(file), fileLine),
    ...wip,
    ...handover(items("fixes", (d.fixed ?? []).map(storedFix), fixedLine)),
    ...(req.first ? [req.first] : []),
    ...[...req.middle].reverse(),
    ...items("failures", failures, failureLine).reverse(),
    ...readFirst.filter((i) => !wip.includes(i)),
  ];
}

const bytes = (s: string) => Buffer.byteLength(s);

/** The floor (checkpoint-budget.ts): kept whatever else the checkpoint holds. */
function inFloor(item: Item, failures: number): boolean {
  if (item.kind === "requests") return item.order === 0 || item.order === 1000;
  if (item.kind === "todos") return item.order < FLOOR.todos;
  if (item.kind === "changed files") return item.order < FLOOR.changedFiles;
  if (item.kind === "read files") return item.order < FLOOR.readFiles;
  if (item.kind === "fixes") return item.order < FLOOR.fixes;
  if (item.kind === "files to read") return item.order < FLOOR.readFirst;
  if (item.kind === "open items" || item.kind === "work description") return false;
  // the model's reports are floor (progressOf bounds them); a tracker's close is a handover line
  if (item.kind === "progress lines") return !item.handover;
  return item.order >= failures - FLOOR.failures;
}
/** Room kept for the "+N more ..." lines and section headings. */
const OVERHEAD_BYTES = 360;

/**
 * Items taken in priority order while they fit in `budgetBytes`, the floor always; the rest
 * counted by kind. The handover's own lines may also use `extraBytes` (the room between the soft
 * and the hard cap), paid from it first; `extraUsed` is what they took of it.
 */
function fitItems(d: CheckpointDigest, budgetBytes: number, extraBytes: number) {
  let room = budgetBytes - OVERHEAD_BYTES;
  // the item in progress (two lines), the state of the last edit and their heading are always
  // kept, and are the handover's: they are paid from the extra room first
  const current = d.work?.current ? storedWorkItems(d.work).current : null;
  const always =
    (d.unverified ? bytes(d.unverified) + 10 : 0) +
    (current ? bytes(current.id + current.title + current.how) + 35 : 0) +
    (d.unverified || current ? 16 : 0);
  let extra = extraBytes - Math.min(extraBytes, always);
  const kept: Item[] = [];
  const omitted = new Map<Kind, number>();
  const all = prioritized(d);
  // The floor is paid for first, so that no item outside it takes its room: the last words, then
  // the floor's items.
  for (const w of d.lastWords ?? []) room -= bytes(wordLine(storedWord(w))) + 1;
  for (const item of all) if (inFloor(item, d.failures.length)) room -= bytes(item.line) + 1;
  for (const item of all) {
    const cost = bytes(item.line) + 1;
    if (inFloor(item, d.failures.length)) kept.push(item);
    else if (item.handover && cost <= extra + Math.max(0, room)) {
      // (room may be -Infinity: the handover's lines alone, in `extra`)
      kept.push(item);
      const fromExtra = Math.min(cost, extra);
      extra -= fromExtra;
      if (cost > fromExtra) room -= cost - fromExtra;
    } else if (cost <= room) {
      kept.push(item);
      room -= cost;
    } else omitted.set(item.kind, (omitted.get(item.kind) ?? 0) + 1);
  }
  const of = <T>(kind: Kind): T[] =>
    kept
      .filter((i) => i.kind === kind)
      .sort((a, b) => a.order - b.order)
      .map((i) => i.value as T);
  return { of, more: (kind: Kind) => omitted.get(kind) ?? 0, extraUsed: extraBytes - extra };
}

/**
 * The digest's section values fitted into `budgetBytes`: items are taken in priority order while
 * they fit; what does not fit is counted ("+12 more read files"), never dropped silently. The
 * floor (checkpoint-budget.ts: the first and newest requests, the last words, 12 todos, 8 changed
 * and 5 read files, the 3 newest failures) is always kept, whatever the budget. The handover's
 * own lines may also take `extraBytes` (digestFit says how much they took).
 */
export function digestValues(
  d: CheckpointDigest | null | undefined,
  budgetBytes: number,
  extraBytes = 0,
): CheckpointValues {
  return digestFit(d, budgetBytes, extraBytes).values;
}

/** digestValues, and how much of `extraBytes` the handover's lines took. */
export function digestFit(
  d: CheckpointDigest | null | undefined,
  budgetBytes: number,
  extraBytes: number,
): { values: CheckpointValues; extraUsed: number } {
  const v: CheckpointValues = {};
  if (!d) return { values: v, extraUsed: 0 };
  const { of, more, extraUsed } = fitItems(d, budgetBytes, extraBytes);
  if (d.lastWords?.length) v.lastWords = d.lastWords.map(storedWord);
  const progress = of<LastWord>("progress lines");
  if (progress.length) v.progress = { items: progress, more: more("progress lines") };
  const requests = of<LabelledRequest>("requests");
  if (d.requestCount > 0 || requests.length) {
    const notShown = Math.max(more("requests"), d.requestCount - requests.length);
    v.requests =
      notShown > 0
        ? { items: requests, more: notShown, count: d.requestCount }
        : { items: requests, more: 0, count: requests.length };
  }
  if (d.todos !== null) v.todos = { items: of<DigestTodo>("todos"), more: more("todos") };
  if (d.changed.length || d.read.length)
    v.workingSet = {
      changed: of<DigestFile>("changed files"),
      changedMore: more("changed files"),
      read: of<DigestFile>("read files"),
      readMore: more("read files"),
    };
  if (d.failures.length)
    v.failures = { items: of<DigestFailure>("failures"), more: more("failures") };
  // each only when something of it fits (a lone "+N more" line would only take room)
  const open = of<{ id: string; title: string }>("open items");
  if (d.work?.current || open.length || d.unverified)
    v.workItems = {
      current: d.work?.current
        ? {
            ...storedWorkItems(d.work).current!,
            text: of<string>("work description")[0] ?? null,
          }
        : null,
      open,
      ...(d.unverified
        ? {
            unverified: storedWorkItems({ current: null, open: [], unverified: d.unverified })
              .unverified,
          }
        : {}),
      more: more("open items"),
    };
  const fixes = of<FixedValue>("fixes");
  if (fixes.length) v.fixedAlongTheWay = { items: fixes, more: more("fixes") };
  // an ordered list: only its head is kept, never a later file in place of an earlier one
  const all = d.readFirst?.map(storedReadFirst) ?? [];
  const kept = of<ReadFirstValue>("files to read");
  let head = 0;
  while (head < kept.length && kept.some((k) => k.path === all[head]?.path)) head += 1;
  const rest = all.slice(head);
  const moreRead = rest.filter((f) => f.why === "read" || f.why === "read for it").length;
  if (head) v.readFirst = { items: all.slice(0, head), more: rest.length, moreRead };
  if (d.summary)
    v.compactionSummary = {
      transcript: oneLine(d.summary.transcript, 400),
      uuid: oneLine(d.summary.uuid, 80),
    };
  if (d.truncated) v.transcriptDigest = true;
  return { values: v, extraUsed };
}

/** The digest's sections (digestValues through the section table), in the checkpoint's order. */
export function digestSections(
  d: CheckpointDigest | null | undefined,
  budgetBytes: number,
): Section[] {
  const v = digestValues(d, budgetBytes) as Record<string, unknown>;
  return (Object.keys(SECTIONS) as (keyof SectionValues)[])
    .filter((k) => v[k] !== undefined)
    .map((k) => ({
      title: SECTIONS[k].title,
      body: (SECTIONS[k].render as (x: unknown) => string)(v[k]),
    }));
}

/** The digest a checkpoint's values hold; absent sections are empty. */
export function parsedDigest(v: CheckpointValues): ParsedDigest {
  const req = v.requests;
  const ws = v.workingSet;
  return {
    requests: req?.items ?? [],
    requestCount: req ? (req.more > 0 ? req.count : req.items.length || null) : null,
    todos: v.todos?.items ?? null,
    changed: ws?.changed ?? [],
    read: ws?.read ?? [],
    failures: v.failures?.items ?? [],
    lastWords: v.lastWords ?? null,
    progress: v.progress?.items ?? null,
    summary:
      v.compactionSummary?.transcript && v.compactionSummary.uuid ? v.compactionSummary : null,
    truncated: v.transcriptDigest === true,
    omitted: [
      ...(req && req.more > 0
        ? [`+${req.more} more requests (${req.count} typed in the read window)`]
        : []),
      ...moreLines(v.todos?.more ?? 0, "todos"),
      ...moreLines(ws?.changedMore ?? 0, "changed files"),
      ...moreLines(ws?.readMore ?? 0, "read files"),
      ...moreLines(v.failures?.more ?? 0, "failures"),
    ],
  };
}

/** The newest request of a parsed digest (labelled, else the last shown), for a picker row. */
export function newestRequestOf(p: Pick<ParsedDigest, "requests">): string | null {
  return (p.requests.find((r) => r.label === "newest") ?? p.requests.at(-1))?.text ?? null;
}
