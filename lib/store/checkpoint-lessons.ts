import { sanitizeBody } from "../core/markdown-sections.ts";

// Three handover sections a checkpoint holds from the transcript, each a body written from a value
// and read back to the same value: the work items in their own words, what was fixed along the
// way (failures a later run settled, with the model's words after each), and the files to read
// first. Each body has a byte budget; what does not fit is counted ("+N more ..."), never dropped
// silently. The shapes are the structural subset of the digest's (lib/context), so a digest passes
// as is while this store module imports nothing above its rank.

export interface WorkItemValue {
  id: string;
  title: string;
  text: string | null;
}
export interface WorkItemsValue {
  current: (WorkItemValue & { how: string }) | null;
  open: readonly { id: string; title: string }[];
}
export interface FixedValue {
  command: string;
  error: string;
  at: string | null;
  fixedAt: string | null;
  fixedBy: string;
  explanation: string | null;
}
export type ReadFirstWhy = "uncommitted" | "in progress" | "read for it" | "committed" | "read";
export interface ReadFirstValue {
  path: string;
  why: ReadFirstWhy;
}

/** Byte budgets of the three bodies (the automatic checkpoint's 6 KB cap holds them with the rest). */
export const LESSON_BUDGET = { work: 1100, fixed: 1500, readFirst: 900 } as const;

const TITLE_CHARS = 100;
const HEAD_CHARS = 400;
const ERROR_CHARS = 80;
const EXPLANATION_CHARS = 200;
const COMMAND_CHARS = 60;
const PATH_CHARS = 200;

/** One line: whitespace runs as one space, sanitized, cut with "...". */
function one(text: string, max: number): string {
  // every line these bodies write starts "- ": a heading mark inside the text is only text
  const flat = sanitizeBody(text.replace(/\s+/g, " ").trim()).trimStart();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 3)).trimEnd()}...`;
}
const code = (s: string, max: number) => one(s, max).replace(/`/g, "'");
const bytes = (s: string) => Buffer.byteLength(s) + 1;
/** `2026-12-01T10:04Z` from an ISO time, else the text as given. */
function minute(at: string | null): string {
  if (!at) return "?";
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? one(at, 40) : `${d.toISOString().slice(0, 16)}Z`;
}

/** Lines kept in order while they fit `budget` bytes (the first always), then "+N more <noun>". */
function fitted(lines: readonly string[], budget: number, noun: string, keep = 1): string[] {
  const out: string[] = [];
  let used = 0;
  for (const l of lines) {
    if (out.length >= keep && used + bytes(l) > budget - 40) break;
    out.push(l);
    used += bytes(l);
  }
  return lines.length > out.length ? [...out, `+${lines.length - out.length} more ${noun}`] : out;
}

const idTitle = (i: { id: string; title: string }) =>
  `${i.id ? `[${one(i.id, 60).replace(/]/g, ")")}] ` : ""}${one(i.title, TITLE_CHARS)}`;

export function workItemsBody(v: WorkItemsValue): string {
  const head: string[] = [];
  if (v.current) {
    head.push(`- in progress: ${idTitle(v.current)}`);
    head.push(`- taken up by: ${one(v.current.how, 140)}`);
    if (v.current.text) head.push(`- description: ${one(v.current.text, HEAD_CHARS)}`);
  } else head.push("- in progress: (none found)");
  const open = v.open.map((i) => `- open: ${idTitle(i)}`);
  return [
    ...head,
    ...fitted(open, LESSON_BUDGET.work - head.join("\n").length, "open items", 0),
  ].join("\n");
}

function parseIdTitle(s: string): { id: string; title: string } {
  const m = /^\[([^\]]*)\] (.*)$/.exec(s);
  return m ? { id: m[1]!, title: m[2]! } : { id: "", title: s };
}

export function parseWorkItems(body: string | undefined): WorkItemsValue | null {
  if (body === undefined) return null;
  let current: WorkItemsValue["current"] = null;
  const open: { id: string; title: string }[] = [];
  for (const raw of body.split("\n")) {
    const m = /^- (in progress|taken up by|description|open): (.*)$/.exec(raw.trim());
    if (!m) continue;
    const [, key, rest] = m as unknown as [string, string, string];
    if (key === "in progress" && rest !== "(none found)")
      current = { ...parseIdTitle(rest), text: null, how: "" };
    else if (key === "taken up by" && current) current.how = rest;
    else if (key === "description" && current) current.text = rest;
    else if (key === "open") open.push(parseIdTitle(rest));
  }
  return { current, open };
}

function fixedLine(f: FixedValue): string {
  const said = f.explanation ? `; the model said: "${one(f.explanation, EXPLANATION_CHARS)}"` : "";
  return `- \`${code(f.command, COMMAND_CHARS)}\`: ${one(f.error, ERROR_CHARS)}${said} (fixed at ${minute(f.fixedAt)} by \`${code(f.fixedBy, COMMAND_CHARS)}\`)`;
}

/** `## Fixed along the way`: newest first, one line each; null when nothing was fixed. */
export function fixedBody(items: readonly FixedValue[]): string | null {
  if (!items.length) return null;
  return fitted(items.map(fixedLine), LESSON_BUDGET.fixed, "fixes").join("\n");
}

export function parseFixed(body: string | undefined): FixedValue[] {
  const out: FixedValue[] = [];
  for (const raw of (body ?? "").split("\n")) {
    const m =
      /^- `([^`]*)`: (.*?)(?:; the model said: "(.*)")? \(fixed at (\S+) by `([^`]*)`\)$/.exec(
        raw.trim(),
      );
    if (m)
      out.push({
        command: m[1]!,
        error: m[2]!,
        at: null,
        explanation: m[3] ?? null,
        fixedAt: m[4] === "?" ? null : m[4]!,
        fixedBy: m[5]!,
      });
  }
  return out;
}

/** `## Read first`: the uncommitted files (git's, at the save) in front, then the digest's order, no repeats. */
export function readFirstBody(
  uncommitted: readonly string[],
  list: readonly ReadFirstValue[],
): string | null {
  const seen = new Set<string>();
  const all: ReadFirstValue[] = [];
  for (const f of [...uncommitted.map((path) => ({ path, why: "uncommitted" as const })), ...list])
    if (!seen.has(f.path)) {
      seen.add(f.path);
      all.push(f);
    }
  if (!all.length) return null;
  return fitted(
    all.map((f) => `- ${one(f.path, PATH_CHARS)} (${f.why})`),
    LESSON_BUDGET.readFirst,
    "files",
  ).join("\n");
}

const WHYS = "uncommitted|in progress|read for it|committed|read";
export function parseReadFirst(body: string | undefined): ReadFirstValue[] {
  const out: ReadFirstValue[] = [];
  const re = new RegExp(`^- (.*) \\((${WHYS})\\)$`);
  for (const raw of (body ?? "").split("\n")) {
    const m = re.exec(raw.trim());
    if (m) out.push({ path: m[1]!, why: m[2] as ReadFirstWhy });
  }
  return out;
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
