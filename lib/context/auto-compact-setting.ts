import type { SettingWindow } from "./context-window.ts";
import type { Settings } from "./settings-files.ts";

// The auto-compact window the person set: CLAUDE_CODE_AUTO_COMPACT_WINDOW, else settings.json
// `autoCompactWindow` (local, project, then user settings; the first that sets it). Both clients
// (2.1.197 and 2.1.332) compact at that window minus their summary buffer, as at a model window of
// that size; CLAUDE_AUTOCOMPACT_PCT_OVERRIDE moved neither client's compaction in headless runs, so
// it is not read (docs/claude-code-versions.md, "Auto-compact knobs").

/** The clients' floor: a smaller setting compacts at this window (2.1.332 says so in its warning). */
export const AUTO_COMPACT_MIN = 100_000;

/** "200k", "1m", "150000" as the client reads them; below the floor is the floor; undefined when unusable. */
export function parseAutoCompactWindow(raw: unknown): number | undefined {
  let tokens: number;
  if (typeof raw === "number") tokens = raw;
  else if (typeof raw === "string") {
    const text = raw.trim().toLowerCase();
    const m = /^(\d+(?:\.\d+)?)([km]?)$/.exec(text);
    if (!m) return undefined;
    tokens = Number(m[1]) * (m[2] === "m" ? 1_000_000 : m[2] === "k" ? 1000 : 1);
  } else return undefined;
  tokens = Math.round(tokens);
  if (!Number.isSafeInteger(tokens) || tokens < 1) return undefined;
  return Math.max(AUTO_COMPACT_MIN, tokens);
}

/** The auto-compact window in effect and where it was set; null when the person set none. */
export function autoCompactWindow(settings: Settings): SettingWindow | null {
  const env = settings.env["CLAUDE_CODE_AUTO_COMPACT_WINDOW"];
  if (env !== undefined && env.trim() !== "") {
    const window = parseAutoCompactWindow(env);
    if (window !== undefined)
      return { window, where: `CLAUDE_CODE_AUTO_COMPACT_WINDOW=${env.trim()}` };
  }
  for (const file of settings.files) {
    const window = parseAutoCompactWindow(file.get("autoCompactWindow"));
    if (window !== undefined)
      return { window, where: `autoCompactWindow ${window} in ${file.file}` };
  }
  return null;
}
