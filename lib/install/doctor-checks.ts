import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import {
  ANY_ASCII_BUNDLE,
  availableScopes,
  commandTarget,
  ENGINE_BUNDLE,
  engineCommand,
  GENERATED_SKILL_MARKER,
  HOOK_SPECS,
  hookBundleFile,
  installLayout,
  SKILL_NAMES,
  type InstallLayout,
} from "./install-layout.ts";
import { ownedHookCommands, ownedHookMatchers } from "./settings-merge.ts";
import type { Knobs } from "../core/knobs.ts";
import { windowSourceChecks } from "./doctor-windows.ts";
import { PLUGIN_COMMAND, SETTINGS_COMMAND } from "../core/checkpoint-command.ts";
import { enabledPluginIn } from "./enabled-plugin.ts";
import { pathCommandCheck } from "./path-command.ts";
import {
  engineInstaller,
  installerCommand,
  scopeArgs,
  UNKNOWN_INSTALLER,
} from "./install-invocation.ts";
import {
  projectRootOf,
  recordedInvocation,
  settingsInstalls,
  uninstallCommandFor,
} from "./installs-present.ts";

// `quoin-checkpoint doctor`: what is installed, whether Claude Code will find it, how fast the
// hooks start. Each check says what is wrong and the command that fixes it.

export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** worth a look, not a failure (exit code unchanged) */
  warn?: boolean;
  detail: string;
  fix?: string;
}

export interface DoctorInput {
  nodeVersion: string;
  /** hook start-ups slower than this are flagged (Claude Code runs UserPromptSubmit before every prompt) */
  slowHookMs?: number;
  /** set: also say which window this project's recent sessions ran on */
  knobs?: Knobs;
}

/**
 * The fix that reinstalls `layout` (null: a first install), as the installer that made it runs
 * (its install state), else as the one beside this engine; never a form of another install.
 */
function setupFix(deps: Deps, layout: InstallLayout | null): string {
  const inv = (layout && recordedInvocation(deps, layout)) ?? engineInstaller(deps);
  if (!inv) return UNKNOWN_INSTALLER;
  const args = layout ? scopeArgs(layout.scope, projectRootOf(layout)) : [];
  return `run ${installerCommand(inv, "install", args)}`;
}

function timed(
  deps: Deps,
  cmd: string,
  args: string[],
  input: string,
): { ms: number; status: number | null } {
  const start = deps.now().getTime();
  const res = deps.run(cmd, args, { input, cwd: path.parse(deps.cwd).root, timeoutMs: 10_000 });
  return { ms: deps.now().getTime() - start, status: res.status };
}

function layoutChecks(deps: Deps, layout: InstallLayout, slowMs: number): DoctorCheck[] {
  const where = `${layout.scope} install (${layout.configDir})`;
  const setup = setupFix(deps, layout);
  const out = [
    ...bundleChecks(deps, layout, where, setup),
    ...skillChecks(deps, layout, where, setup),
  ];
  const settings = readTextOrNull(deps.fs, layout.settingsFile);
  const owned = settings === null ? {} : ownedHookCommands(settings);
  if ("reason" in owned) {
    out.push({
      name: `${where}: settings.json`,
      ok: false,
      detail: String(owned.reason),
      fix: `fix the JSON in ${layout.settingsFile} by hand, then ${setup}`,
    });
    return out;
  }
  return [
    ...out,
    ...hookChecks(deps, layout, where, owned as Record<string, string[]>, slowMs, setup),
    ...matcherChecks(settings ?? "", where, setup),
  ];
}

/** An install older than this one keeps its old matchers (SessionStart without fork) until a reinstall. */
function matcherChecks(settings: string, where: string, setup: string): DoctorCheck[] {
  const found = ownedHookMatchers(settings);
  return HOOK_SPECS.flatMap((spec): DoctorCheck[] => {
    const bad = (found[spec.event] ?? []).filter((m) => m !== spec.matcher);
    if (!bad.length) return [];
    const stale = bad[0];
    return [
      {
        name: `${where}: ${spec.event} matcher`,
        ok: false,
        detail: `is ${stale === undefined ? "absent" : `"${stale}"`}; this version installs "${spec.matcher ?? "(none)"}"${spec.event === "SessionStart" ? " (without fork a forked session gets no banner)" : ""}`,
        fix: setup,
      },
    ];
  });
}

function bundleChecks(
  deps: Deps,
  layout: InstallLayout,
  where: string,
  setup: string,
): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const engine = path.join(layout.bundleDir, ENGINE_BUNDLE);
  out.push(
    deps.fs.existsSync(engine)
      ? { name: `${where}: engine`, ok: true, detail: engine }
      : { name: `${where}: engine`, ok: false, detail: `${engine} is missing`, fix: setup },
  );
  // A warning only: without the tables the engine still saves, with `?` for each non-ASCII character.
  const anyAscii = path.join(layout.bundleDir, ANY_ASCII_BUNDLE);
  if (deps.fs.existsSync(engine)) {
    out.push(
      deps.fs.existsSync(anyAscii)
        ? { name: `${where}: transliteration tables`, ok: true, detail: anyAscii }
        : {
            name: `${where}: transliteration tables`,
            ok: true,
            warn: true,
            detail: `${anyAscii} is missing: transliteration falls back to '?' (a checkpoint's free text keeps ASCII only)`,
            fix: `reinstall: ${setup}`,
          },
    );
  }
  return out;
}

function skillChecks(
  deps: Deps,
  layout: InstallLayout,
  where: string,
  setup: string,
): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  for (const skill of SKILL_NAMES) {
    const file = path.join(layout.skillsDir, skill, "SKILL.md");
    const name = `${where}: /${skill} skill`;
    const text = readTextOrNull(deps.fs, file);
    if (text === null) out.push({ name, ok: false, detail: `${file} is missing`, fix: setup });
    else if (!text.includes(GENERATED_SKILL_MARKER)) {
      out.push({
        name,
        ok: false,
        detail: `${file} is not quoin's (another /${skill} skill is in its place)`,
        fix: `move that folder away, then ${setup}`,
      });
    } else out.push({ name, ok: true, detail: file });
  }
  return out;
}

function hookChecks(
  deps: Deps,
  layout: InstallLayout,
  where: string,
  owned: Record<string, string[]>,
  slowMs: number,
  setup: string,
): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const root = path.dirname(layout.configDir);
  for (const spec of HOOK_SPECS) {
    const bundle = path.join(layout.bundleDir, hookBundleFile(spec.bundle));
    const commands = owned[spec.event] ?? [];
    const name = `${where}: ${spec.event} hook`;
    if (!commands.length) {
      out.push({
        name,
        ok: false,
        detail: `no quoin entry under hooks.${spec.event} in ${layout.settingsFile}`,
        // a clone builds its bundles itself; a package's installer copies them
        fix:
          deps.fs.existsSync(bundle) || !/ run setup\b|npm run setup/.test(setup)
            ? setup
            : `build the ${spec.bundle} bundle (npm run build), then ${setup}`,
      });
      continue;
    }
    const target = commandTarget(commands[0] ?? "")?.replace("${CLAUDE_PROJECT_DIR}", root);
    if (!target || !deps.fs.existsSync(target)) {
      out.push({
        name,
        ok: false,
        detail: `settings point at ${target ?? commands[0]}, which is missing`,
        fix: setup,
      });
      continue;
    }
    const t = timed(deps, "node", [target], "{}");
    if (t.status !== 0)
      out.push({
        name,
        ok: false,
        detail: `${target} exited ${t.status} on empty input (hooks must fail open with 0)`,
        fix: setup,
      });
    else if (t.ms > slowMs)
      out.push({
        name,
        ok: false,
        detail: `starts in ${t.ms} ms (over ${slowMs} ms)`,
        fix: "check the disk and antivirus; `npm run bench` compares it with `node -e 0`",
      });
    else out.push({ name, ok: true, detail: `starts in ${t.ms} ms` });
  }
  return out;
}

export function runDoctorChecks(deps: Deps, input: DoctorInput): DoctorCheck[] {
  const slowMs = input.slowHookMs ?? 1000;
  const checks: DoctorCheck[] = [];
  const major = Number(/^v?(\d+)/.exec(input.nodeVersion)?.[1] ?? 0);
  checks.push(
    major >= 20
      ? { name: "node version", ok: true, detail: input.nodeVersion }
      : {
          name: "node version",
          ok: false,
          detail: `${input.nodeVersion} is too old`,
          fix: "install Node.js 20 or newer",
        },
  );
  const floor = timed(deps, "node", ["-e", "0"], "");
  checks.push(
    floor.status === 0
      ? {
          name: "node on PATH (hooks run `node`)",
          ok: true,
          detail: `node -e 0 takes ${floor.ms} ms`,
        }
      : {
          name: "node on PATH (hooks run `node`)",
          ok: false,
          detail: "`node` did not run",
          fix: "put node on the PATH Claude Code starts with",
        },
  );
  const layouts = availableScopes(deps)
    .map((scope) => installLayout(deps, scope))
    .filter((l, i, all) => all.findIndex((o) => o.configDir === l.configDir) === i)
    // NOTE: not the bundle folder alone: the skills keep their dispatch config and cache there, plugin installs too.
    .filter((l) =>
      [
        path.join(l.bundleDir, ENGINE_BUNDLE),
        l.stateFile,
        path.join(l.skillsDir, "checkpoint"),
      ].some((f) => deps.fs.existsSync(f)),
    );
  const plugin = enabledPluginIn(deps, installLayout(deps, "user").settingsFile);
  if (!layouts.length) {
    checks.push(
      plugin
        ? {
            name: "installed files",
            ok: true,
            detail: `the plugin ${plugin} is enabled (Claude Code checks its files: claude plugin validate)`,
          }
        : {
            name: "installed files",
            ok: false,
            detail: `no quoin-checkpoint install under ${installLayout(deps, "user").configDir}${availableScopes(deps).includes("project") ? ` or ${installLayout(deps, "project").configDir}` : ""}, and no enabled plugin`,
            fix: setupFix(deps, null),
          },
    );
  }
  for (const layout of layouts) checks.push(...layoutChecks(deps, layout, slowMs));
  if (layouts[0])
    checks.push(pathCommandCheck(deps, layouts[0].stateFile, engineCommand(layouts[0].bundleDir)));
  checks.push(...oneInstallChecks(deps, plugin));
  checks.push(...commandNameChecks(plugin, layouts.length > 0));
  if (input.knobs) {
    const setup = setupFix(deps, layouts[0] ?? null);
    const makeKnown =
      setup === UNKNOWN_INSTALLER
        ? undefined
        : `${setup} --statusline (the status line records the window), or set QUOIN_CONTEXT_WINDOW`;
    checks.push(...windowSourceChecks(deps, input.knobs, makeKnown));
  }
  return checks;
}

/** Two installs Claude Code runs at once (user + project here, or settings + plugin): every hook runs twice. */
function oneInstallChecks(deps: Deps, plugin: string | null): DoctorCheck[] {
  const installs = settingsInstalls(deps);
  const self = engineInstaller(deps);
  const out: DoctorCheck[] = [];
  const user = installs.find((l) => l.scope === "user");
  const project = installs.find((l) => l.scope === "project");
  if (user && project)
    out.push({
      name: "one install only",
      ok: false,
      detail: `every hook runs twice: user install ${user.configDir} and project install ${project.configDir}`,
      fix: `keep one: ${uninstallCommandFor(deps, project, self)} (or the user install: ${uninstallCommandFor(deps, user, self)})`,
    });
  if (plugin && installs[0])
    out.push({
      name: "one install only",
      ok: false,
      detail: `every hook runs twice: the plugin ${plugin} is enabled as well as the ${installs[0].scope} install ${installs[0].configDir}`,
      fix: `keep one: ${uninstallCommandFor(deps, installs[0], self)}, or /plugin uninstall quoin-checkpoint`,
    });
  return out;
}

/**
 * Which command works for the install. NOTE: Claude Code 2.1.332's built-in /rewind has the aliases
 * /checkpoint and /undo: a user-level skill named checkpoint (the settings install) wins by exact
 * name, a plugin's skill is reachable only as /quoin-checkpoint:checkpoint, and a bare /checkpoint
 * opens Rewind ("Nothing to rewind to yet").
 */
function commandNameChecks(plugin: string | null, settingsInstall: boolean): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  if (settingsInstall)
    out.push({
      name: "command",
      ok: true,
      detail: `${SETTINGS_COMMAND}: the settings install's user-level skill wins over the built-in /rewind alias /checkpoint by its exact name`,
    });
  if (plugin)
    out.push({
      name: "command (plugin)",
      ok: true,
      warn: true,
      detail: `type ${PLUGIN_COMMAND}: with the plugin a bare ${SETTINGS_COMMAND} opens Rewind (Claude Code 2.1.332's /rewind has the aliases /checkpoint and /undo), and a plugin's skill is reachable only by its plugin-qualified name`,
      fix: `type ${PLUGIN_COMMAND}; or install with settings instead (npx quoin-checkpoint install, then /plugin uninstall quoin-checkpoint), whose /checkpoint wins by exact name`,
    });
  return out;
}

export function formatDoctor(checks: readonly DoctorCheck[]): string {
  const lines = checks.map((c) =>
    c.ok && !c.warn
      ? `ok    ${c.name}: ${c.detail}`
      : `${c.ok ? "WARN" : "FAIL"}  ${c.name}: ${c.detail}\n      fix: ${c.fix ?? "see README.md (Install)"}`,
  );
  const bad = checks.filter((c) => !c.ok).length;
  lines.push(bad ? `${bad} problem(s) found` : "all checks passed");
  return `${lines.join("\n")}\n`;
}
