import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead } from "../core/file-range.ts";
import { settingNamesModel, type SettingWindow } from "./context-window.ts";

// What Claude Code exposes to a hook about the session's model (verified with the real client,
// docs/hooks.md, "The context window"): the hook inherits the client's environment
// (ANTHROPIC_MODEL, CLAUDE_CODE_DISABLE_1M_CONTEXT), and settings.json `model` keeps its `[1m]`
// (the transcript's message.model never has it). The client's precedence: ANTHROPIC_MODEL, then
// local, project and user settings; the first that sets a model is the one in effect, the rest are
// not read.

/** settings.json files are small; a bigger one is not parsed here (a hook must stay cheap). */
const MAX_SETTINGS_BYTES = 64 * 1024;

export interface SettingsPlaces {
  env: Readonly<Record<string, string | undefined>>;
  /** <config>: $CLAUDE_CONFIG_DIR or ~/.claude */
  configDir: string;
  /** the project root, or null outside a project */
  projectRoot: string | null;
}

function modelIn(fs: FsApi, file: string): string | undefined | null {
  const text = readHead(fs, file, MAX_SETTINGS_BYTES + 1);
  if (text === null || text.length > MAX_SETTINGS_BYTES) return undefined;
  // Most settings files set no model: skip the parse.
  if (!text.includes('"model"')) return undefined;
  try {
    const value = (JSON.parse(text) as Record<string, unknown>)["model"];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  } catch {
    return null; // unreadable JSON: Claude Code would not use it either; go on
  }
}

/** The model setting in effect and where it was read; null when none is set. */
function effectiveModelSetting(
  fs: FsApi,
  places: SettingsPlaces,
): { value: string; where: string } | null {
  const fromEnv = places.env["ANTHROPIC_MODEL"]?.trim();
  if (fromEnv) return { value: fromEnv, where: "ANTHROPIC_MODEL" };
  const files = [
    ...(places.projectRoot
      ? [
          path.join(places.projectRoot, ".claude", "settings.local.json"),
          path.join(places.projectRoot, ".claude", "settings.json"),
        ]
      : []),
    path.join(places.configDir, "settings.json"),
  ];
  for (const file of files) {
    const value = modelIn(fs, file);
    if (value) return { value, where: file };
  }
  return null;
}

/**
 * A window Claude Code's own settings settle for this model: 200k under
 * CLAUDE_CODE_DISABLE_1M_CONTEXT=1; 1M when the model setting in effect carries [1m] and names
 * the transcript's model (`claude-sonnet-4-5[1m]`, or an alias such as `sonnet[1m]`).
 */
export function settingWindow(
  fs: FsApi,
  places: SettingsPlaces,
  model: string | undefined,
): SettingWindow | null {
  if (places.env["CLAUDE_CODE_DISABLE_1M_CONTEXT"] === "1")
    return { window: 200_000, where: "CLAUDE_CODE_DISABLE_1M_CONTEXT=1" };
  if (!model) return null;
  const setting = effectiveModelSetting(fs, places);
  if (!setting || !/\[1m\]$/i.test(setting.value) || !settingNamesModel(setting.value, model))
    return null;
  const where =
    setting.where === "ANTHROPIC_MODEL"
      ? `ANTHROPIC_MODEL=${setting.value}`
      : `model ${setting.value} in ${setting.where}`;
  return { window: 1_000_000, where };
}
