import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import type { ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import type { CommitRef, CompletedItem } from "../store/checkpoint-values.ts";
import { commitExists, diffStat, statusPorcelain, type LogEntry } from "../core/git.ts";
import { commitsAfter, headNow, SINCE_COUNT_CAP, subjectsFromHead } from "./git-now.ts";
import { cut } from "../core/text-cut.ts";
import { boundedLines } from "../core/text-list.ts";
import { gitDriftLines } from "./git-drift.ts";
import { summarizeStatus, type StatusKind } from "./status-summary.ts";

/** A commit of the checkpoint found under a new hash: same subject, reachable from HEAD. */
export interface RebasedCommit extends CommitRef {
  /** the hash the checkpoint lists */
  was: string;
}

/**
 * Seed 001's reconciliation, with three states for a commit: each listed commit is present (its
 * hash), rebased (a commit reachable from HEAD with the same subject: the new hash), or not in
 * this clone; In progress is re-derived from git; drift against the plan and against git is listed.
 * Every list is bounded (a repository with 7,000 untracked paths costs a line of counts).
 */
export interface Reconciliation {
  /** false when git could not be run here (no repository) */
  git: boolean;
  confirmedCommits: CommitRef[];
  rebasedCommits: RebasedCommit[];
  /** listed in the checkpoint, in git under neither its hash nor its subject: not in this clone */
  droppedCommits: CommitRef[];
  /**
   * at most STATUS_ENTRIES lines of `git status --porcelain` now: the session's working set, then
   * what changed since the save (files untouched since, untracked ones already there among them,
   * are in the counts only)
   */
  status: string[];
  statusTotal: number;
  statusCounts: Partial<Record<StatusKind, number>>;
  /** `git diff --stat` now: the first DIFFSTAT_FILES file lines and the summary line */
  diffStat: string;
  /** commits after the save, counted up to SINCE_COUNT_CAP */
  commitsSinceSave: number;
  /** the newest few of them */
  newestSinceSave: LogEntry[];
  planFile: string | null;
  /** drift between the checkpoint and its plan, and the count of commits since the save */
  drift: string[];
  /** drift between the checkpoint and git now: files clean again, commits gone, files vanished */
  gitDrift: string[];
  /** carried forward: re-check each before starting */
  blockers: string[];
}

/** Listed commits checked against git (each costs a spawn); older checkpoints may list more. */
const COMMITS_CHECKED = 20;
const DIFFSTAT_FILES = 3;
const NEWEST_SINCE = 3;
const LINES = 8;

/** At most LINES entries of at most 240 characters, then `+N more <what>`. */
function capped(list: readonly string[], what: string): string[] {
  return boundedLines(list, LINES, what, (l) => cut(l, 240));
}

const TASK_ID = /\b([A-Z][A-Z0-9]*-\d+)\b/g;

function taskIds(text: string | undefined): string[] {
  return text ? [...new Set([...text.matchAll(TASK_ID)].map((m) => m[1]!))] : [];
}

/** Task ids a plan marks done (`- [x]`, a check glyph) or open (`- [ ]`). */
export function planTaskStates(plan: string): { done: Set<string>; open: Set<string> } {
  const done = new Set<string>();
  const open = new Set<string>();
  for (const line of plan.split("\n")) {
    const isDone = /^\s*(?:[-*]|\d+[.)])?\s*(?:\[[xX]\]|\u2713|\u2705)/.test(line);
    const isOpen = /^\s*(?:[-*]|\d+[.)])?\s*(?:\[ \]|\u23F3)/.test(line);
    for (const id of taskIds(line)) {
      if (isDone) done.add(id);
      else if (isOpen) open.add(id);
    }
  }
  return { done, open };
}

/** Drift between the checkpoint and its plan, one short line per finding. Pure. */
export function planDrift(
  plan: string,
  cp: ParsedCheckpoint,
  confirmed: readonly CommitRef[],
  dropped: readonly CommitRef[],
): string[] {
  const { done, open } = planTaskStates(plan);
  const out: string[] = [];
  for (const c of confirmed) {
    for (const id of taskIds(c.subject))
      if (open.has(id) && !done.has(id))
        out.push(`${id}: done in the checkpoint (${c.hash}), open in the plan`);
  }
  for (const c of dropped) {
    for (const id of taskIds(c.subject))
      if (done.has(id)) out.push(`${id}: done in the plan, but commit ${c.hash} is not in git`);
  }
  const pending = [...cp.nextUp.map((n) => n.item), cp.inProgress ?? ""].join("\n");
  for (const id of taskIds(pending))
    if (done.has(id))
      out.push(`${id}: still in progress or next up in the checkpoint, done in the plan`);
  return [...new Set(out)];
}

function isInside(root: string, full: string): boolean {
  const rel = path.relative(root, full);
  return !rel.startsWith("..") && !path.isAbsolute(rel);
}

function readInside(
  deps: Deps,
  root: string,
  file: string,
): { path: string; text: string; mtimeMs: number } | null {
  const full = path.resolve(root, file);
  // A plan path comes from a file on disk: read it only inside the project, symlinks resolved.
  if (!isInside(root, full)) return null;
  try {
    if (!isInside(deps.fs.realpathSync(root), deps.fs.realpathSync(full))) return null;
    const text = readTextByRule(deps.fs, full);
    return { path: full, text, mtimeMs: deps.fs.statSync(full).mtimeMs };
  } catch {
    return null;
  }
}

/** The plan a checkpoint tracks: the `planFile` section, else its current-plan.md, else docs/plan.md. */
function planFileFor(cp: ParsedCheckpoint): string | null {
  return cp.planFile ?? cp.artifacts.currentPlan ?? null;
}

/** Present, rebased, or not in this clone; a subject lookup only when some hash is unknown. */
function checkCommits(
  deps: Deps,
  root: string,
  commits: readonly CompletedItem[],
): Pick<Reconciliation, "confirmedCommits" | "rebasedCommits" | "droppedCommits"> {
  const out: Pick<Reconciliation, "confirmedCommits" | "rebasedCommits" | "droppedCommits"> = {
    confirmedCommits: [],
    rebasedCommits: [],
    droppedCommits: [],
  };
  let subjects: Map<string, string> | null = null;
  for (const c of commits.slice(0, COMMITS_CHECKED)) {
    const subject = c.subject;
    const rebasedFrom = c.state === "rebased" && c.oldHash !== "?" ? (c.oldHash ?? null) : null;
    if (commitExists(deps, root, c.hash)) {
      // the writer found it rebased already: its new hash, still marked
      if (rebasedFrom) out.rebasedCommits.push({ hash: c.hash, subject, was: rebasedFrom });
      else out.confirmedCommits.push({ hash: c.hash, subject });
      continue;
    }
    subjects ??= subjectsFromHead(deps, root);
    const now = subject ? subjects.get(subject) : undefined;
    if (now) out.rebasedCommits.push({ hash: now, subject, was: c.hash });
    else out.droppedCommits.push({ hash: c.hash, subject });
  }
  return out;
}

/** The checkpoint's working set as project-relative paths: its uncommitted files, then changed files. */
function workingSet(root: string, cp: ParsedCheckpoint): string[] {
  const rel = (p: string) => (path.isAbsolute(p) ? path.relative(root, p) : p);
  return [
    ...new Set([
      ...(cp.uncommitted ?? []).map((u) => u.path),
      ...cp.digest.changed.map((f) => f.path),
    ]),
  ]
    .map(rel)
    .filter((p) => p !== "" && !p.startsWith(".."));
}

function boundedDiffStat(stat: string): string {
  const lines = stat.split("\n").filter((l) => l.trim() !== "");
  if (lines.length <= DIFFSTAT_FILES + 1) return lines.join("\n");
  const files = lines.slice(0, -1);
  return [
    ...files.slice(0, DIFFSTAT_FILES),
    ` ... +${files.length - DIFFSTAT_FILES} more files`,
    lines.at(-1)!,
  ].join("\n");
}

function planDriftFor(
  deps: Deps,
  root: string,
  cp: ParsedCheckpoint,
  savedMs: number,
  commits: Pick<Reconciliation, "confirmedCommits" | "rebasedCommits" | "droppedCommits">,
): { planFile: string | null; drift: string[] } {
  const drift: string[] = [];
  const named = planFileFor(cp);
  const planPath = named ?? (readInside(deps, root, "docs/plan.md") ? "docs/plan.md" : null);
  if (planPath) {
    const plan = readInside(deps, root, planPath);
    if (!plan) drift.push(`plan file ${planPath} not found (or outside the project)`);
    else {
      if (Number.isFinite(savedMs) && plan.mtimeMs > savedMs)
        drift.push(`plan file ${planPath} changed after the checkpoint was saved`);
      const landed = [...commits.confirmedCommits, ...commits.rebasedCommits];
      drift.push(...planDrift(plan.text, cp, landed, commits.droppedCommits));
    }
  }
  return { planFile: planPath, drift };
}

export function reconcile(deps: Deps, root: string, cp: ParsedCheckpoint): Reconciliation {
  const status = statusPorcelain(deps, root);
  const git = status !== null;
  const commits = git
    ? checkCommits(deps, root, cp.values.completed?.commits ?? [])
    : { confirmedCommits: [], rebasedCommits: [], droppedCommits: [] };
  const savedMs = cp.savedAt ? Date.parse(cp.savedAt) : Number.NaN;
  const since = git && cp.savedAt ? commitsAfter(deps, root, cp.savedAt, cp.head) : [];
  const { planFile, drift } = planDriftFor(deps, root, cp, savedMs, commits);
  if (since.length > 0)
    drift.push(
      `${since.length}${since.length >= SINCE_COUNT_CAP ? "+" : ""} commit(s) since the checkpoint was saved`,
    );
  const set = workingSet(root, cp);
  // Entries outside the session's working set that did not change since the save (untracked
  // files that were already there, say) are counted, not listed.
  const changedSince = (rel: string): boolean => {
    if (!Number.isFinite(savedMs)) return true;
    try {
      return deps.fs.statSync(path.join(root, rel)).mtimeMs > savedMs;
    } catch {
      return true; // gone since: a change
    }
  };
  const summary = summarizeStatus(status ?? [], new Set(set), undefined, changedSince);
  const gitDrift = git
    ? gitDriftLines({
        status: status ?? [],
        headNow: cp.head ? headNow(deps, root) : null,
        handover: cp,
        dropped: commits.droppedCommits,
        workingSet: set,
        exists: (p) => deps.fs.existsSync(path.join(root, p)),
      })
    : [];
  return {
    git,
    ...commits,
    status: summary.entries,
    statusTotal: summary.total,
    statusCounts: summary.counts,
    diffStat: git ? boundedDiffStat(diffStat(deps, root) ?? "") : "",
    commitsSinceSave: since.length,
    newestSinceSave: since.slice(0, NEWEST_SINCE),
    planFile,
    drift: capped(drift, "drift findings"),
    gitDrift,
    blockers: capped(cp.blockers, "blockers"),
  };
}
