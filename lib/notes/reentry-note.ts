import { oneLine } from "../core/text-cut.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";
import { firstOf, listWithin } from "../core/text-list.ts";
import { todoMark } from "../core/text-todo-mark.ts";
import { newestRequestOf, type ParsedDigest } from "../store/checkpoint-digest.ts";
import type { DigestTodo, LastWord } from "../store/checkpoint-values.ts";

// The re-entry note after a compaction in words, rendered from what the hooks found
// (lib/hooks/compact-reentry.ts, reentry-at-prompt.ts, session-start.ts): the checkpoint saved
// before it, and what of it the compaction's summary kept or dropped. For the model only
// (additionalContext); the person gets no line of it.

/** SessionStart(compact)'s first line. */
export const REENTRY_NOTE =
  "[quoin-checkpoint] The context was just compacted. The PreCompact hook saved this session's place before it; " +
  "re-read the in-flight artifacts it lists rather than relying on the summary alone.";

export const REENTRY_FOLLOWS =
  "What the summary dropped of it (paths, requests, todos) comes with the next prompt.";

export const PROMPT_REENTRY_HEAD =
  "[quoin-checkpoint] After the compaction: what its summary left out of the checkpoint saved before it (re-read these rather than relying on the summary).";
export const PROMPT_FULL_HEAD =
  "[quoin-checkpoint] After the compaction (its summary could not be read): the checkpoint saved before it holds these.";

const LIMIT = TEXT_LIMITS.reentry;
const LAST_WORDS_HEADER = "Your last words before the compaction (newest last):";

/** What the compaction's summary kept of the checkpoint and what it dropped. */
export interface KeptReport {
  paths: { all: string[]; dropped: string[] };
  requests: { all: string[]; dropped: string[] };
  todos: { all: DigestTodo[]; dropped: DigestTodo[] };
}

/** What the digest part of the note is rendered from. */
export interface ReentryFacts {
  checkpoint: string;
  digest: ParsedDigest;
  /** null: the summary could not be read, so the whole list is carried */
  kept: KeptReport | null;
}

const part = (kept: number, all: number, noun: string) =>
  all === 0 ? null : `${kept} of ${all} ${noun}`;

/** "The summary kept 14 of 17 paths, 1 of 2 requests and 5 of 5 todos." */
export function keptLine(r: KeptReport): string {
  const parts = [
    part(r.paths.all.length - r.paths.dropped.length, r.paths.all.length, "paths"),
    part(r.requests.all.length - r.requests.dropped.length, r.requests.all.length, "requests"),
    part(r.todos.all.length - r.todos.dropped.length, r.todos.all.length, "todos"),
  ].filter((p): p is string => p !== null);
  if (!parts.length) return "The summary had nothing of this checkpoint to keep.";
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  const dropped = r.paths.dropped.length + r.requests.dropped.length + r.todos.dropped.length;
  return `The summary kept ${list}${dropped ? "; what it dropped follows" : ""}.`;
}

const todoText = (t: { status: string; content: string }) =>
  `${todoMark(t.status)} ${oneLine(t.content, LIMIT.todoChars)}`;

/** The note's lines when nothing is known of the summary: the newest requests, todos and changed files. */
function fullLines(d: ParsedDigest): string[] {
  const lines: string[] = [];
  const newest = newestRequestOf(d);
  const earlier = d.requests.filter((r) => r.text !== newest).slice(-LIMIT.earlierRequests);
  for (const r of earlier) lines.push(`Earlier request: ${oneLine(r.text, LIMIT.requestChars)}`);
  if (newest) lines.push(`Newest request: ${oneLine(newest, LIMIT.requestChars)}`);
  if (d.todos?.length) lines.push(`Todos: ${firstOf(d.todos.map(todoText), LIMIT.todos, "; ")}`);
  if (d.changed.length)
    lines.push(
      `Newest changed files: ${firstOf(
        d.changed.map((f) => f.path),
        LIMIT.changedFiles,
      )}`,
    );
  return lines;
}

/** The note's lines after a summary was read: how much it kept, the newest changed file, what it dropped. */
function droppedLines(d: ParsedDigest, r: KeptReport, room: number): string[] {
  const lines = [keptLine(r)];
  const newestChanged = d.changed[0]?.path;
  if (newestChanged) lines.push(`Newest changed file: ${newestChanged}`);
  const paths = r.paths.dropped.filter((p) => p !== newestChanged);
  if (paths.length) lines.push(`Paths it dropped: ${listWithin(paths, Math.max(200, room / 2))}`);
  const requests = r.requests.dropped;
  if (requests.length) {
    // The newest few; the earlier ones are counted, so none goes unmentioned.
    const shown = LIMIT.droppedRequests;
    const of = requests.length > shown ? `, the newest ${shown} of ${requests.length}` : "";
    lines.push(
      `Requests it dropped (oldest first${of}): ${listWithin(
        requests.slice(-shown).map((t) => oneLine(t, LIMIT.requestChars)),
        room / 3,
        " | ",
      )}`,
    );
  }
  if (r.todos.dropped.length)
    lines.push(`Todos it dropped: ${listWithin(r.todos.dropped.map(todoText), room / 3, "; ")}`);
  return lines;
}

/** Lines joined under the head while they fit in `max`; null when none fits. */
function fitted(head: string, body: readonly string[], max: number): string | null {
  let out = head;
  for (const l of body) {
    const next = `${out}\n${l}`;
    if (next.length > max) break;
    out = next;
  }
  return out === head ? null : out;
}

/** The digest part: the checkpoint, then what the summary dropped (or all of it), within `max`. */
export function reentryDigestText(f: ReentryFacts, max: number): string | null {
  const head = `Saved before the compaction: ${f.checkpoint}`;
  const body = f.kept ? droppedLines(f.digest, f.kept, max - head.length) : fullLines(f.digest);
  return fitted(head, body, max);
}

/** SessionStart(compact) when the summary is not in the transcript yet: the list comes later. */
export const reentryFollowsText = (checkpoint: string) =>
  `Saved before the compaction: ${checkpoint}\n${REENTRY_FOLLOWS}`;

/** The first prompt's note: what the summary dropped, or (`full`) the whole list. */
export const promptReentryText = (digest: string, full: boolean) =>
  `${full ? PROMPT_FULL_HEAD : PROMPT_REENTRY_HEAD}\n${digest}`;

/** The newest last words that fit in `room` characters, as one block; null when not even one fits. */
export function lastWordsText(
  words: readonly LastWord[],
  room: number,
  wordChars: number,
): string | null {
  const bullets = words.map((w) => `- ${w.at ? `${w.at} ` : ""}${oneLine(w.text, wordChars)}`);
  for (let from = 0; from < bullets.length; from += 1) {
    const block = [LAST_WORDS_HEADER, ...bullets.slice(from)].join("\n");
    if (block.length <= room) return block;
  }
  return null;
}
