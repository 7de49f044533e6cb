import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runInstall } from "./lib/install/installer.ts";
import { nodeDeps } from "./lib/edge/node-deps.ts";

// npm run setup = build + gen-skills + this. Options: --scope user|project, --uninstall, --dry-run,
// --statusline, --no-build (use dist/ as it is), --project DIR (the repository for --scope project;
// default: the folder npm was started from).

const USAGE =
  "usage: npm run setup -- [--scope user|project] [--project DIR] [--statusline] [--dry-run] [--uninstall]";

function main(argv: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scope: { type: "string", default: "user" },
        uninstall: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        statusline: { type: "boolean", default: false },
        "no-build": { type: "boolean", default: false },
        project: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (err) {
    console.error(`install: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.scope !== "user" && values.scope !== "project") {
    console.error(`install: --scope must be 'user' or 'project', got '${values.scope}'\n${USAGE}`);
    return 2;
  }
  const root = import.meta.dirname;
  if (!values.uninstall && !values["no-build"]) {
    execFileSync(
      process.execPath,
      [
        path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
        path.join(root, "scripts", "build.ts"),
      ],
      { stdio: "inherit" },
    );
  }
  // NOTE: npm runs scripts in the package folder; INIT_CWD is where the user typed `npm run setup`.
  const cwd = path.resolve(values.project ?? process.env["INIT_CWD"] ?? process.cwd());
  const outcome = runInstall(nodeDeps({ cwd }), {
    scope: values.scope,
    uninstall: values.uninstall,
    dryRun: values["dry-run"],
    statusLine: values.statusline,
    distDir: path.join(root, "dist"),
  });
  for (const line of outcome.lines) console.log(line);
  if (!outcome.ok) {
    console.error(`[quoin] refused: ${outcome.reason}`);
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
