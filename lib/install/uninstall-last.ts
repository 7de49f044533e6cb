import * as path from "node:path";
import { codeCacheDir } from "../core/code-cache-name.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import type { Deps } from "../core/deps.ts";
import type { InstallLayout } from "./install-layout.ts";
import type { InstallStep } from "./install-plan.ts";
import { anotherInstallRemains } from "./installs-present.ts";

// What uninstall takes beyond the install's own files. The folders an install created (the skills
// folder, a project's .claude) go when they are left empty. After the last install here, the
// shared folders go too: <user config>/quoin-checkpoint (the session registry in state/, the
// skills' dispatch config) and the prompt hook's code cache folder; their files to the backups.

function entries(deps: Pick<Deps, "fs">, dir: string): string[] {
  try {
    return (deps.fs.readdirSync(dir) as string[]).sort();
  } catch {
    return [];
  }
}

/** Moves of everything under `dir` not moved already, named `<as>/<entry>` in the backups. */
function moveAll(
  deps: Pick<Deps, "fs">,
  dir: string,
  as: string,
  moved: Set<string>,
): InstallStep[] {
  if (moved.has(dir)) return [];
  return entries(deps, dir)
    .map((n) => path.join(dir, n))
    .filter((f) => !moved.has(f))
    .map((from) => ({
      kind: "move" as const,
      from,
      as: path.join(as, path.basename(from)),
      why: "the last install is gone",
    }));
}

/**
 * The steps after an uninstall's own (`own`): the created folders removed once empty, and after
 * the last install the shared folders emptied into the backups and removed.
 */
export function lastInstallSteps(
  deps: Deps,
  layout: InstallLayout,
  own: readonly InstallStep[],
  createdFolders: readonly string[],
): InstallStep[] {
  const steps: InstallStep[] = [];
  const moved = new Set(own.flatMap((s) => (s.kind === "move" ? [s.from] : [])));
  const empty = (dir: string): InstallStep => ({ kind: "remove-empty", dir });
  if (!anotherInstallRemains(deps, layout)) {
    const shared = path.join(claudeConfigDir(deps.env, deps.home), "quoin-checkpoint");
    steps.push(...moveAll(deps, shared, "quoin-checkpoint (shared)", moved), empty(shared));
    const cache = codeCacheDir({ HOME: deps.home, ...deps.env });
    if (cache) steps.push(...moveAll(deps, cache, "code-cache", moved), empty(cache));
  }
  // deepest first: the skills folder before a project's .claude
  const created = createdFolders
    .map((rel) => path.resolve(layout.configDir, rel))
    .sort((a, b) => b.length - a.length);
  steps.push(...created.map(empty));
  return steps;
}
