import { firstLine, type ShareGit } from "./share-git.ts";
import { mergeShareTrees, remoteShareRef, SHARE_REF } from "./share-tree.ts";

// Pushing the shared ref, and the fetch-merge-retry when another clone pushed first.

const PUSH_TRIES = 3;

export type PushOutcome =
  | { ok: true; remote: string; commit: string; merges: number }
  | { ok: false; reason: string; expected: string };

/** What `--remote` names, or the default, checked to exist. */
export function pickRemote(
  git: ShareGit,
  flag: string | undefined,
): { ok: true; remote: string } | { ok: false; reason: string; expected: string } {
  const remote = flag ?? git.defaultRemote();
  if (!/^[A-Za-z0-9._/-]+$/.test(remote) || remote.startsWith("-"))
    return { ok: false, reason: `'${remote}' is not a remote name`, expected: "--remote NAME" };
  if (!git.remoteExists(remote))
    return {
      ok: false,
      reason: `no git remote '${remote}': nothing pushed`,
      expected: "--remote NAME (one of `git remote`), or --no-push to record it here only",
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

/** The merge of the local ref with what the remote holds, as a two-parent commit on the local ref. */
function mergeRemote(git: ShareGit, local: string, theirs: string): boolean {
  const base = git.mergeBase(local, theirs);
  if (base === theirs) return true; // already contains theirs: the push was rejected for another reason
  const merged = mergeShareTrees(git.readTree(base), git.readTree(local), git.readTree(theirs));
  const commit = git.commitTree(
    git.writeTree(merged),
    [local, theirs],
    "quoin share: merge with the remote's shares\n",
  );
  return git.updateRef(SHARE_REF, commit, local);
}

/**
 * Push the local ref; rejected because another clone pushed first: fetch theirs, merge three-way,
 * push again, at most PUSH_TRIES pushes.
 */
export function pushShares(git: ShareGit, remote: string): PushOutcome {
  let merges = 0;
  let last = "";
  for (let attempt = 1; attempt <= PUSH_TRIES; attempt += 1) {
    const local = git.resolve(SHARE_REF);
    if (!local)
      return { ok: false, reason: "nothing shared here yet", expected: "share [N|file] first" };
    const r = git.run(["push", "--quiet", remote, `${SHARE_REF}:${SHARE_REF}`], { network: true });
    if (r.status === 0) return { ok: true, remote, commit: local, merges };
    last = firstLine(r.stderr) || (r.status === null ? "timed out" : `exit ${r.status}`);
    if (r.status === null || !rejectedAsBehind(r.stderr)) break;
    const fetched = fetchShares(git, remote);
    if (!fetched.ok) return fetched;
    if (fetched.commit && mergeRemote(git, local, fetched.commit)) merges += 1;
  }
  return {
    ok: false,
    reason: `push to '${remote}' failed: ${last}; the share stays recorded here`,
    expected: "a reachable remote that needs no prompt; run share again to push",
  };
}
