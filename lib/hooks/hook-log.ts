import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { ensureDir } from "../core/memory-dir.ts";
import { appendByRule, takeRefusals } from "../core/safe-file.ts";
import { utcIso } from "../core/time-format.ts";

/** Past this size the log becomes hooks.log.1 (the one before is dropped): at most twice this on disk. */
export const HOOK_LOG_CAP_BYTES = 256 * 1024;

type LogDeps = Pick<Deps, "fs" | "env" | "home" | "now">;

/**
 * `<config>/quoin-checkpoint/logs/hooks.log`. NOTE: outside every repository: a log in the
 * project's memory folder is a path a repository can commit (as a symlink to ~/.gitconfig, or to
 * /dev/stdout in front of the prompt hook's answer).
 */
export function hookLogPath(deps: Pick<Deps, "env" | "home">): string {
  return path.join(claudeConfigDir(deps.env, deps.home), "quoin-checkpoint", "logs", "hooks.log");
}

/**
 * One line in the hook log: `<ISO UTC> <line> (in <project>)`, after a line for each file the rule
 * refused in this run (lib/core/safe-file.ts). Never throws: logging must not turn a fail-open
 * into a crash.
 */
export function appendHookLog(deps: LogDeps, line: string, project?: string): void {
  writeLines(deps, [...takeRefusals(), line], project);
}

/** The refusals of this run, if any, logged (for an edge that has nothing else to log); the lines. */
export function logRefusals(deps: LogDeps, project?: string): string[] {
  const lines = takeRefusals();
  if (lines.length > 0) writeLines(deps, lines, project);
  return lines;
}

function writeLines(deps: LogDeps, lines: readonly string[], project?: string): void {
  try {
    const at = utcIso(deps.now());
    const text = lines
      .map(
        (l) =>
          `${at} ${l.replace(/[\r\n]+/g, " ").slice(0, 2000)}${project ? ` (in ${project})` : ""}\n`,
      )
      .join("");
    const file = hookLogPath(deps);
    ensureDir(deps.fs, path.dirname(file));
    try {
      if (deps.fs.lstatSync(file).size > HOOK_LOG_CAP_BYTES) deps.fs.renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    appendByRule(deps.fs, file, text, 0o600);
  } catch {
    // nowhere left to report to
  }
}
