import * as path from "node:path";
import * as z from "zod/mini";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull, readTextByRule } from "../core/file-range.ts";
import type { InstallLayout } from "./install-layout.ts";
import type { Invocation } from "./install-invocation.ts";
import type { installedBuild } from "./install-version.ts";
import { existingHookContainers } from "./settings-merge.ts";

// What an install remembers beside its bundles (quoin-checkpoint/install-state.json): enough for
// uninstall to put settings.json and the folders back as they were before the first install, and
// for messages to name the installer that made it. Also the settings read both halves start from.

export const StateSchema = z.object({
  version: z.literal(1),
  settingsCreated: z.boolean(),
  /** hook containers settings.json had before the first install: uninstall leaves them (maybe empty) */
  keptContainers: z.optional(z.array(z.string())),
  /** the package version and build hash (install-version.ts) of the files last installed */
  packageVersion: z.optional(z.string()),
  buildHash: z.optional(z.string()),
  /** how the installer that made this install is run again (install-invocation.ts) */
  installedWith: z.optional(z.object({ via: z.string(), command: z.string() })),
  /** folders the first install created (relative to the config folder): uninstall removes them when empty */
  createdFolders: z.optional(z.array(z.string())),
});
export type InstallState = z.infer<typeof StateSchema>;

/**
 * settings.json as text, null when there is none. Any other read error is a refusal: treating an
 * unreadable file as absent would write a new one over the user's settings.
 */
export function readSettings(
  deps: Deps,
  file: string,
): { ok: true; text: string | null } | { ok: false; reason: string } {
  try {
    return { ok: true, text: readTextByRule(deps.fs, file) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, text: null };
    return {
      ok: false,
      reason: `${file} could not be read (${(err as Error).message}); nothing was changed`,
    };
  }
}

export function readState(deps: Deps, file: string): InstallState | null {
  try {
    const parsed = StateSchema.safeParse(JSON.parse(readTextOrNull(deps.fs, file) ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The install state, built in this one place: what uninstall needs to put settings.json back. */
export function installState(
  deps: Deps,
  layout: InstallLayout,
  earlier: InstallState | null,
  before: string | null,
  build: ReturnType<typeof installedBuild>,
  invocation: Invocation | undefined,
): InstallState {
  const created = earlier
    ? (earlier.createdFolders ?? [])
    : createdFolders(deps, layout).map((d) => path.relative(layout.configDir, d) || ".");
  const installedWith = invocation ?? earlier?.installedWith;
  return {
    version: 1,
    settingsCreated: earlier?.settingsCreated ?? before === null,
    keptContainers: earlier ? (earlier.keptContainers ?? []) : existingHookContainers(before),
    ...build,
    ...(installedWith
      ? { installedWith: { via: installedWith.via, command: installedWith.command } }
      : {}),
    ...(created.length ? { createdFolders: created } : {}),
  };
}

/** The folders an install would create: a project's .claude, the skills folder. */
function createdFolders(deps: Deps, layout: InstallLayout): string[] {
  const dirs =
    layout.scope === "project" ? [layout.configDir, layout.skillsDir] : [layout.skillsDir];
  return dirs.filter((d) => !deps.fs.existsSync(d));
}
