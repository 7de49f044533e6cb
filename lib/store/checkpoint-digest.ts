import { sanitizeBody, type Section } from "../core/markdown-sections.ts";
import { CHECKPOINT_SOFT_CAP_BYTES, FLOOR } from "./checkpoint-budget.ts";
import { lastWordsBody, parseLastWords, type CheckpointWord } from "./checkpoint-handover.ts";

// The transcript digest as a checkpoint holds it: the sections `## Requests`, `## Todos`,
// `## Working set`, `## Recent failures`, `## Compaction summary` and `## Transcript digest`.
// Seed-format readers skip them (they read sections by title). The shapes are the structural
// subset of lib/context/transcript-digest.ts's TranscriptDigest that a checkpoint keeps, so a
// digest passes as is while this store module imports nothing above its rank.

export { CHECKPOINT_SOFT_CAP_BYTES };

export interface CheckpointRequest {
  text: string;
  at: string | null;
}
export interface CheckpointFile {
  path: string;
  count: number;
}
export interface CheckpointTodo {
  content: string;
  status: "pending" | "in_progress" | "completed";
}
export interface CheckpointFailure {
  command: string;
  error: string;
  at: string | null;
}
export interface CheckpointDigest {
  firstRequest: CheckpointRequest | null;
  /** the newest few, oldest first */
  requests: readonly CheckpointRequest[];
  requestCount: number;
  /** newest first */
  changed: readonly CheckpointFile[];
  /** newest first */
  read: readonly CheckpointFile[];
  todos: readonly CheckpointTodo[] | null;
  failures: readonly CheckpointFailure[];
  /** the model's newest text replies, newest last (absent in older digests) */
  lastWords?: readonly CheckpointWord[];
  /** what the model said it finished, older than the last words, and tracker items it closed */
  progress?: readonly CheckpointWord[];
  summary: { transcript: string; uuid: string } | null;
  truncated: boolean;
}

/** What a checkpoint's digest sections parse back to (counts of what did not fit included). */
export interface ParsedDigest {
  requests: { text: string; at: string | null; label: "first" | "earlier" | "newest" | null }[];
  requestCount: number | null;
  todos: CheckpointTodo[] | null;
  changed: CheckpointFile[];
  read: CheckpointFile[];
  failures: CheckpointFailure[];
  /** null when the checkpoint has no `## Last words` */
  lastWords: CheckpointWord[] | null;
  /** null when the checkpoint has no `## Progress` */
  progress: CheckpointWord[] | null;
  summary: { transcript: string; uuid: string } | null;
  truncated: boolean;
  /** "+12 more read files" and the like, as written */
  omitted: string[];
}

const TODO_CHARS = 160;
const COMMAND_CHARS = 120;
const ERROR_CHARS = 160;
const TODO_MARK = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;

/** One line of text: whitespace runs become one space, sanitized, cut with "...". */
export function oneLine(text: string, max: number): string {
  const flat = sanitizeBody(text.replace(/\s+/g, " "));
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 3)).trimEnd()}...`;
}

type RequestLabel = "first" | "earlier" | "newest";

function requestLine(r: CheckpointRequest, label: RequestLabel): string {
  return `- ${label}${r.at ? ` (${oneLine(r.at, 40)})` : ""}: ${oneLine(r.text, FLOOR.requestChars)}`;
}

const todoLine = (t: CheckpointTodo) =>
  `- ${TODO_MARK[t.status]} ${oneLine(t.content, TODO_CHARS)}`;
const fileLine = (f: CheckpointFile) =>
  `- ${oneLine(f.path, 300)}${f.count > 1 ? ` (x${f.count})` : ""}`;
const failureLine = (f: CheckpointFailure) =>
  `- \`${oneLine(f.command, COMMAND_CHARS).replace(/`/g, "'")}\`${f.at ? ` (${oneLine(f.at, 40)})` : ""}: ${oneLine(f.error, ERROR_CHARS)}`;

type Kind = "todos" | "requests" | "progress lines" | "changed files" | "read files" | "failures";
interface Item {
  kind: Kind;
  /** position in its section */
  order: number;
  line: string;
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
  const newestReq = rest.at(-1) ?? null;
  const middle = rest
    .slice(0, -1)
    .map((r, i) => ({ kind: "requests" as const, order: i + 1, line: requestLine(r, "earlier") }));
  return {
    first: first ? { kind: "requests", order: 0, line: requestLine(first, "first") } : null,
    newest: newestReq
      ? { kind: "requests", order: 1000, line: requestLine(newestReq, "newest") }
      : null,
    middle,
  };
}

/** Items in priority order: todos and the newest request, changed files, read files, the rest. */
function prioritized(d: CheckpointDigest): Item[] {
  const req = requestItems(d);
  const todos = (d.todos ?? []).map((t, i) => ({
    kind: "todos" as const,
    order: i,
    line: todoLine(t),
  }));
  return [
    ...todos,
    ...(req.newest ? [req.newest] : []),
    // newest first: an older report goes before a newer one when room runs out
    ...[...(d.progress ?? [])].reverse().map((w, i, all) => ({
      kind: "progress lines" as const,
      order: all.length - i,
      line: lastWordsBody([w]),
    })),
    ...d.changed.map((f, i) => ({ kind: "changed files" as const, order: i, line: fileLine(f) })),
    ...d.read.map((f, i) => ({ kind: "read files" as const, order: i, line: fileLine(f) })),
    ...(req.first ? [req.first] : []),
    ...[...req.middle].reverse(),
    ...[...d.failures].reverse().map((f, i) => ({
      kind: "failures" as const,
      order: d.failures.length - i,
      line: failureLine(f),
    })),
  ];
}

const bytes = (s: string) => Buffer.byteLength(s);

/** The floor (checkpoint-budget.ts): kept whatever else the checkpoint holds. */
function inFloor(item: Item, failures: number): boolean {
  if (item.kind === "requests") return item.order === 0 || item.order === 1000;
  if (item.kind === "todos") return item.order < FLOOR.todos;
  if (item.kind === "changed files") return item.order < FLOOR.changedFiles;
  if (item.kind === "read files") return item.order < FLOOR.readFiles;
  return item.order > failures - FLOOR.failures;
}
/** Room kept for the "+N more ..." lines and section headings. */
const OVERHEAD_BYTES = 360;

/**
 * The digest's sections fitted into `budgetBytes`: items are taken in priority order while they
 * fit; what does not fit is counted ("+12 more read files"), never dropped silently. The floor
 * (checkpoint-budget.ts: the first and newest requests, the last words, 12 todos, 8 changed and 5
 * read files, the 3 newest failures) is always kept, whatever the budget.
 */
export function digestSections(
  d: CheckpointDigest | null | undefined,
  budgetBytes: number,
): Section[] {
  if (!d) return [];
  let room = budgetBytes - OVERHEAD_BYTES;
  const kept: Item[] = [];
  const omitted = new Map<Kind, number>();
  const items = prioritized(d);
  // The floor is paid for first, so that no item outside it takes its room.
  for (const item of items) if (inFloor(item, d.failures.length)) room -= bytes(item.line) + 1;
  for (const item of items) {
    const cost = bytes(item.line) + 1;
    const must = inFloor(item, d.failures.length);
    if (must) kept.push(item);
    else if (cost <= room) {
      kept.push(item);
      room -= cost;
    } else {
      omitted.set(item.kind, (omitted.get(item.kind) ?? 0) + 1);
    }
  }
  const lines = (kind: Kind) =>
    kept
      .filter((i) => i.kind === kind)
      .sort((a, b) => a.order - b.order)
      .map((i) => i.line);
  const more = (kind: Kind) => (omitted.get(kind) ? [`+${omitted.get(kind)} more ${kind}`] : []);
  const sections: Section[] = [];
  if (d.lastWords?.length) sections.push({ title: "Last words", body: lastWordsBody(d.lastWords) });
  const progress = lines("progress lines");
  if (progress.length)
    sections.push({ title: "Progress", body: [...more("progress lines"), ...progress].join("\n") });

  const shownRequests = lines("requests");
  if (d.requestCount > 0 || shownRequests.length) {
    const notShown = Math.max(omitted.get("requests") ?? 0, d.requestCount - shownRequests.length);
    const tail =
      notShown > 0
        ? [`+${notShown} more requests (${d.requestCount} typed in the read window)`]
        : [];
    sections.push({ title: "Requests", body: [...shownRequests, ...tail].join("\n") });
  }
  if (d.todos !== null)
    sections.push({
      title: "Todos",
      body: [...lines("todos"), ...more("todos")].join("\n") || "(empty list)",
    });
  if (d.changed.length || d.read.length) {
    sections.push({
      title: "Working set",
      body: [
        "Changed (newest first):",
        ...(d.changed.length ? lines("changed files") : ["(none)"]),
        ...more("changed files"),
        "Read (newest first):",
        ...(d.read.length ? lines("read files") : ["(none)"]),
        ...more("read files"),
      ].join("\n"),
    });
  }
  if (d.failures.length)
    sections.push({
      title: "Recent failures",
      body: [...lines("failures"), ...more("failures")].join("\n"),
    });
  if (d.summary) {
    sections.push({
      title: "Compaction summary",
      body: `- transcript: ${oneLine(d.summary.transcript, 400)}\n- line uuid: ${oneLine(d.summary.uuid, 80)}`,
    });
  }
  if (d.truncated) {
    sections.push({
      title: "Transcript digest",
      body: "- history cut short: the read budget ended before the session's start; older requests and files are not listed",
    });
  }
  return sections;
}

function items(body: string | undefined): string[] {
  return (body ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}

function moreLines(body: string | undefined): string[] {
  return (body ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^\+\d+ more /.test(l));
}

function parseFile(item: string): CheckpointFile {
  const m = /^(.*?) \(x(\d+)\)$/.exec(item);
  return m ? { path: m[1]!, count: Number(m[2]) } : { path: item, count: 1 };
}

function parseWorkingSet(body: string | undefined): {
  changed: CheckpointFile[];
  read: CheckpointFile[];
} {
  const changed: CheckpointFile[] = [];
  const read: CheckpointFile[] = [];
  let into: CheckpointFile[] | null = null;
  for (const raw of (body ?? "").split("\n")) {
    const line = raw.trim();
    if (/^changed\b/i.test(line)) into = changed;
    else if (/^read\b/i.test(line)) into = read;
    else if (into && line.startsWith("- ")) into.push(parseFile(line.slice(2)));
  }
  return { changed, read };
}

const TODO_STATUS: Record<string, CheckpointTodo["status"]> = {
  "[x]": "completed",
  "[>]": "in_progress",
  "[ ]": "pending",
};

/** The digest sections of a checkpoint, as written by digestSections; absent sections are empty. */
export function parseDigestSections(get: (title: string) => string | undefined): ParsedDigest {
  const requests = items(get("Requests")).map((item) => {
    const m = /^(first|earlier|newest)(?: \(([^)]*)\))?: (.*)$/.exec(item);
    return m
      ? { text: m[3]!, at: m[2] ?? null, label: m[1] as RequestLabel }
      : { text: item, at: null, label: null };
  });
  const countMatch = /\((\d+) typed in the read window\)/.exec(get("Requests") ?? "");
  const todosBody = get("Todos");
  const todos =
    todosBody === undefined
      ? null
      : items(todosBody).flatMap((item) => {
          const status = TODO_STATUS[item.slice(0, 3)];
          return status ? [{ status, content: item.slice(4) }] : [];
        });
  const failures = items(get("Recent failures")).map((item) => {
    const m = /^`([^`]*)`(?: \(([^)]*)\))?: (.*)$/.exec(item);
    return m
      ? { command: m[1]!, at: m[2] ?? null, error: m[3]! }
      : { command: item, at: null, error: "" };
  });
  const summaryItems = items(get("Compaction summary"));
  const transcript = summaryItems
    .find((i) => i.startsWith("transcript: "))
    ?.slice("transcript: ".length);
  const uuid = summaryItems.find((i) => i.startsWith("line uuid: "))?.slice("line uuid: ".length);
  return {
    requests,
    requestCount: countMatch ? Number(countMatch[1]) : requests.length ? requests.length : null,
    todos,
    ...parseWorkingSet(get("Working set")),
    failures,
    lastWords: parseLastWords(get("Last words")),
    progress: parseLastWords(get("Progress")),
    summary: transcript && uuid ? { transcript, uuid } : null,
    truncated: /history cut short/.test(get("Transcript digest") ?? ""),
    omitted: [get("Requests"), get("Todos"), get("Working set"), get("Recent failures")].flatMap(
      moreLines,
    ),
  };
}

/** The newest request of a parsed digest (labelled, else the last shown), for a picker row. */
export function newestRequestOf(p: Pick<ParsedDigest, "requests">): string | null {
  return (p.requests.find((r) => r.label === "newest") ?? p.requests.at(-1))?.text ?? null;
}
