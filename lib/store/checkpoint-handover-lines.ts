import { moreLines } from "../core/text-list.ts";
import { bulletItems, moreCount, NONE } from "./checkpoint-lines.ts";
import type {
  CheckedCommit,
  CommitState,
  CompletedItem,
  SectionValues,
  UncommittedFile,
  UncommittedKind,
} from "./checkpoint-values.ts";

// The bodies of the completed and uncommitted sections: this session's commits with what git
// said of each, the count of other commits, and the files left uncommitted.

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

/** The line a section from the transcript holds when the save found no transcript. */
export const unknownLine = (path: string) => `(unknown: no transcript at ${path})`;
const UNKNOWN = /^\(unknown: no transcript at (.*)\)$/;
const NOT_KNOWN = "(git status's files: not known to be this session's)";

/**
 * The empty line of a session that made no commits but closed tracker items: "(none)" alone reads
 * as "nothing done". The closes themselves are in ## Progress (said once, there).
 */
export const noCommitsLine = (closed: number) =>
  `(no commits this session; ${closed} work item${closed === 1 ? "" : "s"} closed: see ## Progress)`;
const NO_COMMITS = /^\(no commits this session; (\d+) work items? closed: see ## Progress\)$/;

export const completedBody = (v: SectionValues["completed"]) =>
  [
    ...v.commits.map(commitLine),
    ...moreLines(v.more, "commits"),
    ...(v.commits.length || v.more
      ? []
      : [v.unknown ? unknownLine(v.unknown) : v.closedItems ? noCommitsLine(v.closedItems) : NONE]),
    ...(v.otherCommits
      ? [
          `${v.otherCommits} other commit${v.otherCommits === 1 ? "" : "s"} since this session started`,
        ]
      : []),
    ...(v.gitNote ? [v.gitNote] : []),
  ].join("\n");

/** The completed section read back; a bullet that only names a hash (older files) is a loose item. */
export function parseCompleted(body: string): SectionValues["completed"] {
  const commits: CompletedItem[] = [];
  let otherCommits: number | null = null;
  let unknown: string | undefined;
  let closedItems: number | undefined;
  const notes: string[] = [];
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    const item = bulletItems(raw)[0];
    const other = OTHER_COMMITS.exec(line);
    const missing = UNKNOWN.exec(line);
    const noCommits = NO_COMMITS.exec(line);
    if (missing) unknown = missing[1]!;
    else if (noCommits) closedItems = Number(noCommits[1]);
    else if (item !== undefined) {
      const checked = parseCommitBullet(item);
      const loose = /\b([0-9a-f]{7,40})\b/i.exec(item);
      if (checked) commits.push(checked);
      else if (loose)
        commits.push({ hash: loose[1]!, subject: item, state: "present", loose: true });
    } else if (other) otherCommits = Number(other[1]);
    else if (line !== "" && line !== NONE && !/^\+\d+ more commits$/.test(line)) notes.push(line);
  }
  return {
    commits,
    more: moreCount(body, "commits"),
    otherCommits,
    gitNote: notes.length ? notes.join("\n") : null,
    ...(unknown !== undefined ? { unknown } : {}),
    ...(closedItems !== undefined ? { closedItems } : {}),
  };
}

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

export const uncommittedBody = (v: SectionValues["uncommitted"]) =>
  [
    ...(v.notKnown ? [NOT_KNOWN] : []),
    ...(v.files.length
      ? [...v.files.map((f) => `- ${f.path} (${f.kind})`), ...moreLines(v.more, "files")]
      : [NONE]),
  ].join("\n");
export const parseUncommitted = (body: string): SectionValues["uncommitted"] => ({
  files: bulletItems(body).map(parseUncommittedBullet),
  more: moreCount(body, "files"),
  ...(body.split("\n").some((l) => l.trim() === NOT_KNOWN) ? { notKnown: true as const } : {}),
});
