import { build, type BuildOptions, type Plugin } from "esbuild";
import { createRequire } from "node:module";
import { readdirSync, rmSync, statSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { renderAllSkills, writeSkills } from "./gen-skills.ts";
import { buildPluginFiles, marketplaceText, writeFolder } from "./build-plugin.ts";
import { hookBundleFile, STATUSLINE_BUNDLE, type HookBundle } from "../lib/install/install-layout.ts";

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
  const keys = Object.keys(createRequire(import.meta.url)(name) as object).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k));
  return {
    name: `plain-${name}`,
    setup(b) {
      // The module's own require of the builtin stays a plain require (external).
      b.onResolve({ filter: new RegExp(`^${name}$`) }, (args) =>
        args.namespace === "plain-builtin" ? { path: name, external: true } : { path: name, namespace: "plain-builtin" },
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
// Bundles of earlier builds (hooks/*.mjs, statusline.mjs) must not outlive a rename.
rmSync(path.join(outDir, "hooks"), { recursive: true, force: true });
rmSync(path.join(outDir, "statusline.mjs"), { force: true });
const outputs: string[] = [];

// The hooks and the status line run before every prompt and on every draw: CommonJS, which node
// starts faster than an ES module (install-layout.ts HOT_BUNDLE_EXT; `npm run bench`). Their
// sources are ES modules: import.meta.filename and .dirname become __filename and __dirname, and
// import.meta.url is made from __filename only when read.
const hot: BuildOptions = {
  ...common,
  format: "cjs",
  define: { "import.meta.url": "__quoinMeta.url", "import.meta.filename": "__filename", "import.meta.dirname": "__dirname" },
  banner: { js: 'var __quoinMeta={get url(){return require("node:url").pathToFileURL(__filename).href}};' },
  plugins: [plainBuiltin("node:path")],
};

for (const entry of hookEntries) {
  const outfile = path.join(outDir, hookBundleFile(path.basename(entry, ".ts") as HookBundle));
  await build({ ...hot, entryPoints: [entry], outfile });
  outputs.push(outfile);
}

// The status line runs on every draw: its own small bundle, like a hook.
const statusLine = path.join(outDir, STATUSLINE_BUNDLE);
await build({ ...hot, entryPoints: [path.join(root, "cli", "statusline-entry.ts")], outfile: statusLine });
outputs.push(statusLine);

const engine = path.join(outDir, "quoin-checkpoint.mjs");
await build({
  ...common,
  entryPoints: [path.join(root, "cli", "main.ts")],
  outfile: engine,
  banner: {
    // The shebang, and a require() for CommonJS dependencies (gray-matter) inside an ES module.
    js: "#!/usr/bin/env node\nimport { createRequire as __quoinCreateRequire } from 'node:module'; const require = __quoinCreateRequire(import.meta.url);",
  },
});
outputs.push(engine);

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
