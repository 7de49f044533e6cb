import * as path from "node:path";
import { parseArgs } from "node:util";
import { runInstall } from "../lib/install/installer.ts";
import { nodeDeps } from "../lib/edge/node-deps.ts";
import type { Invocation } from "../lib/install/install-invocation.ts";

// The installer's command line, shared by `npm run setup` (install.ts, from a clone) and the
// package's bin (`quoin-checkpoint install|uninstall`, the installer bundle dist/installer.cjs).

export interface InstallMainOptions {
  /** the built files to copy: dist/ of a clone, or the package's own dist/ */
  distDir: string;
  packageVersion: string;
  /** how a person starts it, for the usage line */
  usage: string;
  /** the folder a relative --project and the project scope start from */
  cwd: string;
  /** `quoin-checkpoint uninstall`: --uninstall is implied */
  uninstall?: boolean;
  /** how a person starts this installer again (lib/install/install-invocation.ts) */
  invocation: (deps: ReturnType<typeof nodeDeps>) => Invocation;
  /** install.ts only: --no-build is accepted (the bin installs what it ships) */
  extraOptions?: Record<string, { type: "boolean"; default: boolean }>;
}

export function installMain(
  argv: string[],
  opts: InstallMainOptions,
): { code: number; values?: Record<string, unknown> } {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        scope: { type: "string", default: "user" },
        uninstall: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        statusline: { type: "boolean", default: false },
        "no-statusline": { type: "boolean", default: false },
        project: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        ...opts.extraOptions,
      },
    }));
  } catch (err) {
    console.error(`install: ${(err as Error).message}\n${opts.usage}`);
    return { code: 2 };
  }
  if (values.help) {
    console.log(opts.usage);
    return { code: 0 };
  }
  if (values.scope !== "user" && values.scope !== "project") {
    console.error(
      `install: --scope must be 'user' or 'project', got '${values.scope}'\n${opts.usage}`,
    );
    return { code: 2 };
  }
  return { code: -1, values };
}

/** Run the install (or uninstall) that installMain's parsed options ask for. */
export function runInstallMain(values: Record<string, unknown>, opts: InstallMainOptions): number {
  const cwd = path.resolve(
    opts.cwd,
    typeof values["project"] === "string" ? values["project"] : ".",
  );
  const deps = nodeDeps({ cwd });
  const uninstall = opts.uninstall === true || values["uninstall"] === true;
  const invocation = opts.invocation(deps);
  const outcome = runInstall(deps, {
    invocation,
    scope: values["scope"] as "user" | "project",
    uninstall,
    dryRun: values["dry-run"] === true,
    statusLine: values["statusline"] === true,
    // By default the status line is an invisible recorder of the window; --no-statusline: none
    // (a status line of quoin's from an earlier run comes out again).
    recorder: values["no-statusline"] !== true,
    distDir: opts.distDir,
    packageVersion: opts.packageVersion,
  });
  for (const line of outcome.lines) console.log(line);
  if (!outcome.ok) {
    console.error(`[quoin] refused: ${outcome.reason}`);
    return 1;
  }
  // Only when `quoin-checkpoint` on the PATH is this very package may a person be told to type it.
  if (!uninstall && values["dry-run"] !== true && invocation.via === "npm-global")
    console.log("[quoin] or, from a shell: quoin-checkpoint doctor");
  return 0;
}
