import * as path from "node:path";
import { codeCacheDir, codeCachePrefix } from "../core/code-cache-name.ts";
import * as z from "zod/mini";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull, readTextByRule } from "../core/file-range.ts";
import { notAProject } from "../store/project-root.ts";
import {
  ANY_ASCII_BUNDLE,
  availableScopes,
  ENGINE_BUNDLE,
  GENERATED_SKILL_MARKER,
  HOOK_SPECS,
  HOT_BUNDLE_EXT,
  hookBundleFile,
  installLayout,
  LEGACY_BUNDLE_EXT,
  LEGACY_ENGINE_BUNDLE,
  ownedHooks,
  SKILL_NAMES,
  STATUSLINE_BUNDLE,
  statusLineBundleCommand,
  type InstallLayout,
  type InstallScope,
} from "./install-layout.ts";
import {
  existingHookContainers,
  hasLegacyEngineStatusLine,
  hasOwnedStatusLine,
  hasQuietStatusLine,
  mergeInstall,
  mergeUninstall,
} from "./settings-merge.ts";
import {
  applyPlan,
  describePlan,
  said,
  type InstallPlan,
  type InstallStep,
  type Said,
} from "./install-plan.ts";
import { installedBuild, replacementLine } from "./install-version.ts";
import { pluginTwiceLine } from "./enabled-plugin.ts";
import { installerCommand, type Invocation } from "./install-invocation.ts";
import { doubleInstallLine } from "./installs-present.ts";
import { lastInstallSteps } from "./uninstall-last.ts";

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
   * is known without a gauge. The CLI sets it unless --no-statusline.
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

const StateSchema = z.object({
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
type InstallState = z.infer<typeof StateSchema>;

/**
 * settings.json as text, null when there is none. Any other read error is a refusal: treating an
 * unreadable file as absent would write a new one over the user's settings.
 */
function readSettings(
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

function readState(deps: Deps, file: string): InstallState | null {
  try {
    const parsed = StateSchema.safeParse(JSON.parse(readTextOrNull(deps.fs, file) ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

interface FileCopy {
  from: string;
  to: string;
  text: string;
}

type Sources = { ok: true; copies: FileCopy[]; bundles: string[] } | { ok: false; reason: string };

/**
 * What install copies: the engine and its transliteration tables, the status line, each hook bundle
 * found, and the rendered skills. `statusLine`: the status-line bundle is required.
 */
function installSources(
  deps: Deps,
  opts: InstallOptions,
  layout: InstallLayout,
  statusLine: boolean,
  lines: string[],
): Sources {
  const refuse = (reason: string): Sources => ({ ok: false, reason });
  const copies: FileCopy[] = [];
  const engine = readTextOrNull(deps.fs, path.join(opts.distDir, ENGINE_BUNDLE));
  if (engine === null)
    return refuse(`${path.join(opts.distDir, ENGINE_BUNDLE)} is missing: run npm run build first`);
  copies.push({
    from: path.join(opts.distDir, ENGINE_BUNDLE),
    to: path.join(layout.bundleDir, ENGINE_BUNDLE),
    text: engine,
  });
  const anyAscii = readTextOrNull(deps.fs, path.join(opts.distDir, ANY_ASCII_BUNDLE));
  if (anyAscii !== null)
    copies.push({
      from: path.join(opts.distDir, ANY_ASCII_BUNDLE),
      to: path.join(layout.bundleDir, ANY_ASCII_BUNDLE),
      text: anyAscii,
    });
  else
    lines.push(
      `[quoin] WARNING: ${path.join(opts.distDir, ANY_ASCII_BUNDLE)} is missing: a save writes '?' for non-ASCII free text. Build it (npm run build) and run the installer again.`,
    );
  const statusLineText = readTextOrNull(deps.fs, path.join(opts.distDir, STATUSLINE_BUNDLE));
  if (statusLineText !== null)
    copies.push({
      from: path.join(opts.distDir, STATUSLINE_BUNDLE),
      to: path.join(layout.bundleDir, STATUSLINE_BUNDLE),
      text: statusLineText,
    });
  else if (statusLine)
    return refuse(
      `${path.join(opts.distDir, STATUSLINE_BUNDLE)} is missing: run npm run build first`,
    );
  const bundles: string[] = [];
  for (const spec of HOOK_SPECS) {
    const from = path.join(opts.distDir, hookBundleFile(spec.bundle));
    const text = readTextOrNull(deps.fs, from);
    if (text === null) {
      lines.push(
        `[quoin] WARNING: ${from} is missing: the ${spec.event} hook is NOT installed. Build it (npm run build) and run the installer again.`,
      );
      continue;
    }
    bundles.push(spec.bundle);
    copies.push({ from, to: path.join(layout.bundleDir, hookBundleFile(spec.bundle)), text });
  }
  // The skills name the engine as '${CLAUDE_SKILL_DIR}/...' (skill-render.ts): any character but `'` is safe there.
  if (layout.skillsDir.includes("'")) {
    return refuse(
      `${layout.skillsDir} contains a single quote, which the skills' engine command cannot hold: install from a folder without one (nothing was changed)`,
    );
  }
  for (const name of SKILL_NAMES) {
    const from = path.join(opts.distDir, "skills", name, "SKILL.md");
    const text = readTextOrNull(deps.fs, from);
    if (text === null)
      return refuse(`${from} is missing: run npm run gen-skills (or npm run build) first`);
    const to = path.join(layout.skillsDir, name, "SKILL.md");
    const existing = readTextOrNull(deps.fs, to);
    if (existing !== null && !existing.includes(GENERATED_SKILL_MARKER)) {
      return refuse(`${to} exists and is not quoin's: move it away first (nothing was changed)`);
    }
    copies.push({ from, to, text });
  }
  return { ok: true, copies, bundles };
}

/** The install state, built in this one place: what uninstall needs to put settings.json back. */
function installState(
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

/** What an install says after its steps: nothing to do, and what became of an earlier status line. */
function installNotes(
  nothingToDo: boolean,
  legacyStatusLine: boolean,
  opts: InstallOptions,
  settingsAfter: string,
): Said[] {
  const notes: Said[] = [];
  if (nothingToDo) notes.push(said("already installed; nothing to change"));
  if (legacyStatusLine) {
    const ran = `the status line installed earlier ran ${LEGACY_ENGINE_BUNDLE}: it`;
    notes.push({
      done: `${ran} now runs ${STATUSLINE_BUNDLE} (same gauge)`,
      dryRun: `${ran} would run ${STATUSLINE_BUNDLE} (same gauge)`,
    });
  } else if (!opts.statusLine && !opts.recorder && hasOwnedStatusLine(settingsAfter)) {
    notes.push(
      said(
        "the status line installed earlier (--statusline) stays as it is; --uninstall removes it",
      ),
    );
  }
  return notes;
}

type Planned = { ok: true; plan: InstallPlan } | { ok: false; reason: string };

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
  // The ES-module engine of an older install moves to the backups below; a status line of ours that
  // still runs it (`quoin-checkpoint.mjs statusline`) is pointed at the status-line bundle, the
  // user's wrapped command kept, even without --statusline.
  const legacyStatusLine = !opts.statusLine && before !== null && hasLegacyEngineStatusLine(before);
  const statusLine = opts.statusLine || legacyStatusLine;
  // The recorder prints no gauge; a gauge asked for earlier (--statusline) stays a gauge.
  const gaugeBefore = before !== null && hasOwnedStatusLine(before) && !hasQuietStatusLine(before);
  const recorder = !statusLine && opts.recorder === true && !gaugeBefore;

  // 2. Sources: the engine and the rendered skills are required; a missing hook bundle is reported.
  const sources = installSources(deps, opts, layout, statusLine || recorder, warnings);
  if (!sources.ok) return sources;

  // 3. settings.json merged as text, refused when malformed, before any write.
  const merged = mergeInstall(
    before,
    {
      hooks: ownedHooks(layout.bundleDirInCommands, sources.bundles),
      ...(statusLine || (opts.recorder === true && gaugeBefore)
        ? { statusLine: statusLineBundleCommand(layout.bundleDirInStatusLine) }
        : recorder
          ? { statusLine: `${statusLineBundleCommand(layout.bundleDirInStatusLine)} --quiet` }
          : {}),
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
    ...installNotes(steps.length === 0, legacyStatusLine, opts, merged.text),
  ];
  return { ok: true, plan: { action: "install", layout, steps, notes } };
}

/** What installs before the CommonJS bundles wrote into the bundle folder: engine, status line, hooks. */
const LEGACY_BUNDLES = [
  LEGACY_ENGINE_BUNDLE,
  `statusline${LEGACY_BUNDLE_EXT}`,
  ...HOOK_SPECS.map((h) => `hooks/${h.bundle}${LEGACY_BUNDLE_EXT}`),
];

/** The legacy bundles (LEGACY_BUNDLES) still there. */
function legacyBundles(deps: Deps, layout: InstallLayout): string[] {
  return LEGACY_BUNDLES.map((n) => path.join(layout.bundleDir, n)).filter((f) =>
    deps.fs.existsSync(f),
  );
}

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
function planUninstall(deps: Deps, layout: InstallLayout): Planned {
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
