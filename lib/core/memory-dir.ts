import * as path from "node:path";
import type { FsApi } from "./deps.ts";
import { fsErrorWords } from "./fs-error-words.ts";
import { refuseSymlinkedTree } from "./memory-tree-guard.ts";
import { createByRule } from "./safe-file.ts";

/** <root>/.workflow_artifacts/memory: the two names every memory path is built from. */
export const ARTIFACTS_DIR_NAME = ".workflow_artifacts";
export const MEMORY_DIR_NAME = "memory";
/** The memory folder's own .gitignore: one line, so git status stays clean (remove it to commit the folder). */
const MEMORY_GITIGNORE = "*\n";
const GITIGNORE = ".gitignore";

const MARKER = `${path.sep}${ARTIFACTS_DIR_NAME}${path.sep}${MEMORY_DIR_NAME}`;

/** The memory folder that `dir` is, or lies in; null for any other folder. */
function memoryDirOf(dir: string): string | null {
  const at = dir.lastIndexOf(MARKER);
  if (at < 0) return null;
  const end = at + MARKER.length;
  return end === dir.length || dir[end] === path.sep ? dir.slice(0, end) : null;
}

/**
 * mkdir -p, with a failure said in words: `cannot create <dir>: the file system is read-only
 * (EROFS)`. NOTE: node's recursive mkdir answers ENOENT on a read-only mount; one folder at a time
 * from the deepest one there, the first mkdir that fails says the real cause.
 */
function makeDir(fs: FsApi, dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    // the cause is the real one (EROFS, EACCES), so a caller that sorts failures by code can
    const real = causeOf(fs, dir, err);
    throw new Error(`cannot create ${dir}: ${fsErrorWords(real)}`, { cause: real });
  }
}

function causeOf(fs: FsApi, dir: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException).code !== "ENOENT") return err;
  const missing: string[] = [];
  for (let d = dir; !fs.existsSync(d) && path.dirname(d) !== d; d = path.dirname(d))
    missing.unshift(d);
  for (const d of missing)
    try {
      fs.mkdirSync(d);
    } catch (inner) {
      return inner;
    }
  return err;
}

function removeTree(fs: FsApi, dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // a leftover folder of a dot-name: git status ignores nothing of it, but it holds no user text
  }
}

/**
 * A new memory folder comes into being whole: a temporary folder beside it gets the .gitignore,
 * then is renamed into place (so it is owner-only, mkdtemp's 0700: it holds prompts). NOTE: a folder made first and its .gitignore written after is left
 * with an empty .gitignore by a full disk, and then every checkpoint shows in `git status`.
 */
function createMemoryDir(fs: FsApi, memory: string): void {
  const parent = path.dirname(memory);
  makeDir(fs, parent);
  let tmp: string;
  try {
    tmp = fs.mkdtempSync(path.join(parent, `.${MEMORY_DIR_NAME}-`));
  } catch (err) {
    throw new Error(`cannot create ${memory}: ${fsErrorWords(err)}`, { cause: err });
  }
  try {
    createByRule(fs, path.join(tmp, GITIGNORE), MEMORY_GITIGNORE);
    fs.renameSync(tmp, memory);
  } catch (err) {
    removeTree(fs, tmp);
    const code = (err as NodeJS.ErrnoException).code;
    // Another session renamed its folder into place first: theirs stands.
    if ((code === "ENOTEMPTY" || code === "EEXIST") && fs.existsSync(memory)) return;
    throw new Error(`cannot create ${memory}: ${fsErrorWords(err)}`, { cause: err });
  }
}

/**
 * An empty .gitignore (left by a full disk at an older version's first write) is given its line
 * again. A missing one is the owner's choice (to commit the folder) and is left missing.
 */
function repairEmptyGitignore(fs: FsApi, memory: string): void {
  const file = path.join(memory, GITIGNORE);
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > 0) return;
    const tmp = `${file}.repair.tmp`;
    createByRule(fs, tmp, MEMORY_GITIGNORE);
    fs.renameSync(tmp, file);
  } catch {
    // missing (chosen), being repaired by another session, or no space yet: the next write tries again
  }
}

/**
 * mkdir -p for every writer (atomic writes, appends, trash moves): the one place where a memory
 * folder comes into being, so the one place that gives it its `.gitignore`. A writer added later
 * gets it for free by writing through lib/core. A memory folder that already exists keeps its
 * choice (its owner may have removed the .gitignore to commit it); an empty one is repaired. Never
 * through a symlinked folder of the tool's trees (memory-tree-guard).
 */
export function ensureDir(fs: FsApi, dir: string): void {
  refuseSymlinkedTree(fs, path.join(dir, "-"));
  const memory = memoryDirOf(dir);
  const there = fs.existsSync(dir);
  if (memory !== null) {
    if (there || fs.existsSync(memory)) repairEmptyGitignore(fs, memory);
    else createMemoryDir(fs, memory);
  }
  if (!there) makeDir(fs, dir);
}
