import * as path from "node:path";
import type { FsApi } from "./deps.ts";

const TREE_ROOT = ".workflow_artifacts";

/**
 * Throws when `target` would be written through a symlinked folder of the memory tree: any folder
 * from `.workflow_artifacts` down (memory/, checkpoints/, trash/, ...). A checked-in symlink there
 * could send quoin's writes anywhere on the machine. Paths outside a `.workflow_artifacts` tree
 * (the config folder, settings) are not checked: a symlinked ~/.claude is the user's own choice.
 */
export function refuseSymlinkedTree(fs: FsApi, target: string): void {
  const parts = path.resolve(target).split(path.sep);
  const at = parts.lastIndexOf(TREE_ROOT);
  if (at < 0) return;
  for (let i = at; i < parts.length - 1; i += 1) {
    const dir = parts.slice(0, i + 1).join(path.sep) || path.sep;
    let isLink = false;
    try {
      isLink = fs.lstatSync(dir).isSymbolicLink();
    } catch {
      return; // not there yet: mkdir makes a real folder from here down
    }
    if (isLink)
      throw new Error(
        `${dir} is a symlink; quoin-checkpoint does not write through it (replace it with a folder)`,
      );
  }
}
