import { NO_HEAD_LINE, readHeadLine } from "../core/git.ts";
import { exactLine, firstLineOf, readExactLine } from "../core/markdown-sections.ts";
import type {
  CheckedCommit,
  CommitState,
  CompletedItem,
  InFlightArtifacts,
  NextUp,
  SectionValues,
  UncommittedFile,
  UncommittedKind,
} from "./checkpoint-values.ts";

// The checkpoint format: one row per section, in the order a checkpoint holds them. A row names
// the section (key, title), writes its body from a value, reads the value back from a body, and
// for the model's fields says when the 6 KB fit cuts it and what a cut line counts. Render and
// parse (checkpoint-format.ts) read this table only; everywhere else a section is named by its key.
// To add a section: add its value to SectionValues (checkpoint-values.ts), add a row here at the
// place it goes in the file, and fill the value where the checkpoint is written.

export interface SectionRow<K extends keyof SectionValues> {
  title: string;
  render: (v: SectionValues[K]) => string;
  /** the body as written (heading escapes undone); never throws, reads older files too */
  parse: (body: string) => SectionValues[K];
  /** a model field: cut by the fit in this order (lower first), counted as `+N more <noun>` */
  cut?: { rank: number; noun: string };
}

export type SectionTable = { [K in keyof SectionValues]: SectionRow<K> };

const NONE = "(none)";
const NONE_FOUND = "(none found)";

/** Lines that are `- item` bullets (also `*` and `•`, as older and hand-written files use), their text trimmed. */
export function bulletItems(body: string | undefined): string[] {
  if (!body) return [];
  const out: string[] = [];
  for (const raw of body.split("\n")) {
    const m = /^[ \t]*[-*\u2022][ \t]+(\S.*)$/.exec(raw);
    if (m) out.push(m[1]!.trim());
  }
  return out;
}

function noneToNull(body: string): string | null {
  const t = body.trim();
  return t === "" || t === NONE || t === NONE_FOUND ? null : t;
}

/** A path as stored: exactly (exactLine), or "(none found)"; read back, "(...)" is no path. */
const storedPath = (p: string | null): string => (p ? exactLine(p) : NONE_FOUND);
function pathOrNull(value: string | undefined): string | null {
  const v = value?.trim();
  return !v || v.startsWith("(") ? null : readExactLine(v);
}

/** `+3 more decisions (cut to fit 6 KB)`: what the 6 KB fit took from a model field. */
export const CUT_LABEL = "cut to fit 6 KB";
const cutLine = (n: number, noun: string) => (n ? [`+${n} more ${noun} (${CUT_LABEL})`] : []);
function splitCut(body: string, noun: string): { lines: string[]; cut: number } {
  const lines = body.split("\n");
  const m = /^\+(\d+) more (.+) \(cut to fit 6 KB\)$/.exec(lines.at(-1)?.trim() ?? "");
  return m && m[2] === noun ? { lines: lines.slice(0, -1), cut: Number(m[1]) } : { lines, cut: 0 };
}

/** A free-text model field: its text (null: none) and its cut count. */
function textField(rank: number, noun: string): SectionRow<"inProgress"> {
  return {
    title: "",
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
function listField<K extends "done" | "blockers">(
  rank: number,
  noun: string,
  empty: string,
): SectionRow<K> {
  return {
    title: "",
    cut: { rank, noun },
    render: (v) =>
      [v.items.length ? v.items.map((i) => `- ${i}`).join("\n") : empty, ...cutLine(v.cut, noun)]
        .join("\n")
        .replace(/^\n+/, ""),
    parse: (body) => {
      const { lines, cut } = splitCut(body, noun);
      const items = bulletItems(lines.join("\n")).filter((b) => b.toLowerCase() !== "none");
      return { items, cut } as SectionValues[K];
    },
  };
}

const PREREQ = /\s*\(?prerequisites met\?\s*(yes|no)\)?\s*$/i;
const nextUpLine = (n: NextUp) =>
  `- ${n.item} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`;

const ARTIFACT_KEYS: [string, keyof InFlightArtifacts][] = [
  ["current-plan.md", "currentPlan"],
  ["architecture.md", "architecture"],
  ["latest critic-response", "criticResponse"],
  ["latest review", "review"],
  ["session-state", "sessionState"],
];

function parseArtifacts(body: string): InFlightArtifacts {
  const a: InFlightArtifacts = {
    currentPlan: null,
    architecture: null,
    criticResponse: null,
    review: null,
    sessionState: null,
    sessionStateResolution: null,
  };
  for (const item of bulletItems(body)) {
    const colon = item.indexOf(":");
    if (colon < 0) continue;
    const key = item.slice(0, colon).trim().toLowerCase();
    const value = item.slice(colon + 1).trim();
    const field = ARTIFACT_KEYS.find(([k]) => k === key)?.[1];
    if (field && field !== "sessionStateResolution") a[field] = pathOrNull(value);
    else if (key === "session-state-resolution")
      a.sessionStateResolution =
        value === "uuid-anchor" || value === "mtime-fallback" ? value : null;
  }
  return a;
}

const STATE_MARK: Record<CommitState, string> = {
  present: "",
  rebased: "",
  missing: " (not in this clone)",
  unchecked: " (unchecked)",
};

/** One `- hash subject (state) [subagent]` line of the completed section. */
export function commitLine(c: CompletedItem): string {
  if (c.loose) return `- ${c.subject}`;
  const state = c.state === "rebased" ? ` (rebased from ${c.oldHash ?? "?"})` : STATE_MARK[c.state];
  return `- ${c.hash} ${c.subject}${state}${c.subagent ? " [subagent]" : ""}`;
}

/** A completed-section bullet read back: hash, subject, state, subagent mark. */
export function parseCommitBullet(item: string): CheckedCommit | null {
  const m = /^([0-9a-f]{7,40})\b\s*(.*)$/i.exec(item);
  if (!m) return null;
  let subject = m[2]!.trim();
  const subagent = / ?\[subagent\]$/.test(subject);
  if (subagent) subject = subject.replace(/ ?\[subagent\]$/, "");
  let state: CommitState = "present";
  let oldHash: string | undefined;
  const rebased = / ?\(rebased from ([0-9a-f?]+)\)$/i.exec(subject);
  if (rebased) {
    state = "rebased";
    oldHash = rebased[1];
    subject = subject.slice(0, rebased.index);
  } else {
    for (const s of ["missing", "unchecked"] as const) {
      const mark = STATE_MARK[s].trimStart();
      if (!subject.endsWith(mark)) continue;
      state = s;
      subject = subject.slice(0, -mark.length).trimEnd();
      break;
    }
  }
  return {
    hash: m[1]!,
    subject: subject || item,
    state,
    ...(oldHash ? { oldHash } : {}),
    ...(subagent ? { subagent } : {}),
  };
}

const OTHER_COMMITS = /^(\d+) other commits? since this session started$/;
const otherCommitsLine = (n: number) =>
  `${n} other commit${n === 1 ? "" : "s"} since this session started`;

/** `- path (kind)`: the writer always ends a bullet with its kind, so the last `(word)` is the kind, whatever the word. */
const UNCOMMITTED = /^(.*\S)\s+\(([a-z]+)\)$/;
const KINDS: readonly string[] = [
  "modified",
  "added",
  "deleted",
  "untracked",
  "renamed",
  "unchecked",
] satisfies (UncommittedKind | "unchecked")[];

/**
 * An uncommitted-file bullet read back. The path is what comes before the last `(word)`: a kind
 * this reader does not know (a newer writer's) still leaves the path exact, and reads as
 * "modified" (changed somehow: listed, and checked against git status like any other).
 */
export function parseUncommittedBullet(item: string): UncommittedFile {
  const m = UNCOMMITTED.exec(item);
  if (!m) return { path: item, kind: "modified" };
  const kind = KINDS.includes(m[2]!) ? (m[2] as UncommittedFile["kind"]) : "modified";
  return { path: m[1]!, kind };
}

/** A `- 2026-12-01T10:04Z text` line (last words, progress); the time is optional. */
export const wordLine = (w: { at: string | null; text: string }) =>
  `- ${w.at ? `${w.at} ` : ""}${w.text}`;
function parseWords(body: string): { at: string | null; text: string }[] {
  return bulletItems(body)
    .filter((b) => b !== NONE)
    .map((b) => {
      const m = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+Z?)\s+(.*)$/.exec(b);
      return m ? { at: m[1]!, text: m[2]! } : { at: null, text: b };
    });
}

/** `+12 more read files` lines: the count of the first with `noun`, 0 when none. */
function moreCount(lines: readonly string[], noun: string): number {
  for (const l of lines) {
    const m = /^\+(\d+) more (.+)$/.exec(l.trim());
    if (m && m[2] === noun) return Number(m[1]);
  }
  return 0;
}
const moreLine = (n: number, noun: string) => (n > 0 ? [`+${n} more ${noun}`] : []);

export const requestLine = (r: SectionValues["requests"]["items"][number]) =>
  `- ${r.label}${r.at ? ` (${r.at})` : ""}: ${r.text}`;
const REQUEST_COUNT = /^\+(\d+) more requests \((\d+) typed in the read window\)$/;

export const TODO_MARK = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;
export const todoLine = (t: SectionValues["todos"]["items"][number]) =>
  `- ${TODO_MARK[t.status]} ${t.content}`;
const TODO_STATUS = new Map(Object.entries(TODO_MARK).map(([s, m]) => [m, s])) as Map<
  string,
  keyof typeof TODO_MARK
>;

export const fileLine = (f: { path: string; count: number }) =>
  `- ${f.path}${f.count > 1 ? ` (x${f.count})` : ""}`;
function parseFile(item: string): { path: string; count: number } {
  const m = /^(.*?) \(x(\d+)\)$/.exec(item);
  return m ? { path: m[1]!, count: Number(m[2]) } : { path: item, count: 1 };
}

export const failureLine = (f: SectionValues["failures"]["items"][number]) =>
  `- \`${f.command}\`${f.at ? ` (${f.at})` : ""}: ${f.error}`;

const HISTORY_CUT =
  "- history cut short: the read budget ended before the session's start; older requests and files are not listed";

function restoreHint(v: SectionValues["restoreHint"]): string {
  return `Run /checkpoint --restore in a fresh session to resume task '${v.task}' from branch '${exactLine(v.branch)}'.`;
}

export const SECTIONS: SectionTable = {
  status: { title: "Status", render: (v) => v, parse: (b) => firstLineOf(b) ?? "" },
  currentStage: {
    title: "Current stage",
    render: (v) => v ?? NONE,
    parse: noneToNull,
  },
  task: { title: "Active task", render: (v) => v, parse: (b) => firstLineOf(b) ?? "" },
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
      const line = firstLineOf(b);
      return line && line !== "unknown" ? line : null;
    },
  },
  savedAt: { title: "Saved at", render: (v) => v, parse: (b) => firstLineOf(b) ?? "" },
  sessionLink: {
    title: "Session link",
    render: (v) =>
      v.sessionId
        ? `- Resume: claude --resume ${v.sessionId}\n- JSONL: ~/.claude/projects/${v.projectHash}/${v.sessionId}.jsonl`
        : "- Resume: (session UUID unavailable)\n- JSONL: (session UUID unavailable)",
    parse: (b) => {
      const m = /^- JSONL: ~\/\.claude\/projects\/(.*)\/([^/]*)\.jsonl$/m.exec(b);
      return m ? { sessionId: m[2]!, projectHash: m[1]! } : { sessionId: null, projectHash: "" };
    },
  },
  intent: { title: "Last user intent", render: (v) => v ?? NONE, parse: noneToNull },
  planFile: {
    title: "Plan file",
    render: storedPath,
    parse: (b) => pathOrNull(firstLineOf(b)),
  },
  artifacts: {
    title: "In-flight artifacts",
    render: (a) =>
      [
        ...ARTIFACT_KEYS.map(([label, k]) => `- ${label}: ${storedPath(a[k])}`),
        `- session-state-resolution: ${a.sessionStateResolution ?? NONE}`,
      ].join("\n"),
    parse: parseArtifacts,
  },
  completed: {
    title: "Completed this session",
    render: (v) =>
      [
        ...v.commits.map(commitLine),
        ...moreLine(v.more, "commits"),
        ...(v.commits.length || v.more ? [] : [NONE]),
        ...(v.otherCommits ? [otherCommitsLine(v.otherCommits)] : []),
        ...(v.gitNote ? [v.gitNote] : []),
      ].join("\n"),
    parse: (b) => {
      const commits: CompletedItem[] = [];
      let otherCommits: number | null = null;
      const notes: string[] = [];
      for (const raw of b.split("\n")) {
        const line = raw.trim();
        const item = bulletItems(raw)[0];
        const other = OTHER_COMMITS.exec(line);
        if (item !== undefined) {
          const checked = parseCommitBullet(item);
          const loose = /\b([0-9a-f]{7,40})\b/i.exec(item);
          if (checked) commits.push(checked);
          else if (loose)
            commits.push({ hash: loose[1]!, subject: item, state: "present", loose: true });
        } else if (other) otherCommits = Number(other[1]);
        else if (line !== "" && line !== NONE && !/^\+\d+ more commits$/.test(line))
          notes.push(line);
      }
      const more = moreCount(b.split("\n"), "commits");
      return { commits, more, otherCommits, gitNote: notes.length ? notes.join("\n") : null };
    },
  },
  uncommitted: {
    title: "Uncommitted",
    render: (v) =>
      v.files.length
        ? [...v.files.map((f) => `- ${f.path} (${f.kind})`), ...moreLine(v.more, "files")].join(
            "\n",
          )
        : NONE,
    parse: (b) => ({
      files: bulletItems(b).map(parseUncommittedBullet),
      more: moreCount(b.split("\n"), "files"),
    }),
  },
  done: { ...listField<"done">(4, "done items", ""), title: "Done this session" },
  inProgress: { ...textField(6, "in-progress lines"), title: "In progress" },
  nextUp: {
    title: "Next up",
    cut: { rank: 5, noun: "next-up items" },
    render: (v) =>
      [v.items.map(nextUpLine).join("\n") || NONE, ...cutLine(v.cut, "next-up items")].join("\n"),
    parse: (b) => {
      const { lines, cut } = splitCut(b, "next-up items");
      const items = bulletItems(lines.join("\n")).map((item) => ({
        item: item.replace(PREREQ, "").trim(),
        prerequisitesMet: PREREQ.exec(item)?.[1]?.toLowerCase() === "yes",
      }));
      return { items, cut };
    },
  },
  blockers: { ...listField<"blockers">(3, "blockers", "None"), title: "Known blockers" },
  openQuestions: { ...textField(1, "open questions"), title: "Open questions" },
  decisions: { ...textField(2, "decisions"), title: "Decisions made" },
  unfinished: { ...textField(0, "unfinished-work lines"), title: "Unfinished work" },
  lastWords: {
    title: "Last words",
    render: (v) => v.map(wordLine).join("\n"),
    parse: parseWords,
  },
  progress: {
    title: "Progress",
    render: (v) => [...moreLine(v.more, "progress lines"), ...v.items.map(wordLine)].join("\n"),
    parse: (b) => ({ items: parseWords(b), more: moreCount(b.split("\n"), "progress lines") }),
  },
  requests: {
    title: "Requests",
    render: (v) =>
      [
        ...v.items.map(requestLine),
        ...(v.more > 0 ? [`+${v.more} more requests (${v.count} typed in the read window)`] : []),
      ].join("\n"),
    parse: (b) => {
      const items = bulletItems(b).map((item) => {
        const m = /^(first|earlier|newest)(?: \(([^)]*)\))?: (.*)$/.exec(item);
        return m
          ? { text: m[3]!, at: m[2] ?? null, label: m[1] as "first" | "earlier" | "newest" }
          : { text: item, at: null, label: null };
      });
      const tail = b
        .split("\n")
        .map((l) => REQUEST_COUNT.exec(l.trim()))
        .find((m) => m);
      return tail
        ? { items, more: Number(tail[1]), count: Number(tail[2]) }
        : { items, more: 0, count: items.length };
    },
  },
  todos: {
    title: "Todos",
    render: (v) =>
      [...v.items.map(todoLine), ...moreLine(v.more, "todos")].join("\n") || "(empty list)",
    parse: (b) => ({
      items: bulletItems(b).flatMap((item) => {
        const status = TODO_STATUS.get(item.slice(0, 3));
        return status ? [{ status, content: item.slice(4) }] : [];
      }),
      more: moreCount(b.split("\n"), "todos"),
    }),
  },
  workingSet: {
    title: "Working set",
    render: (v) =>
      [
        "Changed (newest first):",
        ...(v.changed.length ? v.changed.map(fileLine) : [NONE]),
        ...moreLine(v.changedMore, "changed files"),
        "Read (newest first):",
        ...(v.read.length ? v.read.map(fileLine) : [NONE]),
        ...moreLine(v.readMore, "read files"),
      ].join("\n"),
    parse: (b) => {
      const v = {
        changed: [],
        read: [],
        changedMore: 0,
        readMore: 0,
      } as SectionValues["workingSet"];
      let into: "changed" | "read" | null = null;
      for (const raw of b.split("\n")) {
        const line = raw.trim();
        if (/^changed\b/i.test(line)) into = "changed";
        else if (/^read\b/i.test(line)) into = "read";
        else if (into && line.startsWith("- ")) v[into].push(parseFile(line.slice(2)));
      }
      v.changedMore = moreCount(b.split("\n"), "changed files");
      v.readMore = moreCount(b.split("\n"), "read files");
      return v;
    },
  },
  failures: {
    title: "Recent failures",
    render: (v) => [...v.items.map(failureLine), ...moreLine(v.more, "failures")].join("\n"),
    parse: (b) => ({
      items: bulletItems(b).map((item) => {
        const m = /^`([^`]*)`(?: \(([^)]*)\))?: (.*)$/.exec(item);
        return m
          ? { command: m[1]!, at: m[2] ?? null, error: m[3]! }
          : { command: item, at: null, error: "" };
      }),
      more: moreCount(b.split("\n"), "failures"),
    }),
  },
  compactionSummary: {
    title: "Compaction summary",
    render: (v) => `- transcript: ${v.transcript}\n- line uuid: ${v.uuid}`,
    parse: (b) => {
      const items = bulletItems(b);
      const after = (p: string) => items.find((i) => i.startsWith(p))?.slice(p.length) ?? "";
      return { transcript: after("transcript: "), uuid: after("line uuid: ") };
    },
  },
  transcriptDigest: {
    title: "Transcript digest",
    render: () => HISTORY_CUT,
    parse: (b) => /history cut short/.test(b),
  },
  notes: {
    title: "Notes",
    render: (v) => v.map((n) => `- ${n}`).join("\n"),
    parse: bulletItems,
  },
  restoreHint: {
    title: "Restore hint",
    render: restoreHint,
    parse: (b) => {
      const m = /resume task '(.*)' from branch '(.*)'\.$/.exec(firstLineOf(b) ?? "");
      return m ? { task: m[1]!, branch: readExactLine(m[2]!) } : { task: "", branch: "" };
    },
  },
};

export type SectionKey = keyof SectionValues;
export const SECTION_KEYS = Object.keys(SECTIONS) as SectionKey[];

/** A section's title, for the few readers that must find a heading without parsing the file. */
export const titleOf = (key: SectionKey): string => SECTIONS[key].title;
