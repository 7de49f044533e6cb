import { readFileSync } from "node:fs";
import * as path from "node:path";
import { installMain, runInstallMain } from "./install-main.ts";
import { packageInvocation } from "../lib/install/install-invocation.ts";

// The installer bundle (dist/installer.cjs), loaded by the bin for `quoin-checkpoint install` and
// `quoin-checkpoint uninstall`. It copies the package's own built files (the folder it sits in)
// into <config>/quoin-checkpoint/: settings and skills never name the npm prefix or the npx cache.

const dist = import.meta.dirname;
const [cmd, ...rest] = process.argv.slice(2);
const pkg = JSON.parse(readFileSync(path.join(dist, "..", "package.json"), "utf8")) as {
  version: string;
};
const opts = {
  distDir: dist,
  packageVersion: pkg.version,
  usage: `usage: quoin-checkpoint ${cmd} [--scope user|project] [--project DIR]${cmd === "install" ? " [--statusline | --no-statusline]" : ""} [--dry-run]`,
  cwd: process.cwd(),
  uninstall: cmd === "uninstall",
  invocation: (deps: Parameters<typeof packageInvocation>[0]) =>
    packageInvocation(deps, dist, pkg.version),
};
const parsed = installMain(rest, opts);
process.exitCode = parsed.values ? runInstallMain(parsed.values, opts) : parsed.code;
