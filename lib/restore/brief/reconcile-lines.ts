import type { CommitRef } from "../../store/checkpoint-values.ts";
import type { Reconciliation } from "../reconcile.ts";
import { statusCountsLine } from "../status-summary.ts";

// Reconciliation's findings in words, for the brief and a successor's prompt.

const commitLine = (c: CommitRef) => `${c.hash}${c.subject ? ` ${c.subject}` : ""}`;

/** The path of a `git status --short` entry (the new path of a rename). */
const statusPath = (entry: string) =>
  entry
    .slice(3)
    .replace(/^.* -> /, "")
    .replace(/^"(.*)"$/, "$1");

/** Whether a status entry is one of `known` or a folder holding one (`?? lib/spotter/`). */
function coversKnown(entry: string, known: ReadonlySet<string>, dirs: readonly string[]): boolean {
  const p = statusPath(entry);
  if (known.has(p)) return true;
  return p.endsWith("/") && dirs.some((k) => k.startsWith(p));
}

/** A few lines for a person or a successor prompt; each fact once (next up and the like are the checkpoint's). */
export function reconcileLines(
  r: Reconciliation,
  opts: {
    drift?: boolean;
    tree?: boolean;
    blockers?: boolean;
    /** paths said already (the uncommitted list): their entries are not listed again */
    known?: readonly string[];
  } = {},
): string[] {
  const lines: string[] = [];
  if (!r.git) lines.push("git: not a repository here; commits not checked");
  for (const c of r.confirmedCommits) lines.push(`Commit (present in git): ${commitLine(c)}`);
  for (const c of r.rebasedCommits)
    lines.push(`Commit (rebased: now ${c.hash}, listed as ${c.was}): ${c.subject}`);
  // a listed commit not in this clone is said once, by its drift line (driftLines)
  if (r.git && opts.tree !== false) lines.push(workingTreeLine(r));
  const known = new Set(opts.known ?? []);
  const dirs = [...known];
  const status = r.status.filter((s) => !coversKnown(s, known, dirs));
  const said = r.status.length - status.length;
  if (r.git && opts.tree === false && status.length)
    lines.push(
      said
        ? `Other working tree entries (${status.length} of ${r.statusTotal}):`
        : `Working tree entries (${status.length} of ${r.statusTotal}):`,
    );
  if (r.git) for (const s of status) lines.push(`  ${s}`);
  const statLast = r.diffStat.split("\n").at(-1)?.trim();
  // git diff --stat counts tracked files only: said so beside a count of every changed path
  if (statLast)
    lines.push(
      `${status.length || opts.tree !== false ? " " : "Diff of tracked files:"} ${statLast}`,
    );
  if (opts.drift !== false) lines.push(...driftLines(r));
  for (const c of r.newestSinceSave) lines.push(`  since the save: ${c.hash} ${c.subject}`);
  if (opts.blockers !== false) lines.push(...blockerLines(r));
  return lines;
}

/** The drift flags, against git first, then against the plan. */
export function driftLines(r: Reconciliation): string[] {
  return [...r.gitDrift, ...r.drift].map((d) => `Drift: ${d}`);
}

/** `Working tree now: 7501 changed path(s): 500 modified, 7001 untracked; the first 20, ...`. */
export function workingTreeLine(r: Reconciliation): string {
  const shown =
    r.status.length < r.statusTotal
      ? `; listed: ${r.status.length}, the session's files and what changed since the save`
      : "";
  return `Working tree now: ${statusCountsLine({ total: r.statusTotal, counts: r.statusCounts })}${shown}`;
}

/** The blockers the checkpoint carries, to re-check before starting. */
export function blockerLines(r: Reconciliation): string[] {
  return r.blockers.map((b) => `Blocker (re-check): ${b}`);
}
