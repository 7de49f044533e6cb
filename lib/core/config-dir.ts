import * as path from "node:path";

/** Claude Code's config folder: $CLAUDE_CONFIG_DIR when set, else ~/.claude. The one place this rule lives. */
export function claudeConfigDir(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  return env["CLAUDE_CONFIG_DIR"] || path.join(home, ".claude");
}
