import { namedWithinWindow } from "../save/cleanup-sweep.ts";
import { parseCheckpointName } from "../store/checkpoint-names.ts";
import type { ShareGit } from "./share-git.ts";
import { mergeShareTrees, SHARE_REF, type ShareTree } from "./share-tree.ts";
import {
  formatTombstones,
  parseTombstones,
  TOMBSTONE_PATH,
  unionTombstones,
  withoutTombstoned,
  type Tombstone,
} from "./share-tombstones.ts";

// Merging this clone's shared ref with the remote's. With a common base the merge is three-way (a
// removal on either side stays removed). A squashed history has no common base with another
// clone's older one; then the merge is a union less what the tombstones name and less what the
// retention window has passed (prunes are by the checkpoint name's age, so every clone drops the
// same). Its parents are both sides while the histories stay within SHARE_HISTORY_MAX (base-less:
// together, as two clones' first shares); else only the shorter one, so a squash stands and an
// older clone's long history does not come back through a later merge (the tree is what counts).

/**
 * Every share adds a commit (and a merge when another clone pushed first), and a fetch brings the
 * whole history. The history serves only as the merges' common base, which the tombstones stand in
 * for after a squash, so 50 (weeks of shares on a busy repository) is plenty.
 */
export const SHARE_HISTORY_MAX = 50;

export interface Retention {
  nowMs: number;
  /** QUOIN_CLEANUP_CKPT_WINDOW */
  windowDays: number;
}

export interface MergePlan {
  tree: Map<string, string>;
  parents: string[];
}

export function tombstonesOf(git: ShareGit, tree: ShareTree): Tombstone[] {
  const id = tree.get(TOMBSTONE_PATH);
  return id ? parseTombstones(git.readBlob(id)) : [];
}

/** The tree with its tombstone file holding `list` (none when the list is empty). */
export function withTombstoneFile(
  git: ShareGit,
  tree: ShareTree,
  list: readonly Tombstone[],
): Map<string, string> {
  const out = new Map(tree);
  out.delete(TOMBSTONE_PATH);
  if (list.length > 0) out.set(TOMBSTONE_PATH, git.writeBlob(formatTombstones(list)));
  return out;
}

/** A checkpoint name dated outside the window; a name of another shape is kept (the safe side). */
function agedOut(treePath: string, r: Retention): boolean {
  const name = treePath.slice(treePath.lastIndexOf("/") + 1);
  return parseCheckpointName(name) !== null && !namedWithinWindow(name, r.nowMs, r.windowDays);
}

/** The merged tree of the local ref `ours` and the fetched `theirs`, and the new commit's parents. */
export function planMerge(
  git: ShareGit,
  ours: string,
  theirs: string,
  retention?: Retention,
): MergePlan {
  const mine = git.readTree(ours);
  const other = git.readTree(theirs);
  const base = git.mergeBase(ours, theirs);
  const tombstones = unionTombstones(
    [tombstonesOf(git, mine), tombstonesOf(git, other)],
    retention?.nowMs,
  );
  const merged = mergeShareTrees(base ? git.readTree(base) : new Map(), mine, other);
  if (!base && retention)
    for (const p of [...merged.keys()])
      if (p !== TOMBSTONE_PATH && agedOut(p, retention)) merged.delete(p);
  const tree = withTombstoneFile(git, withoutTombstoned(merged, tombstones), tombstones);
  const a = git.commitCount(ours);
  const b = git.commitCount(theirs);
  const both = Math.max(a, b) <= SHARE_HISTORY_MAX && (base !== null || a + b <= SHARE_HISTORY_MAX);
  const parents = both ? [ours, theirs] : [a <= b ? ours : theirs];
  return { tree, parents };
}

function sameTree(a: ShareTree, b: ShareTree): boolean {
  if (a.size !== b.size) return false;
  for (const [p, id] of a) if (b.get(p) !== id) return false;
  return true;
}

/**
 * The plan as the local ref's new value (moved from `tip`, null: it moved meanwhile). A plan that
 * only repeats its one parent's tree moves the ref to that parent, with no new commit.
 */
export function commitPlan(
  git: ShareGit,
  plan: MergePlan,
  tip: string | null,
  message: string,
): string | null {
  const only = plan.parents.length === 1 ? (plan.parents[0] as string) : null;
  const commit =
    only && sameTree(git.readTree(only), plan.tree)
      ? only
      : git.commitTree(git.writeTree(plan.tree), plan.parents, message);
  if (commit === tip) return commit;
  return git.updateRef(SHARE_REF, commit, tip) ? commit : null;
}
