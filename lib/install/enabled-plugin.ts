import { readTextByRule } from "../core/file-range.ts";
import type { Deps } from "../core/deps.ts";
import { installLayout } from "./install-layout.ts";

// The quoin-checkpoint plugin enabled in the user's settings: with a settings install too, every
// hook would run twice (install and doctor say so).

/** The enabled quoin-checkpoint plugin named in a settings file's enabledPlugins, if any. */
export function enabledPluginIn(deps: Pick<Deps, "fs">, settingsFile: string): string | null {
  try {
    const parsed = JSON.parse(readTextByRule(deps.fs, settingsFile)) as {
      enabledPlugins?: Record<string, unknown>;
    };
    const hit = Object.entries(parsed.enabledPlugins ?? {}).find(
      ([id, on]) => id.startsWith("quoin-checkpoint@") && on === true,
    );
    return hit ? hit[0] : null;
  } catch {
    return null;
  }
}

/** install's warning when the plugin is enabled as well; null when it is not. */
export function pluginTwiceLine(
  deps: Pick<Deps, "fs" | "env" | "home" | "cwd">,
  uninstall = "the uninstall of this installer",
): string | null {
  const plugin = enabledPluginIn(deps, installLayout(deps, "user").settingsFile);
  return plugin === null
    ? null
    : `[quoin] WARNING: the plugin ${plugin} is enabled too: every hook would run twice. Keep one: remove this install with ${uninstall}, or run /plugin uninstall quoin-checkpoint in Claude Code`;
}
