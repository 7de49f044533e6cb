import type { Deps } from "../core/deps.ts";
import { gitOutput as git, parseLogEntries, readHeadCheap, type LogEntry } from "../core/git.ts";

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
  const cheap = readHeadCheap(deps.fs, root);
  if (cheap) return cheap;
  const out = git(deps, root, ["rev-parse", "HEAD"])?.trim();
  return out && /^[0-9a-f]{40}$/i.test(out) ? out.toLowerCase() : null;
}

/** subject -> the newest short hash with it, over the SUBJECT_WINDOW commits reachable from HEAD. */
export function subjectsFromHead(deps: Deps, root: string): Map<string, string> {
  const out = git(deps, root, ["log", `-n${SUBJECT_WINDOW}`, "--format=%h%x09%s", "HEAD"]);
  const map = new Map<string, string>();
  for (const line of (out ?? "").split("\n")) {
    const tab = line.indexOf("\t");
    if (tab <= 0) continue;
    const subject = line.slice(tab + 1).trim();
    if (!map.has(subject)) map.set(subject, line.slice(0, tab));
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
  const format = "--format=%h%x09%cI%x09%s";
  if (head) {
    const out = git(deps, root, ["log", `-n${SINCE_COUNT_CAP}`, format, `${head}..HEAD`]);
    if (out !== null) return parseLogEntries(out);
  }
  const savedMs = Date.parse(savedAt);
  if (!Number.isFinite(savedMs)) return [];
  const out = git(deps, root, ["log", `-n${SINCE_COUNT_CAP}`, format, `--since=${savedAt}`]);
  return parseLogEntries(out).filter((e) => Date.parse(e.isoTime) > savedMs);
}
