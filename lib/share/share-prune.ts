import { utcIso } from "../core/time-format.ts";
import { namedWithinWindow } from "../save/cleanup-sweep.ts";
import type { ShareGit } from "./share-git.ts";
import {
  commitPlan,
  planMerge,
  SHARE_HISTORY_MAX,
  tombstonesOf,
  withTombstoneFile,
  type MergePlan,
} from "./share-merge.ts";
import { prunedShareTree, remoteShareRef, SHARE_REF } from "./share-tree.ts";
import { TOMBSTONE_PATH, unionTombstones } from "./share-tombstones.ts";

// Retention of the shared ref: cleanup drops the shares whose checkpoint name dates them outside
// the checkpoint window, as a new commit on the local ref that records each one as a tombstone;
// the next share pushes it. What was fetched from the remote is merged in first, so other clones'
// old shares go too. Then the ref's history is bounded: past SHARE_HISTORY_MAX commits it is
// squashed into one root commit of the current tree, which the next push puts on the remote with
// a lease on the value it replaces.

export interface PruneResult {
  pruned: string[];
  commit: string | null;
  /** the history length squashed into one root commit, or null */
  squashed?: number | null;
  /** a dry run's answer to "would it squash": the history now, with the prune commit, the bound */
  history?: HistoryOutlook | null;
}

export interface HistoryOutlook {
  /** commits in the local ref's history now */
  commits: number;
  /** the history a real run would check against the bound (the prune commit and what it merges in) */
  afterPrune: number;
  max: number;
  squash: boolean;
}

/** The local ref with the fetched remote ref merged in (no network), or the local ref as it is. */
function withFetched(git: ShareGit, remote: string | null, nowMs: number, windowDays: number) {
  const local = git.resolve(SHARE_REF);
  const fetched = remote ? git.resolve(remoteShareRef(remote)) : null;
  const as = (c: string): MergePlan => ({ tree: git.readTree(c), parents: [c] });
  if (!local) return { tip: null, plan: fetched ? as(fetched) : null };
  if (!fetched || fetched === local || git.isAncestor(fetched, local))
    return { tip: local, plan: as(local) };
  return { tip: local, plan: planMerge(git, local, fetched, { nowMs, windowDays }) };
}

/** Past SHARE_HISTORY_MAX commits: one root commit of the same tree in place of `commit`. */
function squashHistory(git: ShareGit, commit: string, max: number): number | null {
  const length = git.commitCount(commit);
  if (length <= max) return null;
  const tree = git.treeOf(commit);
  const root = git.commitTree(
    tree,
    [],
    `quoin share: history squashed (${length} commits; the current tree kept)\n`,
  );
  return git.updateRef(SHARE_REF, root, commit) ? length : null;
}

/**
 * What squashHistory would see after a real run: the prune commit (when there is one) on top of
 * the plan's parents, else the local ref as it is; null when no real run would leave a ref.
 */
function historyOutlook(
  git: ShareGit,
  tip: string | null,
  parents: readonly string[],
  pruning: boolean,
  max: number,
): HistoryOutlook | null {
  if (!pruning && !tip) return null;
  const commits = tip ? git.commitCount(tip) : 0;
  const [first, ...more] = parents;
  const afterPrune = pruning && first ? git.commitCount(first, ...more) + 1 : commits;
  return { commits, afterPrune, max, squash: afterPrune > max };
}

/** The dry run's one line on the squash, e.g. "would squash ...: 57 commits, over the bound of 50". */
export function historyOutlookText(h: HistoryOutlook): string {
  const count = `${h.commits} commit(s)${h.afterPrune === h.commits ? "" : ` (${h.afterPrune} with the prune)`}`;
  return h.squash
    ? `would squash the history of ${SHARE_REF} into one root commit: ${count}, over the bound of ${h.max}`
    : `would not squash the history of ${SHARE_REF}: ${count}, within the bound of ${h.max}`;
}

export function pruneShares(
  git: ShareGit,
  opts: { nowMs: number; windowDays: number; remote: string | null; dryRun: boolean; max?: number },
): PruneResult {
  if (!git.isRepository()) return { pruned: [], commit: null };
  const { tip, plan } = withFetched(git, opts.remote, opts.nowMs, opts.windowDays);
  if (!plan) return { pruned: [], commit: null };
  const kept = prunedShareTree(plan.tree, (name) =>
    namedWithinWindow(name, opts.nowMs, opts.windowDays),
  );
  const pruned = [...plan.tree.keys()].filter((p) => p !== TOMBSTONE_PATH && !kept.has(p)).sort();
  const max = opts.max ?? SHARE_HISTORY_MAX;
  if (opts.dryRun)
    return {
      pruned,
      commit: null,
      history: historyOutlook(git, tip, plan.parents, pruned.length > 0, max),
    };
  let commit = tip;
  if (pruned.length > 0) {
    const at = utcIso(new Date(opts.nowMs));
    const tombstones = unionTombstones(
      [
        tombstonesOf(git, plan.tree),
        pruned.map((p) => ({ prunedAt: at, blob: plan.tree.get(p) as string, path: p })),
      ],
      opts.nowMs,
    );
    commit = commitPlan(
      git,
      { tree: withTombstoneFile(git, kept, tombstones), parents: plan.parents },
      tip,
      `quoin share: prune ${pruned.length} checkpoint(s) older than ${opts.windowDays} days\n`,
    );
    if (!commit) return { pruned: [], commit: null };
  }
  const squashed = commit ? squashHistory(git, commit, max) : null;
  return {
    pruned,
    commit: squashed ? git.resolve(SHARE_REF) : pruned.length > 0 ? commit : null,
    squashed,
  };
}
