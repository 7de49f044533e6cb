import { sanitizeBody } from "../core/markdown-sections.ts";
import { FLOOR } from "./checkpoint-budget.ts";

// The handover sections of a checkpoint (the on-disk contract every
// helper reads):
// `## Last words`, `## Completed this session` filled from the session's own commits checked
// against git, and `## Uncommitted`. Old checkpoints lack them: a missing section parses as
// "not recorded", never an error.

export interface CheckpointWord {
  text: string;
  at: string | null;
}

/** present: the hash is in this clone; rebased: same subject reachable from HEAD, new hash; missing: not in this clone; unchecked: no git was asked. */
export type CommitState = "present" | "rebased" | "missing" | "unchecked";

export interface CheckedCommit {
  hash: string;
  subject: string;
  state: CommitState;
  /** the hash the transcript told, when rebased */
  oldHash?: string;
  subagent?: boolean;
}

export type UncommittedKind = "modified" | "added" | "deleted" | "untracked" | "renamed";
export interface UncommittedFile {
  path: string;
  kind: UncommittedKind | "unchecked";
}

/** What the git check at save time found (lib/save/session-git.ts), or the transcript alone. */
export interface Handover {
  commits: readonly CheckedCommit[];
  /** commits since the session's first request that are not this session's; null: not counted */
  otherCommits: number | null;
  /** null: not checked against git status */
  uncommitted: readonly UncommittedFile[] | null;
  /** one line when git was skipped or did not answer in time */
  gitNote: string | null;
}

const one = (s: string, max: number) => {
  const f = sanitizeBody(s.replace(/\s+/g, " ").trim());
  return f.length <= max ? f : `${f.slice(0, max - 3).trimEnd()}...`;
};

/** `2026-12-01T10:04Z` from an ISO time; "" when none. */
function minuteOf(at: string | null): string {
  if (!at) return "";
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? "" : `${d.toISOString().slice(0, 16)}Z`;
}

export function lastWordsBody(words: readonly CheckpointWord[]): string {
  return words
    .map((w) => `- ${minuteOf(w.at) ? `${minuteOf(w.at)} ` : ""}${one(w.text, 300)}`)
    .join("\n");
}

function commitBullet(c: CheckedCommit, clean: (s: string) => string = sanitizeBody): string {
  const subject = clean(c.subject).replace(/\n/g, " ");
  const state =
    c.state === "rebased"
      ? ` (rebased from ${c.oldHash ?? "?"})`
      : c.state === "missing"
        ? " (not in this clone)"
        : c.state === "unchecked"
          ? " (unchecked)"
          : "";
  return `- ${c.hash} ${subject}${state}${c.subagent ? " [subagent]" : ""}`;
}

/** The one `## Completed this session` body: at most 10 commit bullets, then the other-commits count. */
export function completedBody(h: Handover, clean: (s: string) => string = sanitizeBody): string {
  const shown = h.commits.slice(-FLOOR.commitLines);
  const lines = shown.map((c) => commitBullet(c, clean));
  if (h.commits.length > shown.length)
    lines.push(`+${h.commits.length - shown.length} more commits`);
  if (!lines.length) lines.push("(none)");
  if (h.otherCommits)
    lines.push(
      `${h.otherCommits} other commit${h.otherCommits === 1 ? "" : "s"} since this session started`,
    );
  if (h.gitNote) lines.push(h.gitNote);
  return lines.join("\n");
}

export function uncommittedBody(files: readonly UncommittedFile[]): string {
  if (!files.length) return "(none)";
  const shown = files.slice(0, FLOOR.uncommittedFiles);
  const lines = shown.map((f) => `- ${one(f.path, 300)} (${f.kind})`);
  if (files.length > shown.length) lines.push(`+${files.length - shown.length} more files`);
  return lines.join("\n");
}

const bulletsOf = (body: string | undefined) =>
  (body ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));

/** `## Last words` parsed; null when the checkpoint has no such section. */
export function parseLastWords(body: string | undefined): CheckpointWord[] | null {
  if (body === undefined) return null;
  return bulletsOf(body).map((item) => {
    const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\dZ) (.*)$/.exec(item);
    return m ? { at: m[1]!, text: m[2]! } : { at: null, text: item };
  });
}

/** One `## Completed this session` bullet parsed: hash, subject, state, subagent mark. */
export function parseCommitBullet(item: string): CheckedCommit | null {
  const m = /^([0-9a-f]{7,40})\b\s*(.*)$/i.exec(item);
  if (!m) return null;
  let subject = m[2]!.trim();
  const subagent = subject.endsWith(" [subagent]");
  if (subagent) subject = subject.slice(0, -" [subagent]".length);
  let state: CommitState = "present";
  let oldHash: string | undefined;
  const rebased = / \(rebased from ([0-9a-f?]+)\)$/.exec(subject);
  if (rebased) {
    state = "rebased";
    oldHash = rebased[1];
    subject = subject.slice(0, rebased.index);
  } else if (subject.endsWith(" (not in this clone)")) {
    state = "missing";
    subject = subject.slice(0, -" (not in this clone)".length);
  } else if (subject.endsWith(" (unchecked)")) {
    state = "unchecked";
    subject = subject.slice(0, -" (unchecked)".length);
  }
  return {
    hash: m[1]!,
    subject: subject || item,
    state,
    ...(oldHash ? { oldHash } : {}),
    ...(subagent ? { subagent } : {}),
  };
}

/** "N other commits since this session started" of a `## Completed this session` body, or null. */
export function parseOtherCommits(body: string | undefined): number | null {
  const m = /^(\d+) other commits? since this session started$/m.exec(body ?? "");
  return m ? Number(m[1]) : null;
}

/** `## Uncommitted` parsed; null when the checkpoint has no such section. */
export function parseUncommitted(body: string | undefined): UncommittedFile[] | null {
  if (body === undefined) return null;
  return bulletsOf(body).map((item) => {
    const m = /^(.*) \((modified|added|deleted|untracked|renamed|unchecked)\)$/.exec(item);
    return m
      ? { path: m[1]!, kind: m[2] as UncommittedFile["kind"] }
      : { path: item, kind: "modified" };
  });
}
