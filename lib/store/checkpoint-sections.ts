import { moreLines } from "../core/text-list.ts";
import { NO_HEAD_LINE, readHeadLine } from "../core/git.ts";
import { exactLine, firstLineOf, readExactLine } from "../core/markdown-sections.ts";
import {
  HISTORY_CUT,
  failuresBody,
  parseFailures,
  parseRequests,
  parseSummary,
  parseTodos,
  parseWorkingSet,
  requestsBody,
  summaryBody,
  todosBody,
  workingSetBody,
} from "./checkpoint-digest-lines.ts";
import {
  completedBody,
  parseCompleted,
  parseUncommitted,
  uncommittedBody,
} from "./checkpoint-handover-lines.ts";
import {
  artifactsBody,
  bulletItems,
  cutLine,
  moreCount,
  NONE,
  nextUpLine,
  noneToNull,
  parseArtifacts,
  parseNextUp,
  parseRestoreHint,
  parseSessionLink,
  parseWords,
  pathOrNull,
  restoreHintBody,
  sessionLinkBody,
  splitCut,
  storedPath,
  wordLine,
} from "./checkpoint-lines.ts";
import type { CutList, CutText, SectionValues } from "./checkpoint-values.ts";
import {
  fixedBody,
  parseFixed,
  parseReadFirst,
  parseWorkItems,
  readFirstBody,
  workItemsBody,
} from "./checkpoint-lessons.ts";

// The checkpoint format: one row per section, in the order a checkpoint holds them. A row names
// the section (key, title), writes its body from a value, reads the value back from a body, and
// for the model's fields says when the 6 KB fit cuts it (rank: lower first) and what its cut line
// counts. Render and parse (checkpoint-format.ts) read this table only; everywhere else a section
// is named by its key. To add a section: add its value to SectionValues (checkpoint-values.ts),
// add a row here at the place it goes in the file, and fill the value where the checkpoint is
// written (checkpoint-format.ts for what every save knows, the writer's own data otherwise).

export interface SectionRow<V> {
  title: string;
  render: (v: V) => string;
  /** the body as written (heading escapes undone); never throws, reads older files too */
  parse: (body: string) => V;
  /** a model field: cut by the 6 KB fit in this order (lower first), counted as `+N more <noun>` */
  cut?: { rank: number; noun: string };
}

export type SectionTable = { [K in keyof SectionValues]: SectionRow<SectionValues[K]> };

/** A free-text model field: its text (null: none) and its cut count. */
function textField(title: string, rank: number, noun: string): SectionRow<CutText> {
  return {
    title,
    cut: { rank, noun },
    render: (v) =>
      [...(v.text !== null ? [v.text] : v.cut ? [] : [NONE]), ...cutLine(v.cut, noun)].join("\n"),
    parse: (body) => {
      const { lines, cut } = splitCut(body, noun);
      return { text: noneToNull(lines.join("\n")), cut };
    },
  };
}

/** A list model field: its bullets, what an empty list says, and its cut count. */
function listField(
  title: string,
  rank: number,
  noun: string,
  empty: string,
): SectionRow<CutList<string>> {
  return {
    title,
    cut: { rank, noun },
    render: (v) =>
      [v.items.length ? v.items.map((i) => `- ${i}`).join("\n") : empty, ...cutLine(v.cut, noun)]
        .join("\n")
        .replace(/^\n+/, ""),
    parse: (body) => {
      const { lines, cut } = splitCut(body, noun);
      const items = bulletItems(lines.join("\n")).filter((b) => b.toLowerCase() !== "none");
      return { items, cut };
    },
  };
}

/** A section whose value is its first line. */
const line = (title: string): SectionRow<string> => ({
  title,
  render: (v) => v,
  parse: (b) => firstLineOf(b) ?? "",
});

export const SECTIONS: SectionTable = {
  status: line("Status"),
  currentStage: { title: "Current stage", render: (v) => v ?? NONE, parse: noneToNull },
  task: line("Active task"),
  branch: {
    title: "Branch",
    render: exactLine,
    parse: (b) => readExactLine(firstLineOf(b) ?? ""),
  },
  head: {
    title: "Head",
    render: (v) => v ?? NO_HEAD_LINE,
    parse: (b) => readHeadLine(firstLineOf(b) ?? "") ?? null,
  },
  sessionId: {
    title: "Session ID",
    render: (v) => v ?? "unknown",
    parse: (b) => {
      const id = firstLineOf(b);
      return id && id !== "unknown" ? id : null;
    },
  },
  savedAt: line("Saved at"),
  sessionLink: { title: "Session link", render: sessionLinkBody, parse: parseSessionLink },
  intent: { title: "Last user intent", render: (v) => v ?? NONE, parse: noneToNull },
  planFile: {
    title: "Plan file",
    render: storedPath,
    parse: (b) => pathOrNull(firstLineOf(b)),
  },
  artifacts: { title: "In-flight artifacts", render: artifactsBody, parse: parseArtifacts },
  completed: { title: "Completed this session", render: completedBody, parse: parseCompleted },
  uncommitted: { title: "Uncommitted", render: uncommittedBody, parse: parseUncommitted },
  done: listField("Done this session", 4, "done items", ""),
  inProgress: textField("In progress", 6, "in-progress lines"),
  nextUp: {
    title: "Next up",
    cut: { rank: 5, noun: "next-up items" },
    render: (v) =>
      [v.items.map(nextUpLine).join("\n") || NONE, ...cutLine(v.cut, "next-up items")].join("\n"),
    parse: (b) => {
      const { lines, cut } = splitCut(b, "next-up items");
      return { items: bulletItems(lines.join("\n")).map(parseNextUp), cut };
    },
  },
  blockers: listField("Known blockers", 3, "blockers", "None"),
  openQuestions: textField("Open questions", 1, "open questions"),
  decisions: textField("Decisions made", 2, "decisions"),
  unfinished: textField("Unfinished work", 0, "unfinished-work lines"),
  lastWords: {
    title: "Last words",
    render: (v) => v.map(wordLine).join("\n"),
    parse: parseWords,
  },
  progress: {
    title: "Progress",
    render: (v) => [...moreLines(v.more, "progress lines"), ...v.items.map(wordLine)].join("\n"),
    parse: (b) => ({ items: parseWords(b), more: moreCount(b, "progress lines") }),
  },
  workItems: { title: "Work items", render: workItemsBody, parse: parseWorkItems },
  requests: { title: "Requests", render: requestsBody, parse: parseRequests },
  todos: { title: "Todos", render: todosBody, parse: parseTodos },
  workingSet: { title: "Working set", render: workingSetBody, parse: parseWorkingSet },
  readFirst: { title: "Read first", render: readFirstBody, parse: parseReadFirst },
  failures: { title: "Recent failures", render: failuresBody, parse: parseFailures },
  fixedAlongTheWay: { title: "Fixed along the way", render: fixedBody, parse: parseFixed },
  compactionSummary: { title: "Compaction summary", render: summaryBody, parse: parseSummary },
  transcriptDigest: {
    title: "Transcript digest",
    render: () => HISTORY_CUT,
    parse: (b) => /history cut short/.test(b),
  },
  notes: { title: "Notes", render: (v) => v.map((n) => `- ${n}`).join("\n"), parse: bulletItems },
  restoreHint: { title: "Restore hint", render: restoreHintBody, parse: parseRestoreHint },
};

export type SectionKey = keyof SectionValues;
export const SECTION_KEYS = Object.keys(SECTIONS) as SectionKey[];

/** A section's title, for the few readers that must find a heading without parsing the file. */
export const titleOf = (key: SectionKey): string => SECTIONS[key].title;
