import type { FsApi } from "../core/deps.ts";
import { readHead, readTextOrNull } from "../core/file-range.ts";
import { unescapeBody } from "../core/markdown-sections.ts";
import { SECTIONS, titleOf, type SectionKey } from "../store/checkpoint-sections.ts";

// What the picker needs from a checkpoint's first sections (status, task, branch, session id,
// intent, and what the session was doing in the model's words), read cheaply; head-cache.ts keeps
// them between restores.

export interface HeadFields {
  status?: string;
  task?: string;
  branch?: string;
  /** undefined: no session-id section (legacy); null: recorded as unknown */
  sessionId?: string | null;
  /** first line of the intent section, when it lies within the head */
  intent?: string;
  /** the model's in-progress line, else the work item in progress, when within the head */
  working?: string;
  /** the newest of the model's last words, when the section lies within the head */
  lastWord?: string;
}

/**
 * Enough for Status, Current stage, Active task, Branch and Session ID of a checkpoint this tool
 * writes; a file this small is its own head and is checked for damage whole (memory-listing.ts).
 */
export const HEAD_BYTES = 1024;

/**
 * How much of a checkpoint a head read takes: one read of a 4 KB page (it was 1 KB). In real
 * checkpoints of 4.1 to 4.8 KB the last words end by byte 1,950 and the work items by 3,050; a
 * 1 KB head held neither. A section cut by the end of the read is not taken. Cost on 50 real
 * checkpoints: the reads 1.1 ms of CPU either way, their parse 1.1 -> 1.3 ms (docs/performance.md).
 */
export const ROW_HEAD_BYTES = 4096;

/** `## Title` of a section, as the file has it (the section table's title). */
const heading = (key: SectionKey) => `## ${titleOf(key)}`;
const NEEDED_HEADINGS = (["task", "branch", "sessionId"] as const).map(
  (k) => new RegExp(`^${heading(k)}\\s*$`, "m"),
);
/** `line` is the heading of `key` (trailing blanks allowed). */
const isHeading = (line: string, key: SectionKey) =>
  line.startsWith(heading(key)) && line.slice(heading(key).length).trim() === "";
const TITLE = {
  branch: titleOf("branch").toLowerCase(),
  sessionId: titleOf("sessionId").toLowerCase(),
  intent: titleOf("intent").toLowerCase(),
};

/**
 * The first sections of a checkpoint, read cheaply: a 4 KB prefix cut back to whole sections;
 * the whole file only when a section the picker needs is not in the prefix. `file` was just
 * lstatted as a regular file (regularFileStat).
 */
export function readCheckpointHead(
  fs: FsApi,
  file: { path: string; size: number },
): string | undefined {
  const prefix = readHead(fs, file.path, ROW_HEAD_BYTES, { lstatted: true });
  if (prefix === null) return undefined;
  if (file.size <= ROW_HEAD_BYTES) return prefix;
  const lastHeading = prefix.lastIndexOf("\n## ");
  const whole = lastHeading > 0 ? prefix.slice(0, lastHeading + 1) : prefix;
  if (NEEDED_HEADINGS.every((h) => h.test(whole))) return whole;
  return readTextOrNull(fs, file.path) ?? undefined;
}

function normalTitle(line: string): string {
  return line.slice(3).trim().replace(/:$/, "").toLowerCase();
}

/**
 * The fields the picker needs from a checkpoint's first sections, in one pass over the lines.
 * NOTE: runs on up to thousands of heads per restore, so it stops once it has all three; the
 * results equal parseSections + firstLineOf (and parseActiveTask for the task).
 */
export function headFields(head: string): HeadFields {
  let task: string | undefined;
  let status: string | undefined;
  let statusNext = false;
  let branch: string | null | undefined;
  let sid: string | null | undefined;
  let intent: string | undefined;
  let intentSeen = false;
  // which field the next non-blank line fills: 1 branch, 2 session id, 3 intent
  let want = 0;
  let taskNext = false;
  let at = 0;
  while (at <= head.length) {
    const end = head.indexOf("\n", at);
    const raw = head.slice(at, end < 0 ? head.length : end);
    at = end < 0 ? head.length + 1 : end + 1;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    // a field's value as written (an escaped `#` or `---` line is text, never a heading)
    const value = () => unescapeBody(line).trim();
    if (statusNext && line.trim() !== "") {
      status = value();
      statusNext = false;
    }
    if (taskNext) {
      // The seed's awk: the line right after the task heading, CR stripped.
      task = value() || undefined;
      taskNext = false;
    }
    if (line.startsWith("## ")) {
      if (want === 1) branch = null;
      if (want === 2) sid = null;
      want = 0;
      statusNext = false;
      if (isHeading(line, "task") && task === undefined) taskNext = true;
      if (isHeading(line, "status") && status === undefined) statusNext = true;
      const title = normalTitle(line);
      if (title === TITLE.branch && branch === undefined) want = 1;
      else if (title === TITLE.sessionId && sid === undefined) want = 2;
      else if (title === TITLE.intent && !intentSeen) {
        want = 3;
        intentSeen = true;
      }
    } else if (want !== 0 && line.trim() !== "") {
      if (want === 1) branch = value();
      else if (want === 2) sid = value();
      else intent = value() === "(none)" ? undefined : value();
      want = 0;
    }
    // The intent follows the session link; past the artifacts it is not there.
    const pastIntent = intentSeen || isHeading(line, "artifacts");
    if (task !== undefined && branch !== undefined && sid !== undefined && pastIntent && want === 0)
      break;
  }
  if (want === 1) branch = null;
  if (want === 2) sid = null;
  return {
    ...(status === undefined ? {} : { status }),
    task,
    branch: branch ?? undefined,
    sessionId: sid === undefined ? undefined : sid && sid !== "unknown" ? sid : null,
    ...(intent ? { intent } : {}),
    // the model's words come after the intent: read on from where the fields ended
    ...modelWords(head, at <= head.length ? at : 0),
  };
}

type WordsKey = "inProgress" | "workItems" | "lastWords";
/** The model's words are kept to this many characters: a row shows about 70, the head cache stays small. */
const WORDS_KEPT = 120;
const kept = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, WORDS_KEPT);
const WORDS_TITLES = new Map<string, WordsKey>(
  (["inProgress", "workItems", "lastWords"] as const).map((k) => [titleOf(k).toLowerCase(), k]),
);

/** The first line of the model's in-progress text, a list mark taken off. */
function firstLine(text: string | null): string | undefined {
  for (const l of (text ?? "").split("\n")) {
    const line = l.replace(/^\s*[-*]\s+/, "").trim();
    if (line !== "") return line;
  }
  return undefined;
}

/**
 * What the session was doing in the model's words, from the sections of the head from `from` on,
 * each read by its row of the section table: the in-progress line, else the work item in
 * progress; and the newest of the last words. Stops once the in-progress line is found, or
 * past the work items (the last of the three in a checkpoint).
 */
function modelWords(head: string, from: number): Pick<HeadFields, "working" | "lastWord"> {
  const bodies: Partial<Record<WordsKey, string[]>> = {};
  let into: WordsKey | undefined;
  let at = from;
  const body = (k: WordsKey) => unescapeBody((bodies[k] ?? []).join("\n")).trim();
  const found = () => firstLine(SECTIONS.inProgress.parse(body("inProgress")).text);
  while (at < head.length) {
    const next = head.indexOf("\n", at);
    const end = next < 0 ? head.length : next;
    const lineAt = at;
    at = end + 1;
    // only the lines of the three sections are cut out of the head
    const isHeading = head.startsWith("## ", lineAt);
    if (!isHeading && !into) continue;
    const line = head.slice(lineAt, head[end - 1] === "\r" ? end - 1 : end);
    if (!isHeading) {
      bodies[into!]!.push(line);
      continue;
    }
    if (into === "workItems" || (into === "inProgress" && found())) break;
    const key = WORDS_TITLES.get(normalTitle(line));
    into = key && !bodies[key] ? key : undefined;
    if (into) bodies[into] = [];
  }
  const item = bodies.workItems ? SECTIONS.workItems.parse(body("workItems")).current : null;
  const inProgress = found() ?? (item ? `${item.id ? `[${item.id}] ` : ""}${item.title}` : "");
  const working = kept(inProgress);
  const words = bodies.lastWords ? SECTIONS.lastWords.parse(body("lastWords")) : [];
  const lastWord = kept(words.at(-1)?.text ?? "");
  return { ...(working ? { working } : {}), ...(lastWord ? { lastWord } : {}) };
}
