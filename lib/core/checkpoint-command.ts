// NOTE: Claude Code 2.1.332's built-in /rewind has the aliases /checkpoint and /undo. A user-level
// skill named checkpoint (the settings install) wins by its exact name, so `/checkpoint` works
// there; a plugin's skill is reachable only as /<plugin>:checkpoint, and a bare `/checkpoint`
// opens Rewind. So a hook run from the plugin names the command that works for it.

export const SETTINGS_COMMAND = "/checkpoint";
export const PLUGIN_COMMAND = "/quoin-checkpoint:checkpoint";

/** Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks only. */
export function isPluginRun(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env["CLAUDE_PLUGIN_ROOT"]);
}

// `/checkpoint` as a command: at the start or after a space, quote or bracket, and not followed
// by a name character (so `.../checkpoints/` and `/checkpoint-x` stay as they are).
const BARE = /(^|[\s'"`(])\/checkpoint(?![A-Za-z0-9_:-])/g;

export function withCommand(text: string, command: string): string {
  return command === SETTINGS_COMMAND ? text : text.replace(BARE, `$1${command}`);
}
