import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead } from "../core/file-range.ts";
import type { SettingWindow } from "./context-window.ts";
import type { SettingsPlaces } from "./model-setting.ts";

// The auto-compact window the person set: CLAUDE_CODE_AUTO_COMPACT_WINDOW, else settings.json
// `autoCompactWindow` (local, project, then user settings; the first that sets it). Both clients
// (2.1.197 and 2.1.332) compact at that window minus their summary buffer, as at a model window of
// that size; CLAUDE_AUTOCOMPACT_PCT_OVERRIDE moved neither client's compaction in headless runs, so
// it is not read (docs/claude-code-versions.md, "Auto-compact knobs").

/** The clients' floor: a smaller setting compacts at this window (2.1.332 says so in its warning). */
export const AUTO_COMPACT_MIN = 100_000;
const MAX_SETTINGS_BYTES = 64 * 1024;

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

function settingIn(fs: FsApi, file: string): number | undefined {
  const text = readHead(fs, file, MAX_SETTINGS_BYTES + 1);
  if (text === null || text.length > MAX_SETTINGS_BYTES) return undefined;
  // Most settings files do not set it: skip the parse.
  if (!text.includes('"autoCompactWindow"')) return undefined;
  try {
    return parseAutoCompactWindow(
      (JSON.parse(text.replace(/^\ufeff/, "")) as Record<string, unknown>)["autoCompactWindow"],
    );
  } catch {
    return undefined; // unreadable JSON: the client would not use it either
  }
}

/** The auto-compact window in effect and where it was set; null when the person set none. */
export function autoCompactWindow(fs: FsApi, places: SettingsPlaces): SettingWindow | null {
  const env = places.env["CLAUDE_CODE_AUTO_COMPACT_WINDOW"];
  if (env !== undefined && env.trim() !== "") {
    const window = parseAutoCompactWindow(env);
    if (window !== undefined)
      return { window, where: `CLAUDE_CODE_AUTO_COMPACT_WINDOW=${env.trim()}` };
  }
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
    const window = settingIn(fs, file);
    if (window !== undefined) return { window, where: `autoCompactWindow ${window} in ${file}` };
  }
  return null;
}
