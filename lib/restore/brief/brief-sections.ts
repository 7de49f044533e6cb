import type { ResumeSession } from "../resume-session.ts";
import { cut, cutAtWord } from "../../core/text-cut.ts";
import { TEXT_LIMITS } from "../../core/text-limits.ts";
import { boundedLines, firstOf, moreLines } from "../../core/text-list.ts";
import { todoMark } from "../../core/text-todo-mark.ts";
import { uncommittedOrder } from "./read-order.ts";

// The sections of a restored session's brief: where it was (requests, last words, files), the
// model's own notes, and the digest's footnotes.

/** The brief's bounds: every list is cut with a count of what was cut; the checkpoint file holds the rest. */
export const BRIEF_LIMITS = {
  requestChars: 300,
  lastWords: TEXT_LIMITS.lastWords,
  lastWordChars: TEXT_LIMITS.savedWordChars,
  /** a tracker's close with its reason: what the finished item did */
  closeChars: 480,
  progressChars: 300,
  todos: 12,
  todoChars: 120,
  changed: 8,
  read: 5,
  failures: 3,
  uncommitted: 8,
  items: 8,
  itemChars: 240,
  inProgressChars: 600,
  workItemHeadChars: 400,
  openItems: 5,
  fixes: 3,
} as const;

/** The first `max` of a list, then `+N more <what>` when some were cut. */
const bounded = <T>(list: readonly T[], max: number, what: string, show: (t: T) => string) =>
  boundedLines(list, max, what, show, "  ");

const files = (list: readonly { path: string; count: number }[], max: number) =>
  firstOf(
    list.map((f) => `${cut(f.path, 200)}${f.count > 1 ? ` (${f.count} times)` : ""}`),
    max,
  );

const L = BRIEF_LIMITS;

/** Where the session was: requests, the model's last words, uncommitted files, todos, working set, failures. */
export function whereLines(x: ResumeSession): string[] {
  const lines: string[] = [];
  if (x.firstRequest && x.firstRequest !== x.newestRequest)
    lines.push(`First request: ${cut(x.firstRequest, L.requestChars)}`);
  if (x.newestRequest) lines.push(`Newest request: ${cut(x.newestRequest, L.requestChars)}`);
  if (x.progress.length) {
    lines.push("Progress the model reported (newest last):");
    for (const w of x.progress.slice(-L.lastWords - 2))
      lines.push(
        `  - ${w.at ? `${w.at} ` : ""}${cut(w.text, w.text.startsWith("$ ") ? L.closeChars : L.progressChars)}`,
      );
  }
  const said = new Set(x.progress.map((w) => w.text.trim()));
  const lastWords = x.lastWords.filter((w) => !said.has(w.text.trim()));
  if (lastWords.length) {
    lines.push("Last words of the model (newest last):");
    const words = lastWords.slice(-L.lastWords);
    if (lastWords.length > words.length)
      lines.push(`  (+${lastWords.length - words.length} older)`);
    for (const w of words)
      lines.push(`  - ${w.at ? `${w.at} ` : ""}${cut(w.text, L.lastWordChars)}`);
  }
  // each path once: the uncommitted ones (with how often the session changed them), then the
  // other changed files (committed work), then the files only read
  const counts = new Map(x.changed.map((f) => [f.path, f.count]));
  if (x.uncommitted.length) {
    lines.push(
      x.uncommittedNotKnown
        ? "Uncommitted at the save (git status's, not known to be this session's):"
        : "Uncommitted at the save (in progress first, then the most edited):",
    );
    lines.push(
      ...bounded(uncommittedOrder(x.uncommitted, x.changed), L.uncommitted, "files", (u) => {
        const n = counts.get(u.path) ?? 0;
        return `  ${cut(u.path, 200)} (${[u.kind, ...(n > 1 ? [`edited ${n} times`] : [])].join(", ")})`;
      }),
    );
  }
  if (x.todos) lines.push(...todoLines(x.todos, x.nextUp));
  const listed = new Set(x.uncommitted.map((u) => u.path));
  const committed = x.changed.filter((f) => !listed.has(f.path));
  if (committed.length)
    lines.push(
      `${listed.size ? "Other changed" : "Changed"} files (newest first): ${files(committed, L.changed)}`,
    );
  if (x.read.length) lines.push(`Read files (newest first): ${files(x.read, L.read)}`);
  for (const o of x.omitted.slice(0, 4)) lines.push(`  (${cut(o, 80)} in the checkpoint's count)`);
  lines.push(
    ...bounded(
      x.failures,
      L.failures,
      "failures",
      (f) => `Failed: \`${cut(f.command, 120)}\`: ${cut(f.error, 160)}`,
    ),
  );
  return lines;
}

/** The todos; a pending one that is a Next up item word for word is said once, there. */
function todoLines(todos: NonNullable<ResumeSession["todos"]>, nextUp: ResumeSession["nextUp"]) {
  const planned = new Set(nextUp.map((n) => n.item.trim()));
  const said = (t: (typeof todos)[number]) =>
    t.status === "pending" && planned.has(t.content.trim());
  const rest = todos.filter((t) => !said(t));
  const same = todos.length - rest.length;
  const note = same ? `${same} pending: the Next up items above` : "";
  if (rest.length === 0) return [`Todos: ${note || "(empty list)"}`];
  return [
    "Todos:",
    ...bounded(
      rest,
      L.todos,
      "todos",
      (t) => `  ${todoMark(t.status)} ${cut(t.content, L.todoChars)}`,
    ),
    ...(same ? [`  (+${note})`] : []),
  ];
}

/** The model's own notes of what is open (a curated checkpoint): in progress, next up, decisions. */
export function modelLines(x: ResumeSession): string[] {
  const lines: string[] = [];
  const item = (t: string) => cut(t, L.itemChars);
  if (x.inProgress) lines.push(`In progress: ${cut(x.inProgress, L.inProgressChars)}`);
  lines.push(
    ...bounded(
      x.nextUp,
      L.items,
      "next-up items",
      (n) => `Next up: ${item(n.item)} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`,
    ),
  );
  lines.push(...bounded(x.decisions, L.items, "decisions", (d) => `Decision: ${item(d)}`));
  return lines;
}

const idTitle = (i: { id: string; title: string }) =>
  `${i.id ? `[${i.id}] ` : ""}${cut(i.title, 120)}`;

/** The tracker's work items (`## Work items`): the item in progress, then the other open items. */
export function workItemLines(x: ResumeSession): string[] {
  const lines: string[] = [];
  const w = x.workItem;
  if (w) {
    const head = w.text ? `: ${cutAtWord(w.text, L.workItemHeadChars)}` : "";
    const how = w.how ? ` (taken up by: ${cut(w.how, 160)})` : "";
    lines.push(`Work item in progress: ${idTitle(w)}${head}${how}`);
  }
  if (x.unverified)
    lines.push(`State of the last edit: ${cut(x.unverified, TEXT_LIMITS.lessons.stateChars)}`);
  const more = Math.max(0, x.openItems.length - L.openItems) + x.openItemsMore;
  if (x.openItems.length || more)
    lines.push(
      `Open work items: ${[...x.openItems.slice(0, L.openItems).map(idTitle), ...moreLines(more)].join("; ")}`,
    );
  return lines;
}

/** Failures a later run settled (`## Fixed along the way`), newest first. */
export function fixedLines(x: ResumeSession): string[] {
  const more = Math.max(0, x.fixed.length - L.fixes) + x.fixedMore;
  return [
    ...x.fixed.slice(0, L.fixes).map((f) => {
      const said = f.explanation ? `; the model said: "${cut(f.explanation, 200)}"` : "";
      return `Fixed along the way: \`${cut(f.command, 120)}\`: ${cut(f.error, 160)}${said} (fixed at ${f.fixedAt ?? "?"} by \`${cut(f.fixedBy, 120)}\`)`;
    }),
    ...moreLines(more, "fixes (in the checkpoint)").map((l) => `  ${l}`),
  ];
}

/** What the model noted as done. */
export function doneLines(x: ResumeSession): string[] {
  if (!x.done.length) return [];
  return ["Done:", ...bounded(x.done, L.items, "done items", (d) => `  - ${cut(d, L.itemChars)}`)];
}

/** The digest's footnotes: where the compaction summary is, a history cut short. */
export function digestNotes(x: ResumeSession): string[] {
  const lines: string[] = [];
  if (x.compactionSummary)
    lines.push(
      `Compaction summary: line ${x.compactionSummary.uuid} of ${x.compactionSummary.transcript}`,
    );
  if (x.historyCutShort)
    lines.push(
      "(the transcript digest was cut short by its read budget: older history is not listed)",
    );
  return lines;
}
