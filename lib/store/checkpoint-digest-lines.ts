import { statusOfMark, TODO_MARK } from "../core/text-todo-mark.ts";
import { moreLines } from "../core/text-list.ts";
import { bulletItems, moreCount, NONE } from "./checkpoint-lines.ts";
import type {
  DigestFailure,
  DigestFile,
  DigestTodo,
  LabelledRequest,
  SectionValues,
} from "./checkpoint-values.ts";

// The bodies of the transcript digest's sections: requests, todos, the working set, failures
// and the compaction summary's pointer, each line written from a value and read back. The
// digest's fit (checkpoint-digest.ts) prices each item by its line.

export const requestLine = (r: LabelledRequest) =>
  `- ${r.label}${r.at ? ` (${r.at})` : ""}: ${r.text}`;
const REQUEST_COUNT = /^\+(\d+) more requests \((\d+) typed in the read window\)$/;

export const requestsBody = (v: SectionValues["requests"]) =>
  [
    ...v.items.map(requestLine),
    ...(v.more > 0 ? [`+${v.more} more requests (${v.count} typed in the read window)`] : []),
  ].join("\n");

export function parseRequests(body: string): SectionValues["requests"] {
  const items = bulletItems(body).map((item): LabelledRequest => {
    const m = /^(first|earlier|newest)(?: \(([^)]*)\))?: (.*)$/.exec(item);
    return m
      ? { text: m[3]!, at: m[2] ?? null, label: m[1] as "first" | "earlier" | "newest" }
      : { text: item, at: null, label: null };
  });
  const tail = body
    .split("\n")
    .map((l) => REQUEST_COUNT.exec(l.trim()))
    .find((m) => m);
  return tail
    ? { items, more: Number(tail[1]), count: Number(tail[2]) }
    : { items, more: 0, count: items.length };
}

export const todoLine = (t: DigestTodo) => `- ${TODO_MARK[t.status]} ${t.content}`;

export const todosBody = (v: SectionValues["todos"]) =>
  [...v.items.map(todoLine), ...moreLines(v.more, "todos")].join("\n") || "(empty list)";
export const parseTodos = (body: string): SectionValues["todos"] => ({
  items: bulletItems(body).flatMap((item) => {
    const status = statusOfMark(item.slice(0, 3));
    return status ? [{ status, content: item.slice(4) }] : [];
  }),
  more: moreCount(body, "todos"),
});

export const fileLine = (f: DigestFile) => `- ${f.path}${f.count > 1 ? ` (x${f.count})` : ""}`;
function parseFile(item: string): DigestFile {
  const m = /^(.*?) \(x(\d+)\)$/.exec(item);
  return m ? { path: m[1]!, count: Number(m[2]) } : { path: item, count: 1 };
}

export const workingSetBody = (v: SectionValues["workingSet"]) =>
  [
    "Changed (newest first):",
    ...(v.changed.length ? v.changed.map(fileLine) : [NONE]),
    ...moreLines(v.changedMore, "changed files"),
    "Read (newest first):",
    ...(v.read.length ? v.read.map(fileLine) : [NONE]),
    ...moreLines(v.readMore, "read files"),
  ].join("\n");

export function parseWorkingSet(body: string): SectionValues["workingSet"] {
  const files: { changed: DigestFile[]; read: DigestFile[] } = { changed: [], read: [] };
  let into: "changed" | "read" | null = null;
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    if (/^changed\b/i.test(line)) into = "changed";
    else if (/^read\b/i.test(line)) into = "read";
    else if (into && line.startsWith("- ")) files[into].push(parseFile(line.slice(2)));
  }
  return {
    ...files,
    changedMore: moreCount(body, "changed files"),
    readMore: moreCount(body, "read files"),
  };
}

export const failureLine = (f: DigestFailure) =>
  `- \`${f.command}\`${f.at ? ` (${f.at})` : ""}: ${f.error}`;
export const failuresBody = (v: SectionValues["failures"]) =>
  [...v.items.map(failureLine), ...moreLines(v.more, "failures")].join("\n");
export const parseFailures = (body: string): SectionValues["failures"] => ({
  items: bulletItems(body).map((item) => {
    const m = /^`([^`]*)`(?: \(([^)]*)\))?: (.*)$/.exec(item);
    return m
      ? { command: m[1]!, at: m[2] ?? null, error: m[3]! }
      : { command: item, at: null, error: "" };
  }),
  more: moreCount(body, "failures"),
});

export const summaryBody = (v: SectionValues["compactionSummary"]) =>
  `- transcript: ${v.transcript}\n- line uuid: ${v.uuid}`;
export function parseSummary(body: string): SectionValues["compactionSummary"] {
  const items = bulletItems(body);
  const after = (p: string) => items.find((i) => i.startsWith(p))?.slice(p.length) ?? "";
  return { transcript: after("transcript: "), uuid: after("line uuid: ") };
}

export const HISTORY_CUT =
  "- history cut short: the read budget ended before the session's start; older requests and files are not listed";
