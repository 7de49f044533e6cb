import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead } from "../core/file-range.ts";

// Claude Code's settings files in its order of precedence: the project's settings.local.json,
// the project's settings.json, then <config>/settings.json. The model setting and the
// auto-compact window both read them (model-setting.ts, auto-compact-setting.ts); the prompt hook
// asks both on one prompt, so each file is read at most once per reader, and only when asked.

/** settings.json files are small; a bigger one is not parsed here (a hook must stay cheap). */
const MAX_SETTINGS_BYTES = 64 * 1024;

export interface SettingsPlaces {
  env: Readonly<Record<string, string | undefined>>;
  /** <config>: $CLAUDE_CONFIG_DIR or ~/.claude */
  configDir: string;
  /** the project root, or null outside a project */
  projectRoot: string | null;
}

export interface SettingsFile {
  file: string;
  /**
   * The file's top-level value for `key`; undefined when the file is missing, over 64 KB, not
   * JSON (the client would not use it either) or does not set it.
   */
  get(key: string): unknown;
}

export interface Settings {
  env: Readonly<Record<string, string | undefined>>;
  /** in the client's order: the first that sets a key is the one in effect */
  files: readonly SettingsFile[];
}

function settingsFile(fs: FsApi, file: string): SettingsFile {
  let text: string | null | undefined;
  let json: Record<string, unknown> | null | undefined;
  return {
    file,
    get(key) {
      if (text === undefined) {
        const head = readHead(fs, file, MAX_SETTINGS_BYTES + 1);
        text = head === null || head.length > MAX_SETTINGS_BYTES ? null : head;
      }
      // Most settings files set neither key: skip the parse.
      if (text === null || !text.includes(`"${key}"`)) return undefined;
      if (json === undefined) {
        try {
          const value: unknown = JSON.parse(text.replace(/^\ufeff/, ""));
          json =
            typeof value === "object" && value !== null && !Array.isArray(value)
              ? (value as Record<string, unknown>)
              : null;
        } catch {
          json = null;
        }
      }
      return json?.[key];
    },
  };
}

/** The settings files of this project and config folder, each read on its first question. */
export function readSettings(fs: FsApi, places: SettingsPlaces): Settings {
  const files = [
    ...(places.projectRoot
      ? [
          path.join(places.projectRoot, ".claude", "settings.local.json"),
          path.join(places.projectRoot, ".claude", "settings.json"),
        ]
      : []),
    path.join(places.configDir, "settings.json"),
  ];
  return { env: places.env, files: files.map((file) => settingsFile(fs, file)) };
}
