import type { Settings } from "./settings-files.ts";
import { settingNamesModel, type SettingWindow } from "./context-window.ts";

// What Claude Code exposes to a hook about the session's model (verified with the real client,
// docs/hooks.md, "The context window"): the hook inherits the client's environment
// (ANTHROPIC_MODEL, CLAUDE_CODE_DISABLE_1M_CONTEXT), and settings.json `model` keeps its `[1m]`
// (the transcript's message.model never has it). The client's precedence: ANTHROPIC_MODEL, then
// local, project and user settings; the first that sets a model is the one in effect, the rest are
// not read.

/** The model setting in effect and where it was read; null when none is set. */
function effectiveModelSetting(settings: Settings): { value: string; where: string } | null {
  const fromEnv = settings.env["ANTHROPIC_MODEL"]?.trim();
  if (fromEnv) return { value: fromEnv, where: "ANTHROPIC_MODEL" };
  for (const file of settings.files) {
    const value = file.get("model");
    if (typeof value === "string" && value.trim() !== "")
      return { value: value.trim(), where: file.file };
  }
  return null;
}

/**
 * A window Claude Code's own settings settle for this model: 200k under
 * CLAUDE_CODE_DISABLE_1M_CONTEXT=1; 1M when the model setting in effect carries [1m] and names
 * the transcript's model (`claude-sonnet-4-5[1m]`, or an alias such as `sonnet[1m]`).
 */
export function settingWindow(settings: Settings, model: string | undefined): SettingWindow | null {
  if (settings.env["CLAUDE_CODE_DISABLE_1M_CONTEXT"] === "1")
    return { window: 200_000, where: "CLAUDE_CODE_DISABLE_1M_CONTEXT=1" };
  if (!model) return null;
  const setting = effectiveModelSetting(settings);
  if (!setting || !/\[1m\]$/i.test(setting.value) || !settingNamesModel(setting.value, model))
    return null;
  const where =
    setting.where === "ANTHROPIC_MODEL"
      ? `ANTHROPIC_MODEL=${setting.value}`
      : `model ${setting.value} in ${setting.where}`;
  return { window: 1_000_000, where };
}
