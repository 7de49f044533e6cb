import { firstLine } from "../core/git-repo.ts";
import type { ShareGit } from "./share-git.ts";
import { commitPlan, planMerge, type Retention } from "./share-merge.ts";
import { remoteShareRef, SHARE_REF } from "./share-tree.ts";

// Pushing the shared ref, and the fetch-merge-retry when another clone pushed first.

const PUSH_TRIES = 3;

export type PushOutcome =
  | { ok: true; remote: string; commit: string; merges: number }
  | { ok: false; reason: string; expected: string };

/**
 * What `--remote` names, or the default, checked to exist. `recordOnly`: the command has
 * `--no-push` (share does, fetch does not), so the refusal may offer it.
 */
export function pickRemote(
  git: ShareGit,
  flag: string | undefined,
  opts: { recordOnly: boolean } = { recordOnly: true },
): { ok: true; remote: string } | { ok: false; reason: string; expected: string } {
  const remote = flag ?? git.defaultRemote();
  if (!/^[A-Za-z0-9._/-]+$/.test(remote) || remote.startsWith("-"))
    return { ok: false, reason: `'${remote}' is not a remote name`, expected: "--remote NAME" };
  if (!git.remoteExists(remote))
    return {
      ok: false,
      reason: `no git remote '${remote}': nothing pushed`,
      expected: opts.recordOnly
        ? "--remote NAME (one of `git remote`), or --no-push to record it here only"
        : "--remote NAME (one of `git remote`)",
    };
  return { ok: true, remote };
}

export type FetchOutcome =
  | { ok: true; remote: string; ref: string; commit: string | null }
  | { ok: false; reason: string; expected: string };

/** The remote's shared ref into refs/quoin/remotes/<remote>/checkpoints; a remote without one: commit null. */
export function fetchShares(git: ShareGit, remote: string): FetchOutcome {
  const ref = remoteShareRef(remote);
  const r = git.run(["fetch", "--no-tags", "--quiet", remote, `+${SHARE_REF}:${ref}`], {
    network: true,
  });
  if (r.status !== 0) {
    if (/couldn't find remote ref|no such ref/i.test(r.stderr))
      return { ok: true, remote, ref, commit: null };
    return {
      ok: false,
      reason: `fetch from '${remote}' failed: ${firstLine(r.stderr) || (r.status === null ? "timed out" : `exit ${r.status}`)}`,
      expected: "a reachable remote that needs no prompt (GIT_TERMINAL_PROMPT=0)",
    };
  }
  return { ok: true, remote, ref, commit: git.resolve(ref) };
}

function rejectedAsBehind(stderr: string): boolean {
  return /non-fast-forward|fetch first|rejected|stale info|failed to update ref/i.test(stderr);
}

/**
 * The remote's ref as last fetched, merged into the local ref when the local history does not
 * hold it yet (three-way, or base-less after a squash); the value the next push leases on.
 */
function integrateFetched(
  git: ShareGit,
  remote: string,
  local: string,
  retention: Retention | undefined,
): { known: string | null; local: string | null; merged: boolean } {
  const known = git.resolve(remoteShareRef(remote));
  if (!known || known === local || git.isAncestor(known, local))
    return { known, local, merged: false };
  const plan = planMerge(git, local, known, retention);
  const next = commitPlan(git, plan, local, "quoin share: merge with the remote's shares\n");
  return { known, local: next, merged: next !== null && next !== local };
}

/**
 * Push the local ref with a lease on the remote's value it replaces (what was last fetched, which
 * the local ref holds, merged in): a squashed history replaces the remote's, and a remote that
 * moved meanwhile refuses. Refused: fetch theirs, merge, push again, at most PUSH_TRIES pushes.
 */
export function pushShares(git: ShareGit, remote: string, retention?: Retention): PushOutcome {
  let merges = 0;
  let last = "";
  for (let attempt = 1; attempt <= PUSH_TRIES; attempt += 1) {
    const tip = git.resolve(SHARE_REF);
    if (!tip)
      return { ok: false, reason: "nothing shared here yet", expected: "share [N|file] first" };
    const { known, local, merged } = integrateFetched(git, remote, tip, retention);
    if (merged) merges += 1;
    if (!local) {
      last = `${SHARE_REF} moved during the merge`;
      continue;
    }
    if (local === known) return { ok: true, remote, commit: local, merges };
    const lease = `--force-with-lease=${SHARE_REF}:${known ?? ""}`;
    const r = git.run(["push", "--quiet", lease, remote, `${SHARE_REF}:${SHARE_REF}`], {
      network: true,
    });
    if (r.status === 0) {
      // What the remote now holds, so the next push leases on it without a fetch.
      git.updateRef(remoteShareRef(remote), local, known);
      return { ok: true, remote, commit: local, merges };
    }
    last = firstLine(r.stderr) || (r.status === null ? "timed out" : `exit ${r.status}`);
    if (r.status === null || !rejectedAsBehind(r.stderr)) break;
    const fetched = fetchShares(git, remote);
    if (!fetched.ok) return fetched;
  }
  return {
    ok: false,
    reason: `push to '${remote}' failed: ${last}; the share stays recorded here`,
    expected: "a reachable remote that needs no prompt; run share again to push",
  };
}
