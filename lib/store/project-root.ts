import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";

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
 * The project root for a hook's cwd: the outermost ancestor holding `.workflow_artifacts/`
 * strictly below $HOME; else the nearest ancestor with `.git` strictly below $HOME; else the
 * start folder. $HOME and `/` are never returned.
 * (Outside $HOME the same walk applies, stopping short of `/`.)
 */
export function resolveProjectRoot(fs: FsApi, start: string, home: string): string {
  const startDir = path.resolve(start);
  const homeDir = path.resolve(home);
  const chain = ancestors(startDir);
  // $HOME, its ancestors and `/` are never a project root; a start outside $HOME (a CI clone in
  // /tmp, a checkout in /srv) may still walk up to any folder short of `/`.
  const eligible = (dir: string) =>
    dir !== homeDir && dir !== path.parse(dir).root && !isStrictlyBelow(homeDir, dir);

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

/** $HOME and `/` are never a project: nothing may be written there. */
export function isWritableProjectRoot(root: string, home: string): boolean {
  const resolved = path.resolve(root);
  return resolved !== path.resolve(home) && resolved !== path.parse(resolved).root;
}
