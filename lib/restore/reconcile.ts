import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import type { CommitRef, NextUp, ParsedCheckpoint } from "../store/checkpoint-format.ts";
import {
  commitExists,
  diffStat,
  recentCommits,
  statusPorcelain,
  type LogEntry,
} from "../core/git.ts";

/**
 * Seed 001's reconciliation: trust Completed / Next up / Blockers after checking the commit
 * hashes; re-derive In progress from git; list drift against the plan.
 */
export interface Reconciliation {
  /** false when git could not be run here (no repository) */
  git: boolean;
  confirmedCommits: CommitRef[];
  /** listed in the checkpoint but unknown to git: the work did not land; dropped as noise */
  droppedCommits: CommitRef[];
  /** `git status --porcelain` now, replacing the checkpoint's In progress prose */
  status: string[];
  diffStat: string;
  /** the checkpoint's In progress prose: a hint where to look, not fact */
  inProgressHint?: string;
  commitsSinceSave: LogEntry[];
  planFile: string | null;
  drift: string[];
  nextUp: NextUp[];
  /** carried forward: re-check each before starting */
  blockers: string[];
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
    const text = deps.fs.readFileSync(full, "utf8");
    return { path: full, text, mtimeMs: deps.fs.statSync(full).mtimeMs };
  } catch {
    return null;
  }
}

/** The plan a checkpoint tracks: `## Plan file`, else its current-plan.md, else docs/plan.md. */
function planFileFor(cp: ParsedCheckpoint): string | null {
  return cp.planFile ?? cp.artifacts.currentPlan ?? null;
}

export function reconcile(deps: Deps, root: string, cp: ParsedCheckpoint): Reconciliation {
  const status = statusPorcelain(deps, root);
  const git = status !== null;
  const confirmedCommits: CommitRef[] = [];
  const droppedCommits: CommitRef[] = [];
  for (const c of cp.commits)
    (git && commitExists(deps, root, c.hash) ? confirmedCommits : droppedCommits).push(c);

  const savedMs = cp.savedAt ? Date.parse(cp.savedAt) : Number.NaN;
  const commitsSinceSave =
    git && Number.isFinite(savedMs)
      ? recentCommits(deps, root, { max: 20, since: cp.savedAt }).filter(
          (e) => Date.parse(e.isoTime) > savedMs,
        )
      : [];

  const drift: string[] = [];
  const named = planFileFor(cp);
  const planPath = named ?? (readInside(deps, root, "docs/plan.md") ? "docs/plan.md" : null);
  if (planPath) {
    const plan = readInside(deps, root, planPath);
    if (!plan) drift.push(`plan file ${planPath} not found (or outside the project)`);
    else {
      if (Number.isFinite(savedMs) && plan.mtimeMs > savedMs)
        drift.push(`plan file ${planPath} changed after the checkpoint was saved`);
      drift.push(...planDrift(plan.text, cp, confirmedCommits, droppedCommits));
    }
  }
  if (commitsSinceSave.length > 0)
    drift.push(`${commitsSinceSave.length} commit(s) since the checkpoint was saved`);

  return {
    git,
    confirmedCommits,
    droppedCommits: git ? droppedCommits : [],
    status: status ?? [],
    diffStat: git ? (diffStat(deps, root) ?? "") : "",
    inProgressHint: cp.inProgress,
    commitsSinceSave,
    planFile: planPath,
    drift,
    nextUp: cp.nextUp,
    blockers: cp.blockers,
  };
}

/** A few lines for a person or a successor prompt. */
export function reconcileLines(r: Reconciliation): string[] {
  const lines: string[] = [];
  if (!r.git) lines.push("git: not a repository here; commits not checked");
  if (r.confirmedCommits.length)
    lines.push(`Completed (confirmed in git): ${r.confirmedCommits.map((c) => c.hash).join(", ")}`);
  if (r.droppedCommits.length)
    lines.push(`Dropped as noise (not in git): ${r.droppedCommits.map((c) => c.hash).join(", ")}`);
  if (r.git)
    lines.push(
      r.status.length
        ? `Working tree now: ${r.status.length} changed path(s)`
        : "Working tree now: clean",
    );
  if (r.diffStat)
    lines.push(
      ...r.diffStat
        .split("\n")
        .slice(-1)
        .map((l) => `  ${l.trim()}`),
    );
  for (const d of r.drift) lines.push(`Drift: ${d}`);
  for (const n of r.nextUp)
    lines.push(`Next up: ${n.item} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`);
  for (const b of r.blockers) lines.push(`Blocker (re-check): ${b}`);
  return lines;
}
