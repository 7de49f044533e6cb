import { build, type BuildOptions, type Plugin } from "esbuild";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { readdirSync, rmSync, statSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { renderAllSkills, writeSkills } from "./gen-skills.ts";
import { buildPluginFiles, marketplaceText, writeFolder } from "./build-plugin.ts";
import { lazyPromptColdPlugin } from "./lazy-prompt-cold-plugin.ts";
import {
  ANY_ASCII_BUNDLE,
  ENGINE_BUNDLE,
  hookBundleFile,
  LEGACY_ENGINE_BUNDLE,
  STATUSLINE_BUNDLE,
  type HookBundle,
} from "../lib/install/install-layout.ts";
import { BIN_BUNDLE, INSTALLER_BUNDLE } from "../lib/install/package-files.ts";

const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "dist");

const common: BuildOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  // Every dependency is inlined: a bundle copied alone into an empty folder must run.
  packages: "bundle",
};

/**
 * `import * as path from "node:path"` in a CommonJS bundle becomes one __toESM copy of the module
 * per importing file (18 in the prompt hook). This plugin gives the bundle one plain require with
 * named re-exports, so every importer reads the same object.
 */
function plainBuiltin(name: string): Plugin {
  const keys = Object.keys(createRequire(import.meta.url)(name) as object).filter((k) =>
    /^[A-Za-z_$][\w$]*$/.test(k),
  );
  return {
    name: `plain-${name}`,
    setup(b) {
      // The module's own require of the builtin stays a plain require (external).
      b.onResolve({ filter: new RegExp(`^${name}$`) }, (args) =>
        args.namespace === "plain-builtin"
          ? { path: name, external: true }
          : { path: name, namespace: "plain-builtin" },
      );
      b.onLoad({ filter: /.*/, namespace: "plain-builtin" }, () => ({
        contents: `const m = require(${JSON.stringify(name)});\nexport default m;\nexport const { ${keys.join(", ")} } = m;\n`,
        loader: "js",
      }));
    },
  };
}

const hookEntries = readdirSync(path.join(root, "hooks"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => path.join(root, "hooks", f));

mkdirSync(outDir, { recursive: true });
// Bundles of earlier builds (hooks/*.mjs, statusline.mjs, the .mjs engine) must not outlive a rename.
rmSync(path.join(outDir, "hooks"), { recursive: true, force: true });
rmSync(path.join(outDir, "statusline.mjs"), { force: true });
rmSync(path.join(outDir, LEGACY_ENGINE_BUNDLE), { force: true });
const outputs: string[] = [];

// Every bundle is CommonJS, which node starts faster than an ES module (install-layout.ts
// HOT_BUNDLE_EXT; `npm run bench`). The sources are ES modules: import.meta.filename and .dirname
// become __filename and __dirname, and import.meta.url is made from __filename only when read.
const metaBanner =
  'var __quoinMeta={get url(){return require("node:url").pathToFileURL(__filename).href}};';
const hot: BuildOptions = {
  ...common,
  format: "cjs",
  define: {
    "import.meta.url": "__quoinMeta.url",
    "import.meta.filename": "__filename",
    "import.meta.dirname": "__dirname",
  },
  banner: { js: metaBanner },
  plugins: [plainBuiltin("node:path")],
};

const lazyPromptCold = lazyPromptColdPlugin(root);

async function bundleText(opts: BuildOptions): Promise<string> {
  const out = await build({ ...opts, write: false, outfile: "/unused.cjs" });
  return out.outputFiles[0]!.text;
}

/**
 * The prompt hook runs before every prompt: its file is a small loader (cli/cached-hook-entry.ts)
 * with the bundle and its cold part as strings, compiled with V8's code cache
 * (lib/edge/code-cache.ts). One file still, as every hook.
 */
async function buildCachedHook(entry: string, cold: string, outfile: string): Promise<void> {
  const main = await bundleText({
    ...hot,
    entryPoints: [entry],
    plugins: [...(hot.plugins ?? []), lazyPromptCold],
  });
  const coldText = await bundleText({ ...hot, entryPoints: [cold] });
  await build({
    ...hot,
    entryPoints: [path.join(root, "cli", "cached-hook-entry.ts")],
    outfile,
    banner: {
      js: `var __quoinMain=${JSON.stringify(main)},__quoinColdSource=${JSON.stringify(coldText)},__quoinMainHash=${JSON.stringify(createHash("sha256").update(main).digest("hex").slice(0, 12))};\n${metaBanner}`,
    },
  });
}

for (const entry of hookEntries) {
  const bundle = path.basename(entry, ".ts") as HookBundle;
  const outfile = path.join(outDir, hookBundleFile(bundle));
  if (bundle === "userpromptsubmit")
    await buildCachedHook(entry, path.join(root, "lib", "hooks", "prompt-cold.ts"), outfile);
  else await build({ ...hot, entryPoints: [entry], outfile });
  outputs.push(outfile);
}

// The status line runs on every draw: its own small bundle, like a hook.
const statusLine = path.join(outDir, STATUSLINE_BUNDLE);
await build({
  ...hot,
  entryPoints: [path.join(root, "cli", "statusline-entry.ts")],
  outfile: statusLine,
});
outputs.push(statusLine);

// The engine: any-ascii becomes a small loader of dist/any-ascii.cjs (lib/edge/lazy-any-ascii.ts),
// so its tables are parsed only by a save that transliterates.
const lazyAnyAscii: Plugin = {
  name: "lazy-any-ascii",
  setup(b) {
    b.onResolve({ filter: /^any-ascii$/ }, () => ({
      path: path.join(root, "lib", "edge", "lazy-any-ascii.ts"),
    }));
  },
};
const engine = path.join(outDir, ENGINE_BUNDLE);
await build({
  ...hot,
  entryPoints: [path.join(root, "cli", "main.ts")],
  outfile: engine,
  plugins: [...(hot.plugins ?? []), lazyAnyAscii],
  // The shebang must be the first line (a `bin`, and `./quoin-checkpoint.cjs` from a shell).
  banner: { js: `#!/usr/bin/env node\n${metaBanner}` },
});
outputs.push(engine);

// The installer is its own bundle (the engine every save loads does not carry it), and the bin a
// small dispatcher that loads the installer or the engine beside it (cli/bin-entry.ts).
const installer = path.join(outDir, INSTALLER_BUNDLE);
await build({
  ...hot,
  entryPoints: [path.join(root, "cli", "installer-entry.ts")],
  outfile: installer,
});
outputs.push(installer);
const bin = path.join(outDir, BIN_BUNDLE);
await build({
  ...hot,
  entryPoints: [path.join(root, "cli", "bin-entry.ts")],
  outfile: bin,
  external: [`./${INSTALLER_BUNDLE}`, `./${ENGINE_BUNDLE}`],
  banner: { js: `#!/usr/bin/env node\n${metaBanner}` },
});
outputs.push(bin);

const anyAscii = path.join(outDir, ANY_ASCII_BUNDLE);
await build({
  ...common,
  format: "cjs",
  stdin: { contents: 'export { default } from "any-ascii";', resolveDir: root, loader: "js" },
  outfile: anyAscii,
});
outputs.push(anyAscii);

for (const file of outputs) {
  const kb = (statSync(file).size / 1024).toFixed(1);
  console.log(`built ${path.relative(root, file)}  ${kb} KB`);
}

// The skills (dist/skills, for settings installs) and the plugin folder (dist/plugin). With
// --write-plugin the plugin also goes to plugin/ and .claude-plugin/marketplace.json, the committed
// copy a git install uses (test/integration/plugin-fresh.test.ts fails when it is stale).
for (const file of writeSkills(path.join(outDir, "skills"), renderAllSkills(root, "settings"))) {
  console.log(`rendered ${path.relative(root, file)}  ${statSync(file).size} B`);
}
const plugin = buildPluginFiles(root, outDir);
writeFolder(path.join(outDir, "plugin"), plugin);
console.log(`built dist/plugin  ${Object.keys(plugin).length} files`);
if (process.argv.includes("--write-plugin")) {
  writeFolder(path.join(root, "plugin"), plugin);
  mkdirSync(path.join(root, ".claude-plugin"), { recursive: true });
  writeFileSync(path.join(root, ".claude-plugin", "marketplace.json"), marketplaceText(root));
  console.log("wrote plugin/ and .claude-plugin/marketplace.json");
}
