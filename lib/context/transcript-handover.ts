import { cut, flatLine as flat } from "../core/text-cut.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";
import { compareNames } from "../core/dir-listing.ts";
import { parseCommitOutput } from "../core/git-parse.ts";
import type { LastWord } from "../store/checkpoint-values.ts";

// What was happening, from the transcript alone (a fresh session needs more than the files
// touched): the model's last words, this session's own commits read from its `git commit` calls and
// the `[branch hash] subject` lines of their results, and the command key that tells a failure that
// still stands from one that passed later. Pure; transcript-digest.ts feeds it.

export type { LastWord };

/** A commit this session made, as its own tool result told it. */
export interface SessionCommit {
  hash: string;
  subject: string;
  branch: string;
  at: string | null;
  /** made by a subagent (a sidechain line or a subagents/ transcript) */
  subagent: boolean;
  /**
   * a `git merge` that printed no `[branch hash]` line: `fast-forward` (hash: the HEAD it moved to,
   * from `Updating a..b`) or `commit` (hash "": git named none; the save finds it in git)
   */
  merge?: "fast-forward" | "commit";
}

const LAST_WORDS_MAX = TEXT_LIMITS.lastWords;
// a reply that lays out the plan (a numbered list of 6 steps is about 600 characters) keeps its tail
const LAST_WORD_CHARS = TEXT_LIMITS.savedWordChars;
const LAST_WORDS_TOTAL_CHARS = TEXT_LIMITS.savedWordsChars;

/** An assistant text that is not the model's own words: the client's API error lines. */
export function isApiErrorText(text: string): boolean {
  return /^API Error\b/.test(text.trim()) || /^Request timed out/.test(text.trim());
}

/**
 * The newest replies, newest last: at most 5, each cut to 800 characters on one line, at most
 * 1,600 characters in all (older ones drop first; the newest is always kept).
 */
export function lastWordsOf(all: readonly LastWord[]): LastWord[] {
  const out: LastWord[] = [];
  let total = 0;
  for (let i = all.length - 1; i >= 0 && out.length < LAST_WORDS_MAX; i -= 1) {
    const text = cut(all[i]!.text, LAST_WORD_CHARS);
    if (text === "") continue;
    if (out.length > 0 && total + text.length > LAST_WORDS_TOTAL_CHARS) break;
    total += text.length;
    out.unshift({ text, at: all[i]!.at });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Progress: what the model said it finished, older than the last words

const PROGRESS = TEXT_LIMITS.progress;

// A reply that reports an outcome ("All 410 tests pass", "Task X is done", "Compiles clean").
const FINISHED =
  /\b(?:all \d+ tests? pass(?:ed)?|tests? pass(?:ed|es)?|\d+ tests?, 0 failures|is (?:now )?(?:done|complete|finished)|(?:done|completed|finished|fixed|closed|merged|committed|implemented|resolved)\b|compiles? clean)/i;
// An issue tracker's close or merge, run by the model: `bd close X`, `gh issue close 12`, `gh pr merge`.
const TRACKER_CLOSE =
  /^\s*(?:bd|br|gh|glab|jira|linear)\s+(?:issue\s+|pr\s+|mr\s+)?(?:close|merge|done|resolve)\b/;

/** A Bash command that closes a tracker item or merges a change, or null. */
export function trackerClose(command: string): string | null {
  const first = command.split(/\s*(?:&&|;|\|\|)\s*/).find((part) => TRACKER_CLOSE.test(part));
  return first ? `$ ${flat(first)}` : null;
}

/** A sentence that says what the model turns to next ("Now let me add the tests:"), not an outcome. */
const NEXT_STEP = /^(?:now,? )?(?:let me|let's|i'll|i will|i need to|next,? |then )/i;

/**
 * A report without the sentences after it that say what comes next: "All 59 existing tests pass.
 * Now let me add the new tests:" is kept as "All 59 existing tests pass." (the next step is the
 * last words' business); a reply whose first sentence is not the report is kept whole.
 */
function reportOnly(text: string): string {
  const sentences = text.trim().split(/(?<=[.!])\s+/);
  let end = sentences.length;
  while (end > 1 && NEXT_STEP.test(sentences[end - 1]!)) end -= 1;
  const kept = sentences.slice(0, end).join(" ");
  return FINISHED.test(kept) ? kept : text;
}

/**
 * The model's reports of what it finished, newest last: its replies that say an outcome, older
 * than the last words (which the reader already has), at most 5 (3 when it closed tracker items),
 * each cut to 200 characters, 800 in all, the newest kept; and the tracker items it closed (the newest 4, each with its reason cut
 * to 480 characters: the reason is what the item did).
 */
export function progressOf(
  words: readonly LastWord[],
  closes: readonly LastWord[],
  lastWords: readonly LastWord[],
): LastWord[] {
  const shown = new Set(lastWords.map((w) => `${w.at} ${w.text}`));
  const reports = words
    .filter((w) => FINISHED.test(w.text))
    .map((w) => ({ text: cut(reportOnly(w.text), PROGRESS.reportChars), at: w.at }))
    .filter(
      (w) =>
        !shown.has(`${w.at} ${w.text}`) &&
        !lastWords.some((l) => l.at === w.at && l.text.startsWith(w.text.slice(0, 40))),
    );
  const kept: LastWord[] = [];
  let total = 0;
  // beside the tracker's closes (which say what was finished, in its words) 3 reports are enough
  const max = closes.length ? PROGRESS.reportsWithCloses : PROGRESS.reports;
  for (let i = reports.length - 1; i >= 0 && kept.length < max; i -= 1) {
    const w = reports[i]!;
    if (kept.length > 0 && total + w.text.length > PROGRESS.totalChars) break;
    total += w.text.length;
    kept.push(w);
  }
  return [
    ...kept,
    // the newest closes are kept beside the reports, whatever the reports' limits
    ...closes
      .slice(-PROGRESS.closes)
      .map((c) => ({ text: cut(c.text, PROGRESS.closeChars), at: c.at })),
  ].sort((a, b) => compareNames(a.at ?? "", b.at ?? ""));
}

// ---------------------------------------------------------------------------------------------
// Commits

/** A `git` call that makes commits, anywhere in a compound command (`git add . && git commit ...`). */
const COMMITTING =
  /(?:^|[;&|(\s])git(?:\s+(?:-C|-c)\s+\S+)*\s+(commit|cherry-pick|revert|merge)(?=\s|$|[;&|)])([^;&|]*)/g;

export interface CommitCall {
  /** the sub-command that makes commits */
  verbs: string[];
  amend: boolean;
}

/** Whether a Bash command makes commits; null when it does not. */
export function commitCall(command: string): CommitCall | null {
  const verbs: string[] = [];
  let amend = false;
  for (const m of command.matchAll(COMMITTING)) {
    verbs.push(m[1]!);
    if (m[1] === "commit" && /(?:^|\s)--amend\b/.test(m[2] ?? "")) amend = true;
  }
  return verbs.length ? { verbs, amend } : null;
}

/** The commits a committing call's result reports, in order (merges too: see SessionCommit.merge). */
export function commitsInResult(
  text: string,
  at: string | null,
  subagent: boolean,
): SessionCommit[] {
  return parseCommitOutput(text).map((c) => ({
    hash: c.hash,
    subject: c.subject,
    branch: c.branch,
    at,
    subagent,
    ...(c.merge ? { merge: c.merge } : {}),
  }));
}

/** Adds one call's commits to the session's list: an amend replaces the commit it amended. */
export function addCommits(
  list: SessionCommit[],
  found: readonly SessionCommit[],
  amend: boolean,
): void {
  if (amend && found.length) {
    const i = list.map((c) => c.subagent === found[0]!.subagent).lastIndexOf(true);
    if (i >= 0) list.splice(i, 1);
  }
  for (const c of found) {
    // a merge commit git named no hash for is one entry per merge; a fast-forward to a commit
    // the session already lists adds nothing
    const same = c.hash ? list.findIndex((x) => x.hash === c.hash) : -1;
    if (same >= 0 && c.merge === "fast-forward") continue;
    if (same >= 0) list.splice(same, 1);
    list.push(c);
  }
}

// ---------------------------------------------------------------------------------------------
// Failures that still stand

/** Trailing pipes into a pager or filter: their exit says nothing about the command before them. */
const TRAILING_FILTER = /\s*\|\s*(?:tail|head|grep|less|cat)\b[^|]*$/;
const REDIRECTION = /\s*(?:\d?>>?&\d|&>>?\s*\S+|\d?>>?\s*\S+)/g;

/**
 * The key two runs of one command share: redirections (`2>&1`, `>file`) and trailing pipes into
 * tail, head, grep removed, whitespace normalised. `piped` when a filter was removed.
 */
export function commandKey(command: string): { key: string; piped: boolean } {
  let rest = command.replace(REDIRECTION, " ");
  let piped = false;
  for (;;) {
    const next = rest.replace(TRAILING_FILTER, "");
    if (next === rest) break;
    piped = true;
    rest = next;
  }
  return { key: flat(rest), piped };
}

/** Whether a run's output shows a failure (`3 failures`, `FAIL`, an `Error:` line); `0 failures` does not. */
export function outputShowsFailure(text: string): boolean {
  if (/\bFAIL(?:ED)?\b/.test(text)) return true;
  if (/^\s*(?:\S+\s)?Error:/m.test(text)) return true;
  return /\b[1-9]\d* (?:failures?|failed|errors?)\b/i.test(text);
}

/** Whether a later run of a failed command's key passed: no error and, when piped, no failure shown. */
export function runPassed(isError: boolean, piped: boolean, output: string): boolean {
  if (isError) return false;
  return !piped || !outputShowsFailure(output);
}
