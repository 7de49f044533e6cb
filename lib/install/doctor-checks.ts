import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { availableScopes, ENGINE_BUNDLE, engineCommand, installLayout } from "./install-layout.ts";
import type { Knobs } from "../core/knobs.ts";
import { windowSourceChecks } from "./doctor-windows.ts";
import { PLUGIN_COMMAND, SETTINGS_COMMAND } from "../core/checkpoint-command.ts";
import { enabledPluginIn } from "./enabled-plugin.ts";
import { pathCommandCheck } from "./path-command.ts";
import { engineInstaller } from "./install-invocation.ts";
import { settingsInstalls, uninstallCommandFor } from "./installs-present.ts";
import { setupFix, timed, type DoctorCheck } from "./doctor-check.ts";
import { layoutChecks } from "./doctor-install-checks.ts";
import { makeWindowKnown, windowAdvice } from "./window-advice.ts";

export type { DoctorCheck } from "./doctor-check.ts";

// `quoin-checkpoint doctor`: what is installed, whether Claude Code will find it, how fast the
// hooks start. Each check says what is wrong and the command that fixes it. The checks of one
// install's files and settings are in doctor-install-checks.ts.

export interface DoctorInput {
  nodeVersion: string;
  /** hook start-ups slower than this are flagged (Claude Code runs UserPromptSubmit before every prompt) */
  slowHookMs?: number;
  /** set: also say which window this project's recent sessions ran on */
  knobs?: Knobs;
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
    const makeKnown = layouts[0]
      ? windowAdvice(deps, layouts[0], engineInstaller(deps))
      : makeWindowKnown(deps);
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
