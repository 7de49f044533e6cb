import * as path from "node:path";
import { codeCacheDir, codeCachePrefix } from "../core/code-cache-name.ts";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import {
  ANY_ASCII_BUNDLE,
  ENGINE_BUNDLE,
  GENERATED_SKILL_MARKER,
  hookBundleFile,
  LEGACY_BUNDLES,
  SKILL_NAMES,
  STATUSLINE_BUNDLE,
  type InstallLayout,
} from "./install-layout.ts";
import { said, type InstallStep, type Planned } from "./install-plan.ts";
import { readSettings, readState, type InstallState } from "./install-state.ts";
import { mergeUninstall } from "./settings-merge.ts";
import { lastInstallSteps } from "./uninstall-last.ts";

// Uninstall as a plan: quoin's entries out of settings.json (the person's own status line back),
// its skills, bundles and code caches to backups/, then what the last install leaves behind
// (uninstall-last.ts). Nothing is deleted: every file goes to the backups folder.

/**
 * What uninstall takes out of the bundle folder: the folder itself when it holds only what install
 * wrote, else just those entries. The skills keep their 1M-dispatch config and cache there
 * (lib/skills/dispatch-decide.ts), which are the user's and stay.
 */
function bundleMoves(deps: Deps, layout: InstallLayout): string[] {
  if (!deps.fs.existsSync(layout.bundleDir)) return [];
  // the legacy ones at the folder's top level too (those in hooks/ go with the folder)
  const ours = [
    ENGINE_BUNDLE,
    ANY_ASCII_BUNDLE,
    STATUSLINE_BUNDLE,
    ...LEGACY_BUNDLES.filter((n) => !n.includes("/")),
    "hooks",
    path.basename(layout.stateFile),
  ];
  const names = deps.fs.readdirSync(layout.bundleDir) as string[];
  if (names.every((n) => ours.includes(n))) return [layout.bundleDir];
  return names.filter((n) => ours.includes(n)).map((n) => path.join(layout.bundleDir, n));
}

/** The prompt hook's V8 code caches for this install's hook file (lib/core/code-cache-name.ts). */
function codeCaches(deps: Deps, layout: InstallLayout): string[] {
  const dir = codeCacheDir({ HOME: deps.home, ...deps.env });
  if (!dir || !deps.fs.existsSync(dir)) return [];
  let hook = path.join(layout.bundleDir, hookBundleFile("userpromptsubmit"));
  try {
    hook = deps.fs.realpathSync(hook) as string; // node names the main module by its real path
  } catch {
    // already gone: the name as installed
  }
  const prefix = codeCachePrefix(hook);
  return (deps.fs.readdirSync(dir) as string[])
    .filter((n) => n.startsWith(prefix) && n.endsWith(".v8cache"))
    .sort()
    .map((n) => path.join(dir, n));
}

/** A settings.json that only existed for quoin goes away again (to backups/: nothing is deleted). */
function onlyQuoinsSettings(after: string, state: InstallState | null): boolean {
  if (!state?.settingsCreated) return false;
  try {
    const v = JSON.parse(after) as unknown;
    return !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;
  } catch {
    return false;
  }
}

/** Every settings edit and move of an uninstall: quoin's entries out, its files to backups/. */
export function planUninstall(deps: Deps, layout: InstallLayout): Planned {
  const planned = planUninstallOwn(deps, layout);
  if (!planned.ok || planned.plan.steps.length === 0) return planned;
  const state = readState(deps, layout.stateFile);
  planned.plan.steps.push(
    ...lastInstallSteps(deps, layout, planned.plan.steps, state?.createdFolders ?? []),
  );
  return planned;
}

function planUninstallOwn(deps: Deps, layout: InstallLayout): Planned {
  const read = readSettings(deps, layout.settingsFile);
  if (!read.ok) return read;
  const before = read.text;
  const state = readState(deps, layout.stateFile);
  const steps: InstallStep[] = [];
  if (before !== null) {
    const merged = mergeUninstall(before, layout.settingsFile, state?.keptContainers ?? []);
    if (!merged.ok) return merged;
    const aside = onlyQuoinsSettings(merged.text, state);
    if (merged.text !== before || aside)
      steps.push({
        kind: "settings",
        file: layout.settingsFile,
        before,
        after: merged.text,
        aside,
      });
  }
  const skills = SKILL_NAMES.map((n) => path.join(layout.skillsDir, n)).filter((dir) =>
    (readTextOrNull(deps.fs, path.join(dir, "SKILL.md")) ?? "").includes(GENERATED_SKILL_MARKER),
  );
  for (const from of [...skills, ...bundleMoves(deps, layout)]) steps.push({ kind: "move", from });
  for (const from of codeCaches(deps, layout))
    steps.push({ kind: "move", from, why: "the prompt hook's code cache" });
  const notes = steps.length === 0 ? [said("nothing of quoin's is installed here")] : [];
  return { ok: true, plan: { action: "uninstall", layout, steps, notes } };
}
