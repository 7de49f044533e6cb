import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";

// How this install is run again, decided once by the installer that made it and kept in its
// install state, so every message names a command the person can type: the installer of an
// `npm i -g` (`quoin-checkpoint install`), of npx (`npx <what was given to npx> install`), of a
// clone (`npm --prefix <clone> run setup --`), or of a copy run by its path. The plugin has no
// command line: Claude Code's /plugin is named instead.

export type InstallVia = "npm-global" | "npx" | "clone" | "package-path" | "plugin";

export interface Invocation {
  via: InstallVia;
  /** what comes before the action: `quoin-checkpoint`, `npx 'file:/x.tgz'`, `npm --prefix '/src' run setup --` */
  command: string;
}

/** A word for a POSIX shell: as is when plain, else in single quotes. */
export function posixWord(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/** `install`/`uninstall` with its arguments, as this invocation types it. */
export function installerCommand(
  inv: Invocation,
  action: "install" | "uninstall",
  args: readonly string[] = [],
): string {
  if (inv.via === "plugin")
    return action === "uninstall"
      ? "/plugin uninstall quoin-checkpoint"
      : "/plugin install quoin-checkpoint";
  const words = args.map(posixWord);
  if (inv.via === "clone")
    return [inv.command, ...(action === "uninstall" ? ["--uninstall"] : []), ...words].join(" ");
  return [inv.command, action, ...words].join(" ");
}

/** The scope arguments that reach one install: none for the user's, `--scope project --project <root>` for a project's. */
export function scopeArgs(scope: "user" | "project", projectRoot: string | null): string[] {
  return scope === "user" || projectRoot === null
    ? []
    : ["--scope", "project", "--project", projectRoot];
}

/** The engine of an install as a person types it: `node '<config>/quoin-checkpoint/quoin-checkpoint.cjs'`. */
export function enginePathCommand(engineFile: string): string {
  return `node '${engineFile.replace(/'/g, "'\\''")}'`;
}

/** The folder npx unpacked this package into holds what npx was given: `_npx.packages[0]`. */
function npxSpec(deps: Pick<Deps, "fs">, distDir: string): string | null {
  const npxRoot = path.resolve(distDir, "..", "..", "..");
  try {
    const pkg = JSON.parse(readTextByRule(deps.fs, path.join(npxRoot, "package.json"))) as {
      _npx?: { packages?: unknown[] };
    };
    const spec = pkg._npx?.packages?.[0];
    return typeof spec === "string" && spec !== "" ? spec : null;
  } catch {
    return null;
  }
}

/** The file `name` resolves to on the PATH, followed through links; null when none. */
function onPath(
  deps: Pick<Deps, "fs" | "env">,
  name: string,
  skip: (dir: string) => boolean,
): string | null {
  for (const dir of (deps.env["PATH"] ?? "").split(path.delimiter)) {
    if (!dir || skip(dir)) continue;
    const file = path.join(dir, name);
    try {
      if (deps.fs.existsSync(file)) return String(deps.fs.realpathSync(file));
    } catch {
      // unreadable: the next one
    }
  }
  return null;
}

const NPX_DIR = `${path.sep}_npx${path.sep}`;

/**
 * How the package's installer (dist/installer.cjs, under `distDir`) was started: npx (npm says
 * so, and its cache folder shows it), the `quoin-checkpoint` on the PATH when that one resolves
 * to this very package (npm i -g), else by its path.
 */
export function packageInvocation(
  deps: Pick<Deps, "fs" | "env">,
  distDir: string,
  version: string,
): Invocation {
  if (deps.env["npm_command"] === "exec" || distDir.includes(NPX_DIR)) {
    const spec = npxSpec(deps, distDir) ?? `quoin-checkpoint@${version}`;
    return { via: "npx", command: `npx ${posixWord(spec)}` };
  }
  let bin = path.join(distDir, "bin.cjs");
  try {
    bin = String(deps.fs.realpathSync(bin));
  } catch {
    // as named
  }
  // npx puts its own folder first on the PATH: that one is gone when npx exits
  const found = onPath(
    deps,
    "quoin-checkpoint",
    (dir) => dir.includes(NPX_DIR) || dir.includes(`node_modules${path.sep}.bin`),
  );
  if (found !== null && found === bin) return { via: "npm-global", command: "quoin-checkpoint" };
  return { via: "package-path", command: `node ${posixWord(bin)}` };
}

/** The installer of a clone: `npm --prefix <clone> run setup --` runs from any folder. */
export function cloneInvocation(cloneRoot: string): Invocation {
  return { via: "clone", command: `npm --prefix ${posixWord(cloneRoot)} run setup --` };
}

/** For installs whose state predates the record: every way there is, none claimed. */
export const UNKNOWN_INSTALLER =
  "run the installer you installed with again (quoin-checkpoint install, npx quoin-checkpoint install, or npm run setup in a clone)";

/**
 * How the installer that goes with this engine is run, seen from where the engine sits: the dist/
 * of a clone (install.ts beside it), of the npm package, or the plugin. Null for an installed copy
 * (<config>/quoin-checkpoint/), whose install state says instead.
 */
export function engineInstaller(
  deps: Pick<Deps, "fs" | "env" | "engineScript">,
): Invocation | null {
  const engine = deps.engineScript;
  if (deps.env["CLAUDE_PLUGIN_ROOT"]) return { via: "plugin", command: "/plugin" };
  if (!engine) return null;
  const dir = path.dirname(engine);
  if (deps.fs.existsSync(path.join(dir, ".claude-plugin", "plugin.json")))
    return { via: "plugin", command: "/plugin" };
  if (path.basename(dir) !== "dist") return null;
  const root = path.dirname(dir);
  if (deps.fs.existsSync(path.join(root, "install.ts"))) return cloneInvocation(root);
  try {
    const pkg = JSON.parse(readTextByRule(deps.fs, path.join(root, "package.json"))) as {
      name?: string;
      version?: string;
    };
    if (pkg.name === "quoin-checkpoint")
      return packageInvocation(deps, dir, pkg.version ?? "latest");
  } catch {
    // not the package
  }
  return null;
}
