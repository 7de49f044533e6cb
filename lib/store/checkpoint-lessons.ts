import { moreLines } from "../core/text-list.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";
import { sanitizeBody } from "../core/markdown-sections.ts";

// Three handover sections a checkpoint holds from the transcript, each a body written from a value
// and read back to the same value (rows of the section table, checkpoint-sections.ts): the work
// items in their own words, what was fixed along the way (failures a later run settled, with the
// model's words after each), and the files to read first. The digest's fit (checkpoint-digest.ts)
// decides how many lines each keeps; what does not fit is counted ("+N more ..."). The shapes are
// the structural subset of the digest's (lib/context), so a digest passes as is while this store
// module imports nothing above its rank.

export interface WorkItemValue {
  id: string;
  title: string;
  text: string | null;
}
export interface WorkItemsValue {
  current: (WorkItemValue & { how: string }) | null;
  open: readonly { id: string; title: string }[];
  /** the last edits were not followed by a build, test or lint run: one line saying so */
  unverified?: string | null;
}
export interface FixedValue {
  command: string;
  error: string;
  at: string | null;
  fixedAt: string | null;
  fixedBy: string;
  explanation: string | null;
}
export type ReadFirstWhy =
  | "uncommitted"
  | "in progress"
  | "read for it"
  | "edited earlier this session"
  | "committed"
  | "read";
export interface ReadFirstValue {
  path: string;
  why: ReadFirstWhy;
}

const LIMIT = TEXT_LIMITS.lessons;

/** One line: whitespace runs as one space, sanitized, cut with "...". */
function one(text: string, max: number): string {
  // every line these bodies write starts "- ": a heading mark inside the text is only text
  const flat = sanitizeBody(text.replace(/\s+/g, " ").trim()).trimStart();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 3)).trimEnd()}...`;
}
const code = (s: string, max: number) => one(s, max).replace(/`/g, "'");
/** `2026-12-01T10:04Z` from an ISO time, else the text as given. */
function minute(at: string | null): string {
  if (!at) return "?";
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? one(at, LIMIT.timeChars) : `${d.toISOString().slice(0, 16)}Z`;
}
const moreOf = (body: string, noun: string) =>
  Number(new RegExp(`^\\+(\\d+) more ${noun}$`, "m").exec(body)?.[1] ?? 0);

// ---- the values as a checkpoint stores them (cut to their line lengths)

export function storedWorkItems(v: WorkItemsValue): WorkItemsValue {
  const c = v.current;
  return {
    current: c
      ? {
          id: one(c.id, LIMIT.idChars).replace(/]/g, ")"),
          title: one(c.title, LIMIT.titleChars),
          text: c.text ? one(c.text, LIMIT.headChars) : null,
          how: one(c.how, LIMIT.howChars),
        }
      : null,
    open: v.open.map((i) => ({
      id: one(i.id, LIMIT.idChars).replace(/]/g, ")"),
      title: one(i.title, LIMIT.titleChars),
    })),
    ...(v.unverified ? { unverified: one(v.unverified, LIMIT.stateChars) } : {}),
  };
}

export const storedFix = (f: FixedValue): FixedValue => ({
  command: code(f.command, LIMIT.commandChars),
  error: one(f.error, LIMIT.errorChars),
  at: null,
  fixedAt: f.fixedAt ? minute(f.fixedAt) : null,
  fixedBy: code(f.fixedBy, LIMIT.commandChars),
  explanation: f.explanation ? one(f.explanation, LIMIT.explanationChars).replace(/"/g, "'") : null,
});

export const storedReadFirst = (f: ReadFirstValue): ReadFirstValue => ({
  path: one(f.path, LIMIT.pathChars),
  why: f.why,
});

// ---- work items: `- in progress: [id] title`, `- taken up by: ...`, `- state: ...` (the last
// edits unchecked), `- description: ...`, `- open: [id] title`

const idTitle = (i: { id: string; title: string }) => `${i.id ? `[${i.id}] ` : ""}${i.title}`;
export const openLine = (i: { id: string; title: string }) => `- open: ${idTitle(i)}`;

export function workItemsBody(v: WorkItemsValue & { more?: number }): string {
  const c = v.current;
  const head = c
    ? [
        `- in progress: ${idTitle(c)}`,
        `- taken up by: ${c.how}`,
        ...(v.unverified ? [`- state: ${v.unverified}`] : []),
        ...(c.text ? [`- description: ${c.text}`] : []),
      ]
    : ["- in progress: (none found)", ...(v.unverified ? [`- state: ${v.unverified}`] : [])];
  return [...head, ...v.open.map(openLine), ...moreLines(v.more ?? 0, "open items")].join("\n");
}

function parseIdTitle(s: string): { id: string; title: string } {
  const m = /^\[([^\]]*)\] (.*)$/.exec(s);
  return m ? { id: m[1]!, title: m[2]! } : { id: "", title: s };
}

export function parseWorkItems(body: string): WorkItemsValue & { more: number } {
  let current: WorkItemsValue["current"] = null;
  let unverified: string | null = null;
  const open: { id: string; title: string }[] = [];
  for (const raw of body.split("\n")) {
    const m = /^- (in progress|taken up by|state|description|open): (.*)$/.exec(raw.trim());
    if (!m) continue;
    const [, key, rest] = m as unknown as [string, string, string];
    if (key === "in progress" && rest !== "(none found)")
      current = { ...parseIdTitle(rest), text: null, how: "" };
    else if (key === "taken up by" && current) current.how = rest;
    else if (key === "description" && current) current.text = rest;
    else if (key === "state") unverified = rest;
    else if (key === "open") open.push(parseIdTitle(rest));
  }
  return {
    current,
    open,
    ...(unverified !== null ? { unverified } : {}),
    more: moreOf(body, "open items"),
  };
}

// ---- fixed along the way: one line a fix, newest first

export function fixedLine(f: FixedValue): string {
  const said = f.explanation ? `; the model said: "${f.explanation}"` : "";
  return `- \`${f.command}\`: ${f.error}${said} (fixed at ${f.fixedAt ?? "?"} by \`${f.fixedBy}\`)`;
}

export function fixedBody(v: { items: readonly FixedValue[]; more: number }): string {
  return [...v.items.map(fixedLine), ...moreLines(v.more, "fixes")].join("\n");
}

export function parseFixed(body: string): { items: FixedValue[]; more: number } {
  const items: FixedValue[] = [];
  for (const raw of body.split("\n")) {
    const m =
      /^- `([^`]*)`: (.*?)(?:; the model said: "(.*)")? \(fixed at (\S+) by `([^`]*)`\)$/.exec(
        raw.trim(),
      );
    if (m)
      items.push({
        command: m[1]!,
        error: m[2]!,
        at: null,
        explanation: m[3] ?? null,
        fixedAt: m[4] === "?" ? null : m[4]!,
        fixedBy: m[5]!,
      });
  }
  return { items, more: moreOf(body, "fixes") };
}

// ---- read first: `- path (why)` in order

export const readFirstLine = (f: ReadFirstValue) => `- ${f.path} (${f.why})`;

/**
 * The count of the files not listed says what they are (changed or only read): "+9 more" beside
 * seven changed files and eight to re-read reads as an error otherwise.
 */
export function readFirstBody(v: {
  items: readonly ReadFirstValue[];
  more: number;
  moreRead?: number;
}): string {
  const more =
    v.more > 0 && v.moreRead !== undefined
      ? [`+${v.more} more files to read (${v.more - v.moreRead} changed, ${v.moreRead} only read)`]
      : moreLines(v.more, "files to read");
  return [...v.items.map(readFirstLine), ...more].join("\n");
}

const WHYS = "uncommitted|in progress|read for it|edited earlier this session|committed|read";
const MORE_FILES = /^\+(\d+) more files to read(?: \((\d+) changed, (\d+) only read\))?$/m;
export function parseReadFirst(body: string): {
  items: ReadFirstValue[];
  more: number;
  moreRead?: number;
} {
  const items: ReadFirstValue[] = [];
  const re = new RegExp(`^- (.*) \\((${WHYS})\\)$`);
  for (const raw of body.split("\n")) {
    const m = re.exec(raw.trim());
    if (m) items.push({ path: m[1]!, why: m[2] as ReadFirstWhy });
  }
  const more = MORE_FILES.exec(body);
  return {
    items,
    more: Number(more?.[1] ?? 0),
    ...(more?.[3] !== undefined ? { moreRead: Number(more[3]) } : {}),
  };
}

/**
 * What PreCompact's steering text may carry from these sections, as data (the steering module
 * quotes and redacts it): the item in progress and the fixes, newest first, at most 3.
 */
export function handoverSteerData(d: { work?: WorkItemsValue; fixed?: readonly FixedValue[] }): {
  workItem: { id: string; title: string } | null;
  fixes: { failure: string; explanation: string | null; fixedBy: string }[];
} {
  const c = d.work?.current ?? null;
  return {
    workItem: c ? { id: c.id, title: c.title } : null,
    fixes: (d.fixed ?? []).slice(0, 3).map((f) => ({
      failure: `${f.command}: ${f.error}`,
      explanation: f.explanation,
      fixedBy: f.fixedBy,
    })),
  };
}
