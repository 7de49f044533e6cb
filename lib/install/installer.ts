import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { notAProject } from "../store/project-root.ts";
import {
  availableScopes,
  HOT_BUNDLE_EXT,
  installLayout,
  LEGACY_BUNDLES,
  LEGACY_ENGINE_BUNDLE,
  ownedHooks,
  STATUSLINE_BUNDLE,
  statusLineBundleCommand,
  type InstallLayout,
  type InstallScope,
} from "./install-layout.ts";
import { mergeInstall } from "./settings-merge.ts";
import {
  hasLegacyEngineStatusLine,
  hasOwnedStatusLine,
  hasQuietStatusLine,
} from "./settings-statusline.ts";
import {
  applyPlan,
  describePlan,
  said,
  type InstallStep,
  type Planned,
  type Said,
} from "./install-plan.ts";
import { installedBuild, replacementLine } from "./install-version.ts";
import { pluginTwiceLine } from "./enabled-plugin.ts";
import { installerCommand, type Invocation } from "./install-invocation.ts";
import { doubleInstallLine } from "./installs-present.ts";
import { installSources } from "./install-sources.ts";
import { installState, readSettings, readState, type InstallState } from "./install-state.ts";
import { planUninstall } from "./uninstall-plan.ts";

// install.ts's core. Everything through deps.fs, so a memfs home tests it whole. Each of install
// and uninstall is a plan (install-plan.ts) computed before anything is written, so a refusal
// leaves the home untouched; --dry-run prints the plan, else it is applied.

export interface InstallOptions {
  scope: InstallScope;
  uninstall: boolean;
  dryRun: boolean;
  statusLine: boolean;
  /**
   * Without `statusLine`: register the status line as an invisible recorder (`--quiet`: it records
   * the window the client reports and prints only the person's own line, wrapped), so the window
   * is known without a gauge. The CLI sets it unless --no-statusline. false (--no-statusline):
   * quoin's status line (recorder or gauge) comes out again, the person's own put back.
   */
  recorder?: boolean;
  /** the build output: quoin-checkpoint.cjs, any-ascii.cjs, statusline.cjs, hooks/*.cjs, skills/<name>/SKILL.md */
  distDir: string;
  /** package.json's version of the build being installed, recorded in the install state */
  packageVersion?: string;
  /** how this installer was started (install-invocation.ts): recorded, and named in messages */
  invocation?: Invocation;
}

export type InstallOutcome =
  | { ok: true; lines: string[]; changed: boolean }
  | { ok: false; reason: string; lines: string[] };

/** The "which replaced which" line and the plugin-twice warning, as notes of the plan. */
function versionNotes(
  deps: Deps,
  earlier: InstallState | null,
  build: ReturnType<typeof installedBuild>,
  opts: InstallOptions,
): Said[] {
  const notes: Said[] = [];
  const done = replacementLine(earlier, build, false);
  const dry = replacementLine(earlier, build, true);
  if (done !== null && dry !== null)
    notes.push({ done: done.replace(/^\[quoin\] /, ""), dryRun: dry.replace(/^\[quoin\] /, "") });
  const twice = pluginTwiceLine(
    deps,
    opts.invocation
      ? installerCommand(
          opts.invocation,
          "uninstall",
          opts.scope === "project"
            ? [
                "--scope",
                "project",
                "--project",
                path.dirname(installLayout(deps, "project").configDir),
              ]
            : [],
        )
      : undefined,
  );
  if (twice !== null) notes.push(said(twice.replace(/^\[quoin\] /, "")));
  return notes;
}

interface StatusLineWanted {
  /** the status-line command to set; null: take ours out; undefined: leave settings' as it is */
  command: string | null | undefined;
  /** the status-line bundle must be copied */
  bundle: boolean;
  /** ours ran the ES-module engine of an older install and is pointed at the bundle */
  legacy: boolean;
}

/**
 * What becomes of the status line. --statusline: the gauge. By default the invisible recorder,
 * but a gauge asked for earlier stays a gauge. --no-statusline: none of ours (the person's own
 * command back). A status line of ours that still runs an older install's ES-module engine
 * (`quoin-checkpoint.mjs statusline`) is pointed at the bundle, the engine moving to the backups.
 */
function statusLineWanted(
  opts: InstallOptions,
  before: string | null,
  layout: InstallLayout,
): StatusLineWanted {
  const gauge = statusLineBundleCommand(layout.bundleDirInStatusLine);
  const legacy = !opts.statusLine && before !== null && hasLegacyEngineStatusLine(before);
  if (opts.statusLine) return { command: gauge, bundle: true, legacy: false };
  if (opts.recorder === false)
    return {
      command: before !== null && hasOwnedStatusLine(before) ? null : undefined,
      bundle: false,
      legacy: false,
    };
  if (legacy) return { command: gauge, bundle: true, legacy };
  if (opts.recorder !== true) return { command: undefined, bundle: false, legacy };
  const gaugeBefore = before !== null && hasOwnedStatusLine(before) && !hasQuietStatusLine(before);
  return { command: gaugeBefore ? gauge : `${gauge} --quiet`, bundle: true, legacy };
}

/** What an install says after its steps: nothing to do, and what became of an earlier status line. */
function installNotes(
  nothingToDo: boolean,
  want: StatusLineWanted,
  opts: InstallOptions,
  settingsAfter: string,
): Said[] {
  const notes: Said[] = [];
  if (nothingToDo) notes.push(said("already installed; nothing to change"));
  if (want.legacy) {
    const ran = `the status line installed earlier ran ${LEGACY_ENGINE_BUNDLE}: it`;
    notes.push({
      done: `${ran} now runs ${STATUSLINE_BUNDLE} (same gauge)`,
      dryRun: `${ran} would run ${STATUSLINE_BUNDLE} (same gauge)`,
    });
  } else if (want.command === null) {
    const theirs = /"statusLine"/.test(settingsAfter);
    notes.push({
      done: `took quoin's status line out (--no-statusline): ${theirs ? "your own is back as it was" : "there is none now"}`,
      dryRun: `would take quoin's status line out (--no-statusline): ${theirs ? "your own would be back as it was" : "there would be none"}`,
    });
  } else if (!opts.statusLine && opts.recorder === undefined && hasOwnedStatusLine(settingsAfter)) {
    notes.push(
      said(
        "the status line installed earlier (--statusline) stays as it is; --uninstall removes it",
      ),
    );
  }
  return notes;
}

/** Every write, settings edit and move of an install, computed before anything is written. */
function planInstall(
  deps: Deps,
  opts: InstallOptions,
  layout: InstallLayout,
  warnings: string[],
): Planned {
  // 1. settings.json, read (not yet merged): refused when unreadable.
  const read = readSettings(deps, layout.settingsFile);
  if (!read.ok) return read;
  const before = read.text;
  const want = statusLineWanted(opts, before, layout);

  // 2. Sources: the engine and the rendered skills are required; a missing hook bundle is reported.
  const sources = installSources(deps, opts.distDir, layout, want.bundle, warnings);
  if (!sources.ok) return sources;

  // 3. settings.json merged as text, refused when malformed, before any write.
  const merged = mergeInstall(
    before,
    {
      hooks: ownedHooks(layout.bundleDirInCommands, sources.bundles),
      ...(want.command !== undefined ? { statusLine: want.command } : {}),
    },
    layout.settingsFile,
  );
  if (!merged.ok) return merged;

  const earlier = readState(deps, layout.stateFile);
  const build = installedBuild(opts.packageVersion ?? "unknown", layout.configDir, sources.copies);
  const state = installState(deps, layout, earlier, before, build, opts.invocation);
  const writes = [
    ...sources.copies,
    { to: layout.stateFile, text: `${JSON.stringify(state, null, 2)}\n` },
  ].filter((c) => readTextOrNull(deps.fs, c.to) !== c.text);
  const steps: InstallStep[] = writes.map((w) => ({ kind: "write", to: w.to, text: w.text }));
  if (merged.changed)
    steps.push({
      kind: "settings",
      file: layout.settingsFile,
      before,
      after: merged.text,
      aside: false,
    });
  // Last: until settings.json stops naming them, the old bundles stay where its commands look.
  for (const from of legacyBundles(deps, layout))
    steps.push({ kind: "move", from, why: `replaced by its ${HOT_BUNDLE_EXT} bundle` });
  const twice = doubleInstallLine(deps, opts.scope, opts.invocation ?? null);
  const notes = [
    ...(twice ? [said(twice)] : []),
    ...versionNotes(deps, earlier, build, opts),
    ...installNotes(steps.length === 0, want, opts, merged.text),
  ];
  return { ok: true, plan: { action: "install", layout, steps, notes } };
}

/** The legacy bundles (LEGACY_BUNDLES) still there. */
function legacyBundles(deps: Deps, layout: InstallLayout): string[] {
  return LEGACY_BUNDLES.map((n) => path.join(layout.bundleDir, n)).filter((f) =>
    deps.fs.existsSync(f),
  );
}

export function runInstall(deps: Deps, opts: InstallOptions): InstallOutcome {
  if (!availableScopes(deps).includes(opts.scope)) {
    return {
      ok: false,
      reason: `${notAProject(deps.cwd)}: use --scope user, or --project DIR`,
      lines: [],
    };
  }
  const layout = installLayout(deps, opts.scope);
  const doing = opts.uninstall
    ? `${opts.dryRun ? "dry run: would uninstall" : "uninstalling"} (${opts.scope} scope) from`
    : `${opts.dryRun ? "dry run: would install" : "installing"} (${opts.scope} scope) into`;
  const lines = [`[quoin] ${doing} ${layout.configDir}`];
  const planned = opts.uninstall
    ? planUninstall(deps, layout)
    : planInstall(deps, opts, layout, lines);
  if (!planned.ok) return { ok: false, reason: planned.reason, lines };
  const { plan } = planned;
  lines.push(...describePlan(plan, opts.dryRun, deps));
  if (!opts.dryRun) lines.push(...applyPlan(deps, plan));
  return { ok: true, lines, changed: plan.steps.length > 0 };
}
