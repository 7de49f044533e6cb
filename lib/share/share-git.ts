import type { TreeEntry } from "../core/git-parse.ts";
import { GitRepo, type BlobTree } from "../core/git-repo.ts";

// The shared ref's repository (lib/core/git-repo.ts's plumbing) with sharing's own decisions:
// which remote a share goes to, and how big a shared checkpoint may be. A checkpoint is at most
// 6 KB; a blob on the shared ref over SHARED_BLOB_MAX is not one of ours (a mistake, or a remote
// that wants to hide every share behind spawn's 16 MB output buffer). It is never read, never
// listed, and never written into a tree of ours, so a share or a merge does not push it again.

/** The largest shared checkpoint read (a checkpoint is at most 6 KB, its origin line aside). */
export const SHARED_BLOB_MAX = 64 * 1024;
/** The tombstone file may grow past a checkpoint's bound (a line per pruned share). */
const TOMBSTONE_MAX = 4 * 1024 * 1024;

/** A blob over its bound: a checkpoint path over SHARED_BLOB_MAX, the root-level file over its own. */
export function oversized(e: Pick<TreeEntry, "path" | "size">): boolean {
  return (e.size ?? 0) > (e.path.includes("/") ? SHARED_BLOB_MAX : TOMBSTONE_MAX);
}

export class ShareGit extends GitRepo {
  /** The tree's blobs within their bound (what the share code reads, merges and writes). */
  override readTree(commit: string | null): BlobTree {
    return new Map(
      this.treeEntries(commit)
        .filter((e) => !oversized(e))
        .map((e) => [e.path, e.id]),
    );
  }

  /** The current branch's upstream remote, else origin. */
  defaultRemote(): string {
    const branch = this.run(["symbolic-ref", "-q", "--short", "HEAD"]).stdout.trim();
    if (branch) {
      const r = this.configValue(`branch.${branch}.remote`);
      if (r && r !== ".") return r;
    }
    return "origin";
  }
}
