import { writeAtomic } from "../core/atomic-write.ts";
import type { Deps } from "../core/deps.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { sentinelPath } from "../store/sentinels.ts";
import type { SharedSource } from "../restore/restore-outcome.ts";
import { ShareGit } from "./share-git.ts";
import { pruneShares, type PruneResult } from "./share-prune.ts";
import { SHARE_REF } from "./share-tree.ts";
import {
  adoptShared,
  findShared,
  listSharedCheckpoints,
  sharedRowText,
  type SharedCheckpoint,
} from "./shared-checkpoints.ts";

// Where list, show, restore and cleanup meet the checkpoints other clones shared: the restore
// port (restore-outcome.ts's SharedSource, so lib/restore does not import sharing), the list
// `show sN` reads, and cleanup's prune. Data only; the engine's commands print.

/** The fetched shared checkpoints, [] (with a warning) when git cannot list them. */
export function sharedCheckpointsOf(deps: Deps, paths: MemoryPaths): SharedCheckpoint[] {
  try {
    return listSharedCheckpoints(new ShareGit(deps, paths.root), {
      fs: deps.fs,
      checkpoints: paths.checkpoints,
      warn: deps.warn,
    });
  } catch (err) {
    deps.warn(`[checkpoint] shared checkpoints not read: ${(err as Error).message}`);
    return [];
  }
}

/** The port restore reads shared checkpoints through: listed once, adopted on a pick, probed when there is nothing. */
export function sharedSource(deps: Deps, paths: MemoryPaths): SharedSource {
  let listed: SharedCheckpoint[] | undefined;
  const list = () => (listed ??= sharedCheckpointsOf(deps, paths));
  return {
    list,
    adopt(arg, sessionId) {
      const found = findShared(list(), arg);
      if (!found.ok) return found;
      const git = new ShareGit(deps, paths.root);
      const file = adoptShared(deps, git, paths, found.shared);
      // This session's own sentinel only: Tier 1 (the picker's first look, at this session's own
      // pending-restore) restores it; no other machine's sentinel is read or written.
      writeAtomic(deps.fs, sentinelPath(paths.memory, "pending-restore", sessionId), `${file}\n`, {
        mode: 0o600,
      });
      return { ok: true, file };
    },
    remoteHolding() {
      const git = new ShareGit(deps, paths.root);
      if (!git.isRepository()) return null;
      const remote = git.defaultRemote();
      if (!git.remoteExists(remote)) return null;
      const probe = git.run(["ls-remote", "--exit-code", remote, SHARE_REF], {
        network: true,
        timeoutMs: 3000,
      });
      return probe.status === 0 ? remote : null;
    },
  };
}

/** `show sN`: the shared checkpoint and its text, or a refusal naming the range. */
export function readShared(
  deps: Deps,
  paths: MemoryPaths,
  arg: string,
):
  | { ok: true; shared: SharedCheckpoint; text: string }
  | { ok: false; reason: string; expected: string } {
  const found = findShared(sharedCheckpointsOf(deps, paths), arg);
  if (!found.ok) return found;
  const text = new ShareGit(deps, paths.root).readBlob(found.shared.blob);
  return { ok: true, shared: found.shared, text };
}

/** cleanup's part: old shares pruned from the local ref (a new commit, pushed by the next share). */
export function pruneSharedOf(
  deps: Deps,
  root: string,
  now: Date,
  windowDays: number,
  dryRun: boolean,
): PruneResult {
  try {
    const git = new ShareGit(deps, root);
    if (!git.isRepository()) return { pruned: [], commit: null };
    const remote = git.defaultRemote();
    return pruneShares(git, {
      nowMs: now.getTime(),
      windowDays,
      remote: git.remoteExists(remote) ? remote : null,
      dryRun,
    });
  } catch (err) {
    deps.warn(`[checkpoint] shared checkpoints not pruned: ${(err as Error).message}`);
    return { pruned: [], commit: null };
  }
}

/** What `list` says of the shared checkpoints after the local ones (nothing when there are none). */
export function sharedListLines(shared: readonly SharedCheckpoint[], engine: string): string[] {
  if (shared.length === 0) return [];
  return [
    `${shared.length} shared checkpoint(s) from other clones (fetched; never picked automatically):`,
    ...shared.map(sharedRowText),
    `show one with: ${engine} show s1; resume one with: ${engine} restore --shared s1`,
  ];
}
