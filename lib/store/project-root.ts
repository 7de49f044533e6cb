import * as path from "node:path";
import type { Deps, FsApi } from "../core/deps.ts";
import { noteRefusal } from "../core/safe-file.ts";
import { memoryPaths, type MemoryPaths } from "./memory-paths.ts";

/** What the project rule reads: the folders, $HOME, and who is asking (the ownership check). */
export type RootDeps = Pick<Deps, "fs" | "home" | "uid">;

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

/**
 * Why a `.workflow_artifacts` folder may not make its folder the project, or null when it may:
 * in the spirit of git's safe.directory, a folder (or its memory/) that belongs to another user,
 * or that others can write, is someone else's to fill (a /tmp/.workflow_artifacts planted above a
 * clone would hand this user's sessions another user's checkpoints). A symlinked folder is not
 * judged here: every write through it is refused by the safe-file rule.
 */
function foreignArtifacts(
  fs: FsApi,
  artifacts: string,
  uid: number | undefined,
): { dir: string; why: string } | null {
  // No user id (Windows, where mode bits say nothing of this): no check.
  if (uid === undefined) return null;
  for (const dir of [artifacts, path.join(artifacts, "memory")]) {
    let st: ReturnType<FsApi["lstatSync"]>;
    try {
      st = fs.lstatSync(dir);
    } catch {
      return null; // no memory/ yet: the folder above was judged already
    }
    if (!st.isDirectory()) return null;
    if (st.uid !== uid) return { dir, why: `owned by user ${st.uid}, not by this user (${uid})` };
    if ((st.mode & 0o022) !== 0) {
      const who = st.mode & 0o002 ? "every user" : "its group";
      return { dir, why: `writable by ${who} (mode ${(st.mode & 0o777).toString(8)})` };
    }
  }
  return null;
}

/**
 * A bare repository (HEAD, objects/ and refs/ in one folder) or a folder inside one: git's own
 * files, never a project, so no memory folder is made in `bare.git`.
 */
function insideBareRepository(fs: FsApi, chain: readonly string[]): boolean {
  return chain.some(
    (dir) =>
      fs.existsSync(path.join(dir, "HEAD")) &&
      fs.existsSync(path.join(dir, "objects")) &&
      fs.existsSync(path.join(dir, "refs")),
  );
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
 * The project root for a start folder: the outermost ancestor holding a `.workflow_artifacts/`
 * of this user's (foreignArtifacts) strictly below $HOME; else the nearest ancestor with `.git`
 * strictly below $HOME; else the start folder, unless that is in a bare repository (null).
 * $HOME and `/` are never returned. (Outside $HOME the same walk applies, stopping short of `/`.)
 */
function resolveProjectRoot(
  fs: FsApi,
  start: string,
  home: string,
  uid: number | undefined,
): string | null {
  const startDir = path.resolve(start);
  const homeDir = path.resolve(home);
  const chain = ancestors(startDir);
  // $HOME, its ancestors and `/` are never a project root; a start outside $HOME (a CI clone in
  // /tmp, a checkout in /srv) may still walk up to any folder short of `/`.
  const eligible = (dir: string) => isEligible(dir, homeDir);

  let outermostArtifacts: string | undefined;
  for (const dir of chain) {
    if (!eligible(dir)) continue;
    const artifacts = path.join(dir, ".workflow_artifacts");
    if (!exists(fs, artifacts)) continue;
    const foreign = foreignArtifacts(fs, artifacts, uid);
    if (foreign)
      noteRefusal(
        foreign.dir,
        `${foreign.why}; not taken as the project (as git's safe.directory)`,
      );
    else outermostArtifacts = dir;
  }
  if (outermostArtifacts) return outermostArtifacts;

  for (const dir of chain) {
    if (!eligible(dir)) continue;
    if (exists(fs, path.join(dir, ".git"))) return dir;
  }
  return insideBareRepository(fs, chain) ? null : startDir;
}

/** The one wording of a refusal outside a project. */
export function notAProject(dir: string): string {
  return `${dir} is not a project ($HOME, an ancestor of it, /, or a bare git repository)`;
}

/**
 * THE project rule: the memory paths of the project that `start` belongs
 * to, or null when that is $HOME, one of its ancestors, `/` or a bare repository. Every hook and
 * every engine command takes its paths from here; null means "not a project: write nothing". A
 * refused foreign `.workflow_artifacts` is named once (lib/core/safe-file.ts's refusals).
 */
export function projectMemory(deps: RootDeps, start: string): MemoryPaths | null {
  const root = resolveProjectRoot(deps.fs, start, deps.home, deps.uid);
  return root !== null && isEligible(root, path.resolve(deps.home)) ? memoryPaths(root) : null;
}
