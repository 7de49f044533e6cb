import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { installMain, runInstallMain } from "./cli/install-main.ts";
import { cloneInvocation } from "./lib/install/install-invocation.ts";

// npm run setup = build + gen-skills + this. Options: --scope user|project, --uninstall, --dry-run,
// --statusline, --no-build (use dist/ as it is), --project DIR (the repository for --scope project;
// default: the folder npm was started from). The same code as the package's
// `quoin-checkpoint install` (cli/install-main.ts), from this clone's dist/.

const root = import.meta.dirname;
const opts = {
  distDir: path.join(root, "dist"),
  packageVersion: (
    JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }
  ).version,
  usage:
    "usage: npm run setup -- [--scope user|project] [--project DIR] [--statusline] [--dry-run] [--uninstall]",
  // NOTE: npm runs scripts in the package folder; INIT_CWD is where the user typed `npm run setup`.
  cwd: process.env["INIT_CWD"] ?? process.cwd(),
  extraOptions: { "no-build": { type: "boolean" as const, default: false } },
  invocation: () => cloneInvocation(root),
};

function main(argv: string[]): number {
  const parsed = installMain(argv, opts);
  if (!parsed.values) return parsed.code;
  if (!parsed.values["uninstall"] && !parsed.values["no-build"]) {
    execFileSync(
      process.execPath,
      [
        path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
        path.join(root, "scripts", "build.ts"),
      ],
      { stdio: "inherit" },
    );
  }
  return runInstallMain(parsed.values, opts);
}

process.exitCode = main(process.argv.slice(2));
