import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { memoryPaths, type MemoryPaths } from "./memory-paths.ts";

// Both arguments are already resolved (absolute, normalized): a prefix test is enough, and
// path.relative is measurably slow on the hot path.
function isStrictlyBelow(dir: string, ancestor: string): boolean {
  const prefix = ancestor.endsWith(path.sep) ? ancestor : `${ancestor}${path.sep}`;
  return dir.length > prefix.length && dir.startsWith(prefix);
}

// NOTE: existsSync, not statSync in a try: a thrown ENOENT per ancestor is measurable on the hot path.
function exists(fs: FsApi, p: string): boolean {
  return fs.existsSync(p);
}

/**
 * $HOME, its ancestors and `/` are never a project (both arguments already resolved). NOTE: a
 * resolved folder is a root (`/`, `C:\\`) exactly when it is its own parent; path.parse builds
 * five fields to say the same, on every ancestor of every prompt.
 */
function isEligible(dir: string, homeDir: string): boolean {
  return dir !== homeDir && path.dirname(dir) !== dir && !isStrictlyBelow(homeDir, dir);
}

function ancestors(start: string): string[] {
  const out: string[] = [];
  let dir = path.resolve(start);
  for (;;) {
    out.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

/**
 * The project root for a start folder: the outermost ancestor holding `.workflow_artifacts/`
 * strictly below $HOME; else the nearest ancestor with `.git` strictly below $HOME; else the
 * start folder. $HOME and `/` are never returned.
 * (Outside $HOME the same walk applies, stopping short of `/`.)
 */
function resolveProjectRoot(fs: FsApi, start: string, home: string): string {
  const startDir = path.resolve(start);
  const homeDir = path.resolve(home);
  const chain = ancestors(startDir);
  // $HOME, its ancestors and `/` are never a project root; a start outside $HOME (a CI clone in
  // /tmp, a checkout in /srv) may still walk up to any folder short of `/`.
  const eligible = (dir: string) => isEligible(dir, homeDir);

  let outermostArtifacts: string | undefined;
  for (const dir of chain) {
    if (!eligible(dir)) continue;
    if (exists(fs, path.join(dir, ".workflow_artifacts"))) outermostArtifacts = dir;
  }
  if (outermostArtifacts) return outermostArtifacts;

  for (const dir of chain) {
    if (!eligible(dir)) continue;
    if (exists(fs, path.join(dir, ".git"))) return dir;
  }
  return startDir;
}

/** The one wording of a refusal outside a project. */
export function notAProject(dir: string): string {
  return `${dir} is not a project ($HOME, an ancestor of it, or /)`;
}

/**
 * THE project rule: the memory paths of the project that `start` belongs to, or null when that is
 * $HOME, one of its ancestors, or `/`. Every hook and every engine command takes its paths from
 * here; null means "not a project: write nothing".
 */
export function projectMemory(fs: FsApi, start: string, home: string): MemoryPaths | null {
  const root = resolveProjectRoot(fs, start, home);
  return isEligible(root, path.resolve(home)) ? memoryPaths(root) : null;
}
