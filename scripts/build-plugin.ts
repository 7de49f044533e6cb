import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import {
  ANY_ASCII_BUNDLE,
  HOOK_SPECS,
  ENGINE_BUNDLE,
  hookBundleFile,
  STATUSLINE_BUNDLE,
} from "../lib/install/install-layout.ts";
import { marketplaceJson, pluginFiles } from "../lib/install/plugin-files.ts";
import { renderAllSkills } from "./gen-skills.ts";
import { PLUGIN_SOURCES_FILE, pluginSourcesText } from "./plugin-sources.ts";

/** The plugin folder's files from a finished dist/ (bundles) and the templates. */
export function buildPluginFiles(root: string, distDir: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
    description: string;
    license: string;
  };
  const hookBundles: Record<string, string> = {};
  for (const spec of HOOK_SPECS) {
    const file = path.join(distDir, hookBundleFile(spec.bundle));
    if (existsSync(file)) hookBundles[spec.bundle] = readFileSync(file, "utf8");
  }
  const skills = Object.fromEntries(renderAllSkills(root, "plugin").map((s) => [s.name, s.text]));
  const files = pluginFiles({
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    engine: readFileSync(path.join(distDir, ENGINE_BUNDLE), "utf8"),
    anyAscii: readFileSync(path.join(distDir, ANY_ASCII_BUNDLE), "utf8"),
    statusLine: readFileSync(path.join(distDir, STATUSLINE_BUNDLE), "utf8"),
    hookBundles,
    skills,
  });
  // What the bundles were built from: the plugin-fresh test compares it with the tree, no build.
  return { ...files, [PLUGIN_SOURCES_FILE]: pluginSourcesText(root) };
}

export function marketplaceText(root: string): string {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
    description: string;
  };
  return marketplaceJson(pkg);
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    return statSync(full).isDirectory() ? listFiles(full, rel) : [rel];
  });
}

/** Make `dir` hold exactly `files` (a build output folder: files not in the set are removed). */
export function writeFolder(dir: string, files: Record<string, string>): void {
  for (const rel of listFiles(dir)) if (!(rel in files)) rmSync(path.join(dir, rel));
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
  }
}

/** Paths that differ between a folder on disk and the files it should hold. */
export function folderDifferences(dir: string, files: Record<string, string>): string[] {
  const onDisk = listFiles(dir);
  const extra = onDisk.filter((rel) => !(rel in files)).map((rel) => `${rel} (not built any more)`);
  const stale = Object.entries(files)
    .filter(
      ([rel, text]) => !onDisk.includes(rel) || readFileSync(path.join(dir, rel), "utf8") !== text,
    )
    .map(([rel]) => rel);
  return [...stale, ...extra].sort();
}
