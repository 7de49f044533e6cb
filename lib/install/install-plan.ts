import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { changedLines } from "../core/line-diff.ts";
import { utcIso } from "../core/time-format.ts";
import { ENGINE_BUNDLE, type InstallLayout } from "./install-layout.ts";
import { enginePathCommand } from "./install-invocation.ts";

// The installer in two halves: installer.ts computes every write, move and settings
// edit once, as a plan; --dry-run prints it (describePlan), an install performs it (applyPlan).
// Neither half asks whether this is a dry run, so what is printed is what is done.

export type InstallStep =
  /** a file written whole (a bundle, a skill, the install state) */
  | { kind: "write"; to: string; text: string }
  /**
   * settings.json edited: the previous text goes to backups/ first; `aside`: the file only held
   * quoin's entries and moves to backups/ whole instead
   */
  | { kind: "settings"; file: string; before: string | null; after: string; aside: boolean }
  /** a file or folder moved to backups/, at its path under the config folder (or `as`, relative) */
  | { kind: "move"; from: string; why?: string; as?: string }
  /** a folder removed when nothing is left in it (one the install created, or a shared one) */
  | { kind: "remove-empty"; dir: string };

/** A line that reads differently before (`--dry-run`) and after the fact. */
export interface Said {
  done: string;
  dryRun: string;
}

export interface InstallPlan {
  action: "install" | "uninstall";
  layout: InstallLayout;
  /** in the order they are applied */
  steps: InstallStep[];
  /** lines after the steps (what stays, what was already there) */
  notes: Said[];
}

/** A plan, or why there is none (nothing was written). */
export type Planned = { ok: true; plan: InstallPlan } | { ok: false; reason: string };

export const said = (line: string): Said => ({ done: line, dryRun: line });

/** The plan in words: one line a step, the settings diff on --dry-run, then the notes. */
export function describePlan(
  plan: InstallPlan,
  dryRun: boolean,
  deps?: Pick<Deps, "fs">,
): string[] {
  const v = (verb: string) => (dryRun ? `would ${verb}` : verb);
  const lines: string[] = [];
  for (const step of plan.steps) {
    if (step.kind === "write") lines.push(`[quoin] ${v("write")} ${step.to}`);
    else if (step.kind === "remove-empty") {
      if (deps?.fs.existsSync(step.dir) ?? true)
        lines.push(`[quoin] ${v("remove")} ${step.dir} once empty`);
    } else if (step.kind === "move") {
      const why = step.why ? ` (${step.why})` : "";
      lines.push(`[quoin] ${v("move")} ${step.from}${why} to ${plan.layout.backupsDir}`);
    } else {
      const verb = step.aside ? "move aside (it only held quoin's entries)" : "update";
      const created = step.before === null && plan.action === "install" ? " (new file)" : "";
      lines.push(`[quoin] ${v(verb)} ${step.file}${created}`);
      if (dryRun) lines.push(...changedLines(step.before ?? "", step.after));
    }
  }
  for (const note of plan.notes) lines.push(`[quoin] ${dryRun ? note.dryRun : note.done}`);
  return lines;
}

/** Where to write a file that may be a symlink (dotfile managers): its target, so the link survives. */
function writeTarget(deps: Deps, file: string): string {
  try {
    return deps.fs.lstatSync(file).isSymbolicLink() ? deps.fs.realpathSync(file) : file;
  } catch {
    return file;
  }
}

/** Keep the file's permission bits (a private settings.json stays private). */
function modeOf(deps: Deps, file: string): number {
  try {
    return Number(deps.fs.statSync(file).mode) & 0o777;
  } catch {
    return 0o644;
  }
}

/** A fresh folder under backups/ (never reused), for settings copies and moved files. */
function freshBackupDir(deps: Deps, layout: InstallLayout, what: string): string {
  const base = path.join(layout.backupsDir, `${utcIso(deps.now()).replace(/:/g, "")}-${what}`);
  for (let n = 1; ; n += 1) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (!deps.fs.existsSync(dir)) {
      deps.fs.mkdirSync(dir, { recursive: true });
      return dir;
    }
  }
}

function applySettings(
  deps: Deps,
  step: Extract<InstallStep, { kind: "settings" }>,
  backups: () => string,
): string[] {
  if (step.before === null) {
    writeAtomic(deps.fs, writeTarget(deps, step.file), step.after, {
      pid: deps.pid,
      mode: modeOf(deps, step.file),
    });
    return [];
  }
  const copy = path.join(backups(), "settings.json");
  if (step.aside) deps.fs.renameSync(step.file, copy);
  else {
    writeAtomic(deps.fs, copy, step.before, { pid: deps.pid, mode: 0o600 });
    writeAtomic(deps.fs, writeTarget(deps, step.file), step.after, {
      pid: deps.pid,
      mode: modeOf(deps, step.file),
    });
  }
  return [`[quoin] backup of the previous settings: ${copy}`];
}

/**
 * Perform the plan, step by step in its order, with one backup folder for the run (made when a
 * step needs it). Returns what was done beyond the plan's own lines: the backup paths and the
 * closing line.
 */
export function applyPlan(deps: Deps, plan: InstallPlan): string[] {
  const { layout } = plan;
  const lines: string[] = [];
  let backupDir: string | undefined;
  const backups = () => (backupDir ??= freshBackupDir(deps, layout, plan.action));
  for (const step of plan.steps) {
    if (step.kind === "write") writeAtomic(deps.fs, step.to, step.text, { pid: deps.pid });
    else if (step.kind === "settings") lines.push(...applySettings(deps, step, backups));
    else if (step.kind === "remove-empty") removeIfEmpty(deps, step.dir);
    else {
      const target = path.join(backups(), step.as ?? path.relative(layout.configDir, step.from));
      deps.fs.mkdirSync(path.dirname(target), { recursive: true });
      deps.fs.renameSync(step.from, target);
    }
  }
  if (backupDir) pruneBackups(deps, path.dirname(backupDir), backupDir);
  if (plan.action === "install")
    lines.push(
      `[quoin] check it with: ${enginePathCommand(path.join(layout.bundleDir, ENGINE_BUNDLE))} doctor`,
    );
  else if (backupDir) lines.push(`[quoin] uninstalled; removed files are kept in ${backupDir}`);
  return lines;
}

function removeIfEmpty(deps: Deps, dir: string): void {
  try {
    if ((deps.fs.readdirSync(dir) as string[]).length === 0)
      deps.fs.rmSync(dir, { recursive: true });
  } catch {
    // gone already, or not ours to read: left as it is
  }
}

/** Backups kept whatever their age; older ones go only past BACKUP_MAX_AGE_DAYS. */
export const BACKUPS_KEPT = 5;
export const BACKUP_MAX_AGE_DAYS = 30;

/**
 * Keep the backups folder bounded: the newest BACKUPS_KEPT runs stay; an older run's folder is
 * deleted once it is past BACKUP_MAX_AGE_DAYS (by the time in its name). `keep`: this run's.
 */
export function pruneBackups(deps: Deps, dir: string, keep: string): string[] {
  const runs = (() => {
    try {
      return (deps.fs.readdirSync(dir) as string[]).filter((n) =>
        /^\d{4}-\d\d-\d\dT\d{6}Z-/.test(n),
      );
    } catch {
      return [];
    }
  })()
    .sort()
    .reverse();
  const cutoff = deps.now().getTime() - BACKUP_MAX_AGE_DAYS * 86_400_000;
  const gone: string[] = [];
  for (const name of runs.slice(BACKUPS_KEPT)) {
    const full = path.join(dir, name);
    const m = /^(\d{4}-\d\d-\d\d)T(\d\d)(\d\d)(\d\d)Z/.exec(name);
    const at = m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : Number.NaN;
    if (full === keep || !(at < cutoff)) continue;
    deps.fs.rmSync(full, { recursive: true, force: true });
    gone.push(full);
  }
  return gone;
}
