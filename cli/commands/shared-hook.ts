import { writeAtomic } from "../../lib/core/atomic-write.ts";
import { rerunEngine } from "../rerun.ts";
import { localPickerCount } from "../../lib/restore/picker-count.ts";
import { sentinelPath } from "../../lib/store/sentinels.ts";
import { SHARE_REF } from "../../lib/share/share-tree.ts";
import { pruneShares, type PruneResult } from "../../lib/share/share-prune.ts";
import { ShareGit } from "../../lib/share/share-git.ts";
import {
  adoptShared,
  findShared,
  listSharedCheckpoints,
  sharedRowText,
  type SharedCheckpoint,
} from "../../lib/share/shared-checkpoints.ts";
import { answer, EXIT, refuse } from "../answer.ts";
import { printLine, type CliContext } from "../cli-context.ts";

// Where list, show and restore meet the shared checkpoints: one small call each, so those
// commands keep their own shape.

export function sharedCheckpointsOf(ctx: CliContext): SharedCheckpoint[] {
  try {
    return listSharedCheckpoints(new ShareGit(ctx.deps, ctx.root), {
      fs: ctx.deps.fs,
      checkpoints: ctx.paths.checkpoints,
    });
  } catch (err) {
    ctx.deps.warn(`[checkpoint] shared checkpoints not read: ${(err as Error).message}`);
    return [];
  }
}

export function sharedListLines(ctx: CliContext, shared: readonly SharedCheckpoint[]): string[] {
  if (shared.length === 0) return [];
  return [
    `${shared.length} shared checkpoint(s) from other clones (fetched; never picked automatically):`,
    ...shared.map(sharedRowText),
    `show one with: ${rerunEngine(ctx)} show s1; resume one with: ${rerunEngine(ctx)} restore --shared s1`,
  ];
}

export function showShared(ctx: CliContext, arg: string): number {
  const git = new ShareGit(ctx.deps, ctx.root);
  const found = findShared(sharedCheckpointsOf(ctx), arg);
  if (!found.ok) {
    return refuse(ctx, found, {
      text: `[checkpoint] show: ${found.reason} (expected: ${found.expected})`,
    });
  }
  const c = found.shared;
  const text = git.readBlob(c.blob);
  if (ctx.json) return answer(ctx, { shared: c, content: text });
  else {
    printLine(ctx, `--- ${c.label}: ${c.path} on ${c.remote}, shared by ${c.from} ---`);
    printLine(ctx, text.trimEnd());
  }
  return EXIT.done;
}

/** `restore --shared sN`: the picked shared checkpoint copied here and named by this session's own sentinel. */
export function adoptForRestore(
  ctx: CliContext,
  arg: string,
  sessionId: string | null,
): { ok: true; file: string } | { ok: false; reason: string; expected: string } {
  if (!sessionId)
    return {
      ok: false,
      reason: "restore --shared needs this session's id",
      expected: "--session ID (the skill passes it)",
    };
  const found = findShared(sharedCheckpointsOf(ctx), arg);
  if (!found.ok) return found;
  const file = adoptShared(ctx.deps, new ShareGit(ctx.deps, ctx.root), ctx.paths, found.shared);
  // This session's own sentinel only: Tier 1 (the picker's first look, at this session's own
  // pending-restore) restores it; no other machine's sentinel is read or written.
  writeAtomic(
    ctx.deps.fs,
    sentinelPath(ctx.paths.memory, "pending-restore", sessionId),
    `${file}\n`,
    {
      mode: 0o600,
    },
  );
  return { ok: true, file };
}

/**
 * `restore --pick N` past the local candidates: the shared checkpoint the picker numbered N
 * (shared rows follow the local ones), as its `sN` alias; null when N is a local number.
 */
export function sharedPickAlias(ctx: CliContext, pick: number, sessionId: string): string | null {
  const local = localPickerCount(ctx.deps, ctx.knobs, { paths: ctx.paths, sessionId });
  if (pick <= local) return null;
  const shared = sharedCheckpointsOf(ctx);
  return pick - local <= shared.length ? `s${pick - local}` : null;
}

/** The shared checkpoints a picker (choose, synthesize) numbers after its local rows. */
export function sharedForPicker(ctx: CliContext, action: string): SharedCheckpoint[] {
  return action === "choose" || action === "synthesize" ? sharedCheckpointsOf(ctx) : [];
}

/**
 * What restore says about shared checkpoints when it has nothing to pick (a picker numbers them in
 * its list instead): the fetched ones, or whether the remote holds some that fetch would bring.
 */
export function sharedHint(ctx: CliContext, action: string): string | null {
  if (action !== "none") return null;
  const here = sharedCheckpointsOf(ctx);
  const engine = rerunEngine(ctx);
  if (here.length > 0)
    return `[checkpoint] ${here.length} shared checkpoint(s) from other clones are fetched here: ${engine} list shows them, ${engine} restore --shared s1 resumes one`;
  const git = new ShareGit(ctx.deps, ctx.root);
  if (!git.isRepository()) return null;
  const remote = git.defaultRemote();
  if (!git.remoteExists(remote)) return null;
  const probe = git.run(["ls-remote", "--exit-code", remote, SHARE_REF], {
    network: true,
    timeoutMs: 3000,
  });
  return probe.status === 0
    ? `[checkpoint] ${remote} holds shared checkpoints of other clones: ${engine} fetch brings them`
    : null;
}

/** cleanup's part: old shares pruned from the local ref (a new commit, pushed by the next share). */
export function pruneSharedOf(
  ctx: CliContext,
  now: Date,
  windowDays: number,
  dryRun: boolean,
): PruneResult {
  try {
    const git = new ShareGit(ctx.deps, ctx.root);
    if (!git.isRepository()) return { pruned: [], commit: null };
    const remote = git.defaultRemote();
    return pruneShares(git, {
      nowMs: now.getTime(),
      windowDays,
      remote: git.remoteExists(remote) ? remote : null,
      dryRun,
    });
  } catch (err) {
    ctx.deps.warn(`[cleanup] shared checkpoints not pruned: ${(err as Error).message}`);
    return { pruned: [], commit: null };
  }
}
