import { build, type BuildOptions } from "esbuild";
import { readdirSync, statSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { renderAllSkills, writeSkills } from "./gen-skills.ts";
import { buildPluginFiles, marketplaceText, writeFolder } from "./build-plugin.ts";

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

const hookEntries = readdirSync(path.join(root, "hooks"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => path.join(root, "hooks", f));

mkdirSync(outDir, { recursive: true });
const outputs: string[] = [];

for (const entry of hookEntries) {
  const outfile = path.join(outDir, "hooks", `${path.basename(entry, ".ts")}.mjs`);
  await build({ ...common, entryPoints: [entry], outfile });
  outputs.push(outfile);
}

// The status line runs on every draw: its own small bundle, like a hook.
const statusLine = path.join(outDir, "statusline.mjs");
await build({ ...common, entryPoints: [path.join(root, "cli", "statusline-entry.ts")], outfile: statusLine });
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
