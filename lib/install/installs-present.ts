import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import {
  availableScopes,
  installLayout,
  type InstallLayout,
  type InstallScope,
} from "./install-layout.ts";
import { ownedHookCommands } from "./settings-owned.ts";
import { enabledPluginIn } from "./enabled-plugin.ts";
import {
  installerCommand,
  scopeArgs,
  UNKNOWN_INSTALLER,
  type Invocation,
  type InstallVia,
} from "./install-invocation.ts";

// Which installs of quoin-checkpoint Claude Code would run here: the user's, this project's, the
// plugin. Two at once run every hook twice (install warns, doctor fails); the last one removed
// takes the shared folders with it (uninstall).

/** settings.json of `layout` names quoin's hooks. */
export function hooksInstalled(deps: Pick<Deps, "fs">, layout: InstallLayout): boolean {
  const text = readTextOrNull(deps.fs, layout.settingsFile);
  if (text === null) return false;
  const owned = ownedHookCommands(text);
  return !("reason" in owned) && Object.values(owned).some((c) => c.length > 0);
}

/** The layouts here (user, and this project's when inside one) whose settings name quoin's hooks. */
export function settingsInstalls(deps: Pick<Deps, "fs" | "env" | "home" | "cwd">): InstallLayout[] {
  return availableScopes(deps)
    .map((scope) => installLayout(deps, scope))
    .filter((l, i, all) => all.findIndex((o) => o.configDir === l.configDir) === i)
    .filter((l) => hooksInstalled(deps, l));
}

/** The invocation an install recorded (install-state.json), null when it recorded none. */
export function recordedInvocation(
  deps: Pick<Deps, "fs">,
  layout: Pick<InstallLayout, "stateFile">,
): Invocation | null {
  try {
    const state = JSON.parse(readTextOrNull(deps.fs, layout.stateFile) ?? "") as {
      installedWith?: { via?: unknown; command?: unknown };
    };
    const w = state.installedWith;
    return typeof w?.via === "string" && typeof w.command === "string"
      ? { via: w.via as InstallVia, command: w.command }
      : null;
  } catch {
    return null;
  }
}

/** The command that removes the install of `layout`, by the installer that made it when known. */
export function uninstallCommandFor(
  deps: Pick<Deps, "fs">,
  layout: InstallLayout,
  fallback: Invocation | null,
): string {
  const inv = recordedInvocation(deps, layout) ?? fallback;
  if (!inv) return UNKNOWN_INSTALLER.replace(/ install\b/g, " uninstall");
  return installerCommand(inv, "uninstall", scopeArgs(layout.scope, projectRootOf(layout)));
}

/** The project root of a project layout (<root>/.claude), null for the user's. */
export function projectRootOf(layout: InstallLayout): string | null {
  return layout.scope === "project" ? path.dirname(layout.configDir) : null;
}

/**
 * install's warning when the other scope here is installed too: every hook would run twice.
 * Null when it is not.
 */
export function doubleInstallLine(
  deps: Pick<Deps, "fs" | "env" | "home" | "cwd">,
  scope: InstallScope,
  self: Invocation | null,
): string | null {
  const other = settingsInstalls(deps).find((l) => l.scope !== scope);
  if (!other) return null;
  const mine = scope === "user" ? "this user install" : "this project install";
  return `WARNING: ${other.scope} install at ${other.configDir} too: with ${mine} every hook runs twice. Keep one; remove that one with: ${uninstallCommandFor(deps, other, self)}`;
}

/** Another install stays after `layout`'s is removed: the other scope here, or the plugin. */
export function anotherInstallRemains(
  deps: Pick<Deps, "fs" | "env" | "home" | "cwd">,
  layout: InstallLayout,
): boolean {
  if (settingsInstalls(deps).some((l) => l.configDir !== layout.configDir)) return true;
  return enabledPluginIn(deps, installLayout(deps, "user").settingsFile) !== null;
}
