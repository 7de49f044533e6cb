import * as path from "node:path";

/**
 * Claude Code's transcript folder name for a launch cwd: every character outside [A-Za-z0-9-]
 * becomes `-`. NOTE: from the raw launch cwd, not the resolved project root. Names over 200
 * characters are cut by Claude Code and given a hash suffix; callers match those by prefix.
 */
export function projectHash(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9-]/g, "-");
}

const PROJECT_HASH_MAX = 200;

/** `<config>/projects/<hash of the launch cwd>`; `configDir` from claudeConfigDir. */
export function transcriptDir(configDir: string, cwd: string): string {
  return path.join(configDir, "projects", projectHash(cwd).slice(0, PROJECT_HASH_MAX));
}
