import { buildSync, transformSync } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

// plugin/ is committed (a git install gets no build step), so it must be rebuilt whenever a source
// it is built from changes. The build writes plugin/built-from.txt: every such source with the
// hash of its code; test/unit/plugin-fresh.test.ts recomputes the list from the tree, with no
// build, and names the sources that changed since plugin/ was last built.
//
// The sources: the files the plugin's bundles and scripts/build.ts import (esbuild's own import
// graph, so a new import is a new row), the skill templates, package.json, package-lock.json (the
// bundled packages' versions) and tsconfig.json (esbuild reads it). A TypeScript file is hashed
// as esbuild prints it without types and comments, so a comment or a type changes no row: they
// change no bundle either.

export const PLUGIN_SOURCES_FILE = "built-from.txt";

const HEADER = [
  "# The sources plugin/ was built from (scripts/plugin-sources.ts): sha256 of each file's code,",
  "# comments and types left out. A test recomputes it from the tree; npm run build:plugin renews it.",
];

function entries(root: string): string[] {
  const hooks = readdirSync(path.join(root, "hooks"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `hooks/${f}`);
  return [
    ...hooks,
    "lib/hooks/prompt-cold.ts",
    "lib/edge/lazy-prompt-cold.ts",
    "lib/edge/lazy-any-ascii.ts",
    "cli/cached-hook-entry.ts",
    "cli/statusline-entry.ts",
    "cli/main.ts",
    "scripts/build.ts",
  ].sort();
}

function filesUnder(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .map((f) => `${dir}/${f.split(path.sep).join("/")}`)
    .filter((f) => statSync(path.join(root, f)).isFile());
}

/** Every source of plugin/, relative to root, sorted. */
export function pluginSourcePaths(root: string): string[] {
  const graph = buildSync({
    absWorkingDir: root,
    entryPoints: entries(root),
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    outdir: "/unused",
    packages: "external",
    logLevel: "silent",
  });
  const imported = Object.keys(graph.metafile.inputs).filter((f) => !f.includes("node_modules/"));
  const fixed = [
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    ...filesUnder(root, "skills"),
  ];
  return [...new Set([...imported, ...fixed])].sort();
}

const hashes = new Map<string, string>();

/** sha256 of a source's code (first 16 hex): a .ts file without its comments and types. */
export function codeHash(file: string, text: string): string {
  const key = `${file}\0${text}`;
  const known = hashes.get(key);
  if (known !== undefined) return known;
  const code = file.endsWith(".ts")
    ? transformSync(text, {
        loader: "ts",
        minifyWhitespace: true,
        legalComments: "none",
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
      }).code
    : text;
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
  hashes.set(key, hash);
  return hash;
}

/**
 * The text of plugin/built-from.txt for the tree at root; `read` may stand in for the disk and
 * `paths` for the import graph (a test varies one file's text many times).
 */
export function pluginSourcesText(
  root: string,
  read: (rel: string) => string | null = (rel) =>
    existsSync(path.join(root, rel)) ? readFileSync(path.join(root, rel), "utf8") : null,
  paths: readonly string[] = pluginSourcePaths(root),
): string {
  const rows = paths.map((rel) => {
    const text = read(rel);
    return `${text === null ? "missing" : codeHash(rel, text)}  ${rel}`;
  });
  return `${[...HEADER, ...rows].join("\n")}\n`;
}

/** The sources whose row differs between two built-from texts: changed, new or gone. */
export function changedSources(recorded: string, now: string): string[] {
  const rows = (text: string) =>
    new Map(
      text
        .split("\n")
        .filter((l) => l && !l.startsWith("#"))
        .map((l) => {
          const [hash, rel] = l.split("  ");
          return [rel ?? "", hash ?? ""] as const;
        }),
    );
  const before = rows(recorded);
  const after = rows(now);
  const out: string[] = [];
  for (const [rel, hash] of after)
    if (!before.has(rel)) out.push(`${rel} (new)`);
    else if (before.get(rel) !== hash) out.push(`${rel} (changed)`);
  for (const rel of before.keys()) if (!after.has(rel)) out.push(`${rel} (gone)`);
  return out.sort();
}
