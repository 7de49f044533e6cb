import * as path from "node:path";
import type { FsApi } from "./deps.ts";
import { refuseSymlinkedTree } from "./memory-tree-guard.ts";

/** <root>/.workflow_artifacts/memory: the two names every memory path is built from. */
export const ARTIFACTS_DIR_NAME = ".workflow_artifacts";
export const MEMORY_DIR_NAME = "memory";
/** The memory folder's own .gitignore: one line, so git status stays clean (remove it to commit the folder). */
const MEMORY_GITIGNORE = "*\n";

const MARKER = `${path.sep}${ARTIFACTS_DIR_NAME}${path.sep}${MEMORY_DIR_NAME}`;

/** The memory folder that `dir` is, or lies in; null for any other folder. */
function memoryDirOf(dir: string): string | null {
  const at = dir.lastIndexOf(MARKER);
  if (at < 0) return null;
  const end = at + MARKER.length;
  return end === dir.length || dir[end] === path.sep ? dir.slice(0, end) : null;
}

/**
 * mkdir -p for every writer (atomic writes, appends, trash moves): the one place where a memory
 * folder comes into being, so the one place that gives it its `.gitignore`. A writer added later
 * gets it for free by writing through lib/core. A memory folder that already exists is left as
 * it is (its owner may have chosen to commit it). Never through a symlinked folder of the memory
 * tree (memory-tree-guard).
 */
export function ensureDir(fs: FsApi, dir: string): void {
  refuseSymlinkedTree(fs, path.join(dir, "-"));
  if (fs.existsSync(dir)) return;
  const memory = memoryDirOf(dir);
  const fresh = memory !== null && !fs.existsSync(memory);
  fs.mkdirSync(dir, { recursive: true });
  if (!fresh) return;
  try {
    fs.writeFileSync(path.join(memory, ".gitignore"), MEMORY_GITIGNORE, { flag: "wx" });
  } catch (err) {
    // Another session created the folder in the same instant and wrote it first.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}
