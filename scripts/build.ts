import { build, type BuildOptions } from "esbuild";
import { readdirSync, statSync, mkdirSync } from "node:fs";
import * as path from "node:path";

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

const engine = path.join(outDir, "quoin-checkpoint.mjs");
await build({
  ...common,
  entryPoints: [path.join(root, "skills", "engine", "main.ts")],
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
