import { namedWithinWindow } from "../save/cleanup-sweep.ts";
import type { ShareGit } from "./share-git.ts";
import { mergeShareTrees, prunedShareTree, remoteShareRef, SHARE_REF } from "./share-tree.ts";

// Retention of the shared ref: cleanup drops the shares whose checkpoint name dates them outside
// the checkpoint window, as a new commit on the local ref; the next share pushes it. What was
// fetched from the remote is merged in first, so other clones' old shares go too, and the
// three-way merge keeps the deletion when another clone's older history comes back.

export interface PruneResult {
  pruned: string[];
  commit: string | null;
}

/** The local ref with the fetched remote ref merged in (no network), or the local ref as it is. */
function withFetched(
  git: ShareGit,
  remote: string | null,
): { tip: string | null; parents: string[]; tree: Map<string, string> } {
  const local = git.resolve(SHARE_REF);
  const fetched = remote ? git.resolve(remoteShareRef(remote)) : null;
  if (!fetched || fetched === local)
    return { tip: local, parents: local ? [local] : [], tree: git.readTree(local) };
  if (!local) return { tip: null, parents: [fetched], tree: git.readTree(fetched) };
  const base = git.mergeBase(local, fetched);
  if (base === fetched) return { tip: local, parents: [local], tree: git.readTree(local) };
  const tree = mergeShareTrees(git.readTree(base), git.readTree(local), git.readTree(fetched));
  return { tip: local, parents: base === local ? [fetched] : [local, fetched], tree };
}

export function pruneShares(
  git: ShareGit,
  opts: { nowMs: number; windowDays: number; remote: string | null; dryRun: boolean },
): PruneResult {
  if (!git.isRepository()) return { pruned: [], commit: null };
  const { tip, parents, tree } = withFetched(git, opts.remote);
  const kept = prunedShareTree(tree, (name) =>
    namedWithinWindow(name, opts.nowMs, opts.windowDays),
  );
  const pruned = [...tree.keys()].filter((p) => !kept.has(p)).sort();
  if (pruned.length === 0 || opts.dryRun) return { pruned, commit: null };
  const commit = git.commitTree(
    git.writeTree(kept),
    parents,
    `quoin share: prune ${pruned.length} checkpoint(s) older than ${opts.windowDays} days\n`,
  );
  return git.updateRef(SHARE_REF, commit, tip) ? { pruned, commit } : { pruned: [], commit: null };
}
