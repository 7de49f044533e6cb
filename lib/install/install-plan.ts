import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { changedLines } from "../core/line-diff.ts";
import { utcIso } from "../core/time-format.ts";
import { engineCommand, type InstallLayout } from "./install-layout.ts";

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
  /** a file or folder moved to backups/, at its path under the config folder */
  | { kind: "move"; from: string; why?: string };

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

export const said = (line: string): Said => ({ done: line, dryRun: line });

/** The plan in words: one line a step, the settings diff on --dry-run, then the notes. */
export function describePlan(plan: InstallPlan, dryRun: boolean): string[] {
  const v = (verb: string) => (dryRun ? `would ${verb}` : verb);
  const lines: string[] = [];
  for (const step of plan.steps) {
    if (step.kind === "write") lines.push(`[quoin] ${v("write")} ${step.to}`);
    else if (step.kind === "move") {
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
    else {
      const target = path.join(backups(), path.relative(layout.configDir, step.from));
      deps.fs.mkdirSync(path.dirname(target), { recursive: true });
      deps.fs.renameSync(step.from, target);
    }
  }
  if (plan.action === "install")
    lines.push(`[quoin] check it with: ${engineCommand(layout.bundleDir)} doctor`);
  else if (backupDir) lines.push(`[quoin] uninstalled; removed files are kept in ${backupDir}`);
  return lines;
}
