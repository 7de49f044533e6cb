import type { FsApi } from "./deps.ts";
import { refuseSymlinkedFolders } from "./safe-file.ts";

/**
 * Throws when `target` would be written through a symlinked folder of the tool's trees: any
 * folder from `.workflow_artifacts` down (memory/, checkpoints/, trash/, ...), or below the config
 * or cache folder's quoin-checkpoint/. A checked-in symlink there could send quoin's writes
 * anywhere on the machine. Paths outside those trees (settings, transcripts) are not checked: a
 * symlinked ~/.claude is the user's own choice. The rule itself lives in lib/core/safe-file.ts.
 */
export function refuseSymlinkedTree(fs: FsApi, target: string): void {
  refuseSymlinkedFolders(fs, target);
}
