import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import { ShareGit } from "./share-git.ts";
import type { Retention } from "./share-merge.ts";
import { pickRemote, pushShares } from "./share-push.ts";
import { recordShare, shareOrigin } from "./share-record.ts";

// QUOIN_SHARE=auto: every /checkpoint save is shared (recorded and pushed); a SessionEnd snapshot
// is recorded on the local ref only (a push does not fit SessionEnd's 1.5 s), and the next share
// or fetch pushes it. Any other value, or none: nothing leaves unless a person runs share.

/** The QUOIN_SHARE knob (lib/core/knobs.ts: read, validated and warned about once, with the others). */
export function autoShareOn(knobs: Pick<Knobs, "QUOIN_SHARE">): boolean {
  return knobs.QUOIN_SHARE === "auto";
}

export type AutoShare =
  | { ok: true; path: string; pushed: boolean; remote: string | null }
  | { ok: false; reason: string };

export function autoShare(
  deps: Deps,
  opts: {
    file: string;
    root: string;
    launchCwd: string;
    push: boolean;
    /** for a merge with a squashed remote history */
    retention?: Retention;
  },
): AutoShare {
  try {
    const git = new ShareGit(deps, opts.root);
    if (!git.isRepository()) return { ok: false, reason: "not a git repository; not shared" };
    const recorded = recordShare(deps, git, { ...opts, origin: shareOrigin(deps, git) });
    if (!recorded.ok) return { ok: false, reason: recorded.reason };
    if (!opts.push) return { ok: true, path: recorded.path, pushed: false, remote: null };
    const remote = pickRemote(git, undefined);
    if (!remote.ok) return { ok: false, reason: `recorded ${recorded.path}; ${remote.reason}` };
    const pushed = pushShares(git, remote.remote, opts.retention);
    return pushed.ok
      ? { ok: true, path: recorded.path, pushed: true, remote: pushed.remote }
      : { ok: false, reason: `recorded ${recorded.path}; ${pushed.reason}` };
  } catch (err) {
    return { ok: false, reason: `not shared: ${(err as Error).message}` };
  }
}
