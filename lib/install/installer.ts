import * as path from "node:path";
import * as z from "zod/mini";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { notAProject } from "../store/project-root.ts";
import {
  ANY_ASCII_BUNDLE,
  availableScopes,
  ENGINE_BUNDLE,
  engineCommand,
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
import { changedLines } from "../core/line-diff.ts";
import {
  existingHookContainers,
  hasLegacyEngineStatusLine,
  hasOwnedStatusLine,
  mergeInstall,
  mergeUninstall,
} from "./settings-merge.ts";
import { utcIso } from "../core/time-format.ts";
import { installedBuild, replacementLine } from "./install-version.ts";
import { pluginTwiceLine } from "./enabled-plugin.ts";

// install.ts's core. Everything through deps.fs, so a memfs home tests it whole. Order matters:
// settings.json is checked before anything is written, so a refusal leaves the home untouched.

export interface InstallOptions {
  scope: InstallScope;
  uninstall: boolean;
  dryRun: boolean;
  statusLine: boolean;
  /** the build output: quoin-checkpoint.cjs, any-ascii.cjs, statusline.cjs, hooks/*.cjs, skills/<name>/SKILL.md */
  distDir: string;
  /** package.json's version of the build being installed, recorded in the install state */
  packageVersion?: string;
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
    return { ok: true, text: deps.fs.readFileSync(file, "utf8") };
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

/** Where to write a file that may be a symlink (dotfile managers): its target, so the link survives. */
function writeTarget(deps: Deps, file: string): string {
  try {
    return deps.fs.lstatSync(file).isSymbolicLink() ? deps.fs.realpathSync(file) : file;
  } catch {
    return file;
  }
}

/** Keep the file's permission bits (a private settings.json stays private). */
function modeOf(deps: Deps, file: string): number {
  try {
    return Number(deps.fs.statSync(file).mode) & 0o777;
  } catch {
    return 0o644;
  }
}

function stamp(deps: Deps): string {
  return utcIso(deps.now()).replace(/:/g, "");
}

/** A fresh folder under backups/ (never reused), for settings copies and uninstalled files. */
function freshBackupDir(deps: Deps, layout: InstallLayout, what: string): string {
  const base = path.join(layout.backupsDir, `${stamp(deps)}-${what}`);
  for (let n = 1; ; n += 1) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (!deps.fs.existsSync(dir)) {
      deps.fs.mkdirSync(dir, { recursive: true });
      return dir;
    }
  }
}

interface FileCopy {
  from: string;
  to: string;
  text: string;
}

export function runInstall(deps: Deps, opts: InstallOptions): InstallOutcome {
  if (!availableScopes(deps).includes(opts.scope)) {
    return {
      ok: false,
      reason: `${notAProject(deps.cwd)}: use --scope user, or --project DIR`,
      lines: [],
    };
  }
  return opts.uninstall ? uninstall(deps, opts) : install(deps, opts);
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

function install(deps: Deps, opts: InstallOptions): InstallOutcome {
  const layout = installLayout(deps, opts.scope);
  const lines: string[] = [
    `[quoin] ${opts.dryRun ? "dry run: would install" : "installing"} (${opts.scope} scope) into ${layout.configDir}`,
  ];
  const fail = (reason: string): InstallOutcome => ({ ok: false, reason, lines });

  // 1. settings.json, read (not yet merged): refused when unreadable.
  const read = readSettings(deps, layout.settingsFile);
  if (!read.ok) return fail(read.reason);
  const before = read.text;
  // The ES-module engine of an older install moves to the backups below; a status line of ours that
  // still runs it (`quoin-checkpoint.mjs statusline`) is pointed at the status-line bundle, the
  // user's wrapped command kept, even without --statusline.
  const legacyStatusLine = !opts.statusLine && before !== null && hasLegacyEngineStatusLine(before);
  const statusLine = opts.statusLine || legacyStatusLine;

  // 2. Sources: the engine and the rendered skills are required; a missing hook bundle is reported.
  const sources = installSources(deps, opts, layout, statusLine, lines);
  if (!sources.ok) return fail(sources.reason);
  const { copies, bundles } = sources;

  // 3. settings.json merged as text, refused when malformed, before any write.
  const merged = mergeInstall(
    before,
    {
      hooks: ownedHooks(layout.bundleDirInCommands, bundles),
      ...(statusLine ? { statusLine: statusLineBundleCommand(layout.bundleDirInStatusLine) } : {}),
    },
    layout.settingsFile,
  );
  if (!merged.ok) return fail(merged.reason);

  const earlier = readState(deps, layout.stateFile);
  const build = installedBuild(opts.packageVersion ?? "unknown", layout.configDir, copies);
  const state: InstallState = {
    version: 1,
    settingsCreated: earlier?.settingsCreated ?? before === null,
    keptContainers: earlier ? (earlier.keptContainers ?? []) : existingHookContainers(before),
    ...build,
  };
  const stateText = `${JSON.stringify(state, null, 2)}\n`;
  const writes = [
    ...copies,
    { from: "(install state)", to: layout.stateFile, text: stateText },
  ].filter((c) => readTextOrNull(deps.fs, c.to) !== c.text);

  const legacy = legacyBundles(deps, layout);
  const changed = writes.length > 0 || merged.changed || legacy.length > 0;
  for (const w of writes) lines.push(`[quoin] ${opts.dryRun ? "would write" : "write"} ${w.to}`);
  if (merged.changed) {
    lines.push(
      `[quoin] ${opts.dryRun ? "would update" : "update"} ${layout.settingsFile}${before === null ? " (new file)" : ""}`,
    );
    if (opts.dryRun) lines.push(...changedLines(before ?? "", merged.text));
  }
  for (const file of legacy)
    lines.push(
      `[quoin] ${opts.dryRun ? "would move" : "move"} ${file} (replaced by its ${HOT_BUNDLE_EXT} bundle) to ${layout.backupsDir}`,
    );
  lines.push(...[replacementLine(earlier, build, opts.dryRun)].filter((l) => l !== null));
  if (!changed) lines.push("[quoin] already installed; nothing to change");
  lines.push(...[pluginTwiceLine(deps)].filter((l) => l !== null));
  if (legacyStatusLine) {
    lines.push(
      `[quoin] the status line installed earlier ran ${LEGACY_ENGINE_BUNDLE}: it ${opts.dryRun ? "would run" : "now runs"} ${STATUSLINE_BUNDLE} (same gauge)`,
    );
  } else if (!opts.statusLine && hasOwnedStatusLine(merged.text)) {
    lines.push(
      "[quoin] the status line installed earlier (--statusline) stays as it is; --uninstall removes it",
    );
  }
  if (opts.dryRun) return { ok: true, lines, changed };
  applyInstall(deps, layout, { writes, merged, before, legacy }, lines);
  return { ok: true, lines, changed };
}

interface InstallWrites {
  writes: FileCopy[];
  merged: { changed: boolean; text: string };
  before: string | null;
  legacy: string[];
}

function applyInstall(
  deps: Deps,
  layout: InstallLayout,
  plan: InstallWrites,
  lines: string[],
): void {
  const { writes, merged, before, legacy } = plan;
  // One backup folder for this run: the settings copy and the replaced engine.
  let backupDir: string | undefined;
  const backups = () => (backupDir ??= freshBackupDir(deps, layout, "install"));
  for (const w of writes) writeAtomic(deps.fs, w.to, w.text, { pid: deps.pid });
  if (merged.changed) {
    if (before !== null) {
      const dir = backups();
      writeAtomic(deps.fs, path.join(dir, "settings.json"), before, { pid: deps.pid, mode: 0o600 });
      lines.push(`[quoin] backup of the previous settings: ${path.join(dir, "settings.json")}`);
    }
    writeAtomic(deps.fs, writeTarget(deps, layout.settingsFile), merged.text, {
      pid: deps.pid,
      mode: modeOf(deps, layout.settingsFile),
    });
  }
  // Last: until settings.json stops naming them, the old bundles stay where its commands look.
  for (const file of legacy) {
    const target = path.join(backups(), path.relative(layout.configDir, file));
    deps.fs.mkdirSync(path.dirname(target), { recursive: true });
    deps.fs.renameSync(file, target);
  }
  lines.push(`[quoin] check it with: ${engineCommand(layout.bundleDir)} doctor`);
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

function uninstall(deps: Deps, opts: InstallOptions): InstallOutcome {
  const layout = installLayout(deps, opts.scope);
  const lines: string[] = [
    `[quoin] ${opts.dryRun ? "dry run: would uninstall" : "uninstalling"} (${opts.scope} scope) from ${layout.configDir}`,
  ];
  const read = readSettings(deps, layout.settingsFile);
  if (!read.ok) return { ok: false, reason: read.reason, lines };
  const before = read.text;
  const state = readState(deps, layout.stateFile);
  let after: string | null = before;
  if (before !== null) {
    const merged = mergeUninstall(before, layout.settingsFile, state?.keptContainers ?? []);
    if (!merged.ok) return { ok: false, reason: merged.reason, lines };
    after = merged.text;
  }
  const settingsChanged = after !== before;
  // A settings.json that only existed for quoin goes away again (to backups/: nothing is deleted).
  let removeSettings = false;
  if (after !== null && state?.settingsCreated) {
    try {
      const v = JSON.parse(after) as unknown;
      removeSettings =
        !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;
    } catch {
      removeSettings = false;
    }
  }
  const moves = [
    ...SKILL_NAMES.map((n) => path.join(layout.skillsDir, n)).filter((dir) =>
      (readTextOrNull(deps.fs, path.join(dir, "SKILL.md")) ?? "").includes(GENERATED_SKILL_MARKER),
    ),
    ...bundleMoves(deps, layout),
  ];
  if (settingsChanged || removeSettings) {
    const verb = removeSettings ? "move aside (it only held quoin's entries)" : "update";
    lines.push(`[quoin] ${opts.dryRun ? `would ${verb}` : verb} ${layout.settingsFile}`);
    if (opts.dryRun && after !== null && before !== null)
      lines.push(...changedLines(before, after));
  }
  for (const m of moves)
    lines.push(`[quoin] ${opts.dryRun ? "would move" : "move"} ${m} to ${layout.backupsDir}`);
  const changed = settingsChanged || removeSettings || moves.length > 0;
  if (!changed) lines.push("[quoin] nothing of quoin's is installed here");
  if (opts.dryRun || !changed) return { ok: true, lines, changed };

  const dir = freshBackupDir(deps, layout, "uninstall");
  if (before !== null && (settingsChanged || removeSettings)) {
    if (removeSettings) deps.fs.renameSync(layout.settingsFile, path.join(dir, "settings.json"));
    else {
      writeAtomic(deps.fs, path.join(dir, "settings.json"), before, { pid: deps.pid, mode: 0o600 });
      writeAtomic(deps.fs, writeTarget(deps, layout.settingsFile), after as string, {
        pid: deps.pid,
        mode: modeOf(deps, layout.settingsFile),
      });
    }
    lines.push(`[quoin] backup of the previous settings: ${path.join(dir, "settings.json")}`);
  }
  for (const m of moves) {
    const target = path.join(dir, path.relative(layout.configDir, m));
    deps.fs.mkdirSync(path.dirname(target), { recursive: true });
    deps.fs.renameSync(m, target);
  }
  lines.push(`[quoin] uninstalled; removed files are kept in ${dir}`);
  return { ok: true, lines, changed };
}
