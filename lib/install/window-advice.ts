import * as path from "node:path";
import { claudeConfigDir } from "../core/config-dir.ts";
import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { MAKE_WINDOW_KNOWN } from "../context/context-window.ts";
import { BUNDLE_FOLDER, ENGINE_BUNDLE, STATE_FILE, type InstallLayout } from "./install-layout.ts";
import {
  engineInstaller,
  installerCommand,
  scopeArgs,
  type Invocation,
} from "./install-invocation.ts";
import { recordedInvocation } from "./installs-present.ts";
import { hasOwnedStatusLine, hasQuietStatusLine } from "./settings-statusline.ts";

// How to make a guessed context window known, in the words that are true for this install: its
// status line records the window each time the interactive client redraws it, so an install that
// has it only waits for a redraw (`claude -p` never draws one), and one installed with
// --no-statusline gets the command that turns it on, as its own installer runs.

const OR_ENV = "or set QUOIN_CONTEXT_WINDOW";

/** The advice for the install `layout`; `self`: the installer beside this engine, when its own is not recorded. */
export function windowAdvice(
  deps: Pick<Deps, "fs">,
  layout: Pick<InstallLayout, "scope" | "configDir" | "settingsFile" | "stateFile">,
  self: Invocation | null,
): string {
  const settings = readTextOrNull(deps.fs, layout.settingsFile) ?? "";
  if (hasOwnedStatusLine(settings)) {
    const what = hasQuietStatusLine(settings) ? "status-line recorder" : "status line";
    return `this install's ${what} records the window once the interactive client draws its status line (it has not yet in this session; claude -p never draws one), ${OR_ENV}`;
  }
  const inv = recordedInvocation(deps, layout) ?? self;
  if (!inv || inv.via === "plugin")
    return `run the installer you installed with again, without --no-statusline (its status-line recorder records the window), ${OR_ENV}`;
  const root = layout.scope === "project" ? path.dirname(layout.configDir) : null;
  const command = installerCommand(inv, "install", scopeArgs(layout.scope, root));
  return `this install has no status line to record the window (installed with --no-statusline, or before the recorder was the default): turn the recorder on with ${command}, ${OR_ENV}`;
}

/**
 * The advice for the install whose engine (or hook) is running: found from the engine's folder,
 * `<config>/quoin-checkpoint/`. A plugin cannot register a status line; a build run from a
 * clone's dist/ is no install: the general advice.
 */
export function makeWindowKnown(deps: Pick<Deps, "fs" | "env" | "home" | "engineScript">): string {
  const engine = deps.engineScript;
  const self = engineInstaller(deps);
  if (self?.via === "plugin")
    return "set QUOIN_CONTEXT_WINDOW where Claude Code starts (a plugin cannot register the status line that records the window)";
  if (!engine || path.basename(engine) !== ENGINE_BUNDLE) return MAKE_WINDOW_KNOWN;
  const bundleDir = path.dirname(engine);
  const stateFile = path.join(bundleDir, STATE_FILE);
  if (path.basename(bundleDir) !== BUNDLE_FOLDER || !deps.fs.existsSync(stateFile))
    return MAKE_WINDOW_KNOWN;
  const configDir = path.dirname(bundleDir);
  const scope = configDir === claudeConfigDir(deps.env, deps.home) ? "user" : "project";
  const settingsFile = path.join(configDir, "settings.json");
  return windowAdvice(deps, { scope, configDir, settingsFile, stateFile }, self);
}
