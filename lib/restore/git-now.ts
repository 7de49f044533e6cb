import type { Deps } from "../core/deps.ts";
import { LOG_ENTRY_FIELDS, readHeadCheap, type LogEntry } from "../core/git.ts";
import { plainRunner, runTask } from "../core/git-run.ts";
import { headTask, logTask } from "../core/git-tasks.ts";

// The few git reads a restore brief adds to lib/core/git.ts's: HEAD now, the subjects reachable
// from HEAD (to find a rebased commit by its subject), and the commits since the save, counted.

/** How far back from HEAD a rebased commit is looked for by its subject. */
const SUBJECT_WINDOW = 2000;
/** Commits since the save are counted up to this; more reads as "1000+". */
export const SINCE_COUNT_CAP = 1000;

/**
 * The full sha HEAD points at now; null without a repository or a commit. Read from .git as the
 * save's `head` section was (readHeadCheap, no process); git itself only when the files do not say.
 */
export function headNow(deps: Deps, root: string): string | null {
  return readHeadCheap(deps.fs, root) ?? runTask(plainRunner(deps, root), headTask) ?? null;
}

/** subject -> the newest short hash with it, over the SUBJECT_WINDOW commits reachable from HEAD. */
export function subjectsFromHead(deps: Deps, root: string): Map<string, string> {
  const task = logTask(["hash", "subject"], [`-n${SUBJECT_WINDOW}`, "HEAD"]);
  const map = new Map<string, string>();
  for (const c of runTask(plainRunner(deps, root), task) ?? []) {
    const subject = c.subject.trim();
    if (c.hash && !map.has(subject)) map.set(subject, c.hash);
  }
  return map;
}

/**
 * The commits made since the save (newest first), up to SINCE_COUNT_CAP: those reachable from HEAD
 * and not from the checkpoint's `head` section when it recorded one (exact, even within the second of
 * the save); else, for older checkpoints, those committed after `savedAt`.
 */
export function commitsAfter(
  deps: Deps,
  root: string,
  savedAt: string,
  head?: string | null,
): LogEntry[] {
  const git = plainRunner(deps, root);
  const cap = `-n${SINCE_COUNT_CAP}`;
  if (head) {
    const since = runTask(git, logTask(LOG_ENTRY_FIELDS, [cap, `${head}..HEAD`]));
    if (since !== null) return since;
  }
  const savedMs = Date.parse(savedAt);
  if (!Number.isFinite(savedMs)) return [];
  const since = runTask(git, logTask(LOG_ENTRY_FIELDS, [cap, `--since=${savedAt}`])) ?? [];
  return since.filter((e) => Date.parse(e.isoTime) > savedMs);
}
