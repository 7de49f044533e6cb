import * as path from "node:path";
import type { Deps } from "./deps.ts";

// NOTE: Claude Code 2.1.332's built-in /rewind has the aliases /checkpoint and /undo. A user-level
// skill named checkpoint (the settings install) wins by its exact name, so `/checkpoint` works
// there; a plugin's skill is reachable only as /<plugin>:checkpoint, and a bare `/checkpoint`
// opens Rewind. So everything the engine and its hooks print names the command of their install.

export const PLUGIN_NAME = "quoin-checkpoint";
export const SETTINGS_COMMAND = "/checkpoint";
export const PLUGIN_COMMAND = `/${PLUGIN_NAME}:checkpoint`;

export type InstallKind = "settings" | "plugin";

/**
 * The install this process runs from. Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks;
 * a plugin's skill runs the engine by its path, so the engine's own folder tells it (a plugin
 * folder holds .claude-plugin/plugin.json beside the engine; a settings install's folder does not).
 */
export function installKind(deps: Pick<Deps, "env" | "engineScript" | "fs">): InstallKind {
  if (deps.env["CLAUDE_PLUGIN_ROOT"]) return "plugin";
  const engine = deps.engineScript;
  if (!engine) return "settings";
  const manifest = path.join(path.dirname(engine), ".claude-plugin", "plugin.json");
  try {
    return deps.fs.existsSync(manifest) ? "plugin" : "settings";
  } catch {
    return "settings";
  }
}

/** The command a user types to reach a skill of this project under an install. */
export function skillCommand(kind: InstallKind, skill = "checkpoint"): string {
  return kind === "plugin" ? `/${PLUGIN_NAME}:${skill}` : `/${skill}`;
}

/** The checkpoint command that works for the install this process runs from. */
export function checkpointCommand(deps: Pick<Deps, "env" | "engineScript" | "fs">): string {
  return skillCommand(installKind(deps));
}

// `/checkpoint` as a command: at the start or after a space, quote or bracket, and not followed
// by a name character (so `.../checkpoints/` and `/checkpoint-x` stay as they are).
const BARE = /(^|[\s'"`(])\/checkpoint(?![A-Za-z0-9_:-])/g;

/** `text` with every bare `/checkpoint` named as `command` (the texts are written with the bare name). */
export function withCommand(text: string, command: string): string {
  return command === SETTINGS_COMMAND ? text : text.replace(BARE, `$1${command}`);
}
