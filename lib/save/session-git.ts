import type { Deps } from "../core/deps.ts";
import type { StatusKind } from "../core/git-parse.ts";
import { DeadlineRunner, runTask } from "../core/git-run.ts";
import { batchCheckTask, logTask, statusTask } from "../core/git-tasks.ts";
import type { TranscriptDigest } from "../context/transcript-digest.ts";
import type { SessionCommit } from "../context/transcript-handover.ts";
import type { CommitRef } from "../store/checkpoint-values.ts";
import type { Handover } from "../store/checkpoint-handover.ts";
import type {
  CheckedCommit,
  UncommittedFile,
  UncommittedKind,
} from "../store/checkpoint-values.ts";

// The session's own commits and uncommitted files checked against git at save time
// (a rebase or a reset after the save must not leave a restore trusting a hash).
// Every git call is bounded: by the writer's deadline when it has one (SessionEnd), else by a
// fixed timeout. A git that does not answer in time is skipped, and the checkpoint says so in one
// line; the transcript's commits are then listed unchecked.

/** Each git call's own limit when the writer has no deadline (precompact, /checkpoint, panic). */
const GIT_CALL_TIMEOUT_MS = 2000;
/** The git-log window since the first request is read this far (a count, never listed). */
const WINDOW_MAX = 500;

export interface GitCheckOptions {
  /** false: no git process at all (the prompt hook's forced save, a hot path) */
  git: boolean;
  /** epoch ms the writer must be done by; git calls shrink to fit, and stop before it */
  deadlineAt?: number;
  /** kept for the write after the last git call */
  reserveMs?: number;
}

type Input = Pick<TranscriptDigest, "commits" | "changedAfterCommit" | "firstRequest">;

/** The checkpoint's word for a porcelain kind: a copy is a new file at its path, a conflict a change. */
function uncommittedKind(kind: StatusKind): UncommittedKind {
  if (kind === "copied") return "added";
  if (kind === "untracked" || kind === "added" || kind === "deleted" || kind === "renamed")
    return kind;
  return "modified";
}

/** A commit to check: a merge keeps its kind and time, to be found in git when it has no hash. */
type Candidate = CheckedCommit & { merge?: SessionCommit["merge"]; at?: string | null };

/** The transcript's commits, then the model's `completed` (merged by hash), all unchecked. */
function candidates(digest: Input | null, completed: readonly CommitRef[]): Candidate[] {
  const list: Candidate[] = (digest?.commits ?? []).map((c) => ({
    hash: c.hash,
    subject: c.subject,
    state: "unchecked",
    ...(c.subagent ? { subagent: true } : {}),
    ...(c.merge ? { merge: c.merge, at: c.at } : {}),
  }));
  for (const c of completed)
    if (!list.some((x) => x.hash && (x.hash.startsWith(c.hash) || c.hash.startsWith(x.hash))))
      list.push({ hash: c.hash, subject: c.subject, state: "unchecked" });
  return list;
}

/** The entry as the checkpoint lists it: without the merge's bookkeeping. */
function listed(c: Candidate): CheckedCommit {
  const { merge: _merge, at: _at, ...rest } = c;
  return rest;
}

/** `git cat-file --batch-check` of every hash: one call answers them all. */
function presentHashes(g: DeadlineRunner, hashes: readonly string[]): Set<string> | null {
  if (!hashes.length) return new Set();
  const checked = runTask(g, batchCheckTask(hashes.map((h) => `${h}^{commit}`)));
  if (checked === null) return null;
  return new Set(hashes.filter((_h, i) => checked[i]?.found?.type === "commit"));
}

interface WindowCommit {
  full: string;
  short: string;
  subject: string;
  /** a merge commit (two parents or more) */
  merge: boolean;
  /** committer time, epoch ms */
  at: number;
}

function windowCommits(g: DeadlineRunner, since: string | null | undefined): WindowCommit[] | null {
  if (!since) return null;
  const fields = ["full", "hash", "parents", "isoTime", "subject"] as const;
  const log = runTask(g, logTask(fields, [`-n${WINDOW_MAX}`, `--since=${since}`, "HEAD"]));
  return (
    log?.map((c) => ({
      full: c.full,
      short: c.hash,
      subject: c.subject,
      merge: c.parents.length > 1,
      at: Date.parse(c.isoTime),
    })) ?? null
  );
}

/** git's committer time has whole seconds, and a clock may lag the transcript's a little. */
const MERGE_TIME_SLACK_MS = 5000;

/**
 * A merge commit git printed no hash for: the oldest merge commit reachable from HEAD since the
 * first request, committed at or after the merge call, that no other entry claims.
 */
function mergeCommitOf(
  c: Candidate,
  window: readonly WindowCommit[] | null,
  claimed: Set<string>,
): CheckedCommit | null {
  const after = c.at ? Date.parse(c.at) - MERGE_TIME_SLACK_MS : Number.NaN;
  const found = [...(window ?? [])]
    .reverse()
    .find((w) => w.merge && !claimed.has(w.full) && !(w.at < after));
  if (!found) return null;
  claimed.add(found.full);
  return { hash: found.short, subject: found.subject, state: "present", ...pickSubagent(c) };
}

const pickSubagent = (c: CheckedCommit) => (c.subagent ? { subagent: true } : {});

function uncommittedOf(g: DeadlineRunner, changed: readonly string[]): UncommittedFile[] | null {
  const paths = changed.filter((p) => !p.startsWith("/")).slice(0, 50);
  if (!paths.length) return [];
  const status = runTask(g, statusTask(paths));
  if (status === null) return null;
  const dirty = new Map(status.map((e) => [e.path, uncommittedKind(e.kind)]));
  return paths.filter((p) => dirty.has(p)).map((p) => ({ path: p, kind: dirty.get(p)! }));
}

/** One listed commit against git: present, rebased (same subject in the window, new hash) or missing. */
function checkOne(
  c: Candidate,
  present: Set<string> | null,
  window: readonly WindowCommit[] | null,
  claimed: Set<string>,
): CheckedCommit {
  const entry = listed(c);
  if (present === null) return entry;
  const inWindow = window?.find((w) => w.full.startsWith(c.hash));
  if (inWindow) {
    claimed.add(inWindow.full);
    return { ...entry, state: "present" };
  }
  // Not reachable from HEAD in the window: a same-subject commit there is its rebased copy
  // (the old object may linger in this clone after a rebase).
  const moved = window?.find((w) => w.subject === c.subject && !claimed.has(w.full));
  if (present.has(c.hash) && !moved) return { ...entry, state: "present" };
  if (moved) {
    claimed.add(moved.full);
    return { ...entry, hash: moved.short, oldHash: c.hash, state: "rebased" };
  }
  return { ...entry, state: "missing" };
}

/** Every entry checked, in order; the merges git named no hash for last, from what is left. */
function checkEach(
  commits: readonly Candidate[],
  present: Set<string> | null,
  window: readonly WindowCommit[] | null,
  claimed: Set<string>,
): CheckedCommit[] {
  const hashed = commits.map((c) => (c.hash ? checkOne(c, present, window, claimed) : null));
  return commits.flatMap((c, i) => {
    const done = hashed[i];
    if (done) return [done];
    const found = present === null ? null : mergeCommitOf(c, window, claimed);
    return found ? [found] : [];
  });
}

/**
 * This session's commits and uncommitted files, checked against git: present, rebased (same
 * subject reachable from HEAD since the first request, new hash), or not in this clone; the
 * window's other commits only as a count. With `git: false` nothing is spawned: commits are
 * marked unchecked and the uncommitted files are the transcript's.
 */
export function checkHandover(
  deps: Deps,
  root: string,
  digest: Input | null,
  completed: readonly CommitRef[],
  opts: GitCheckOptions,
): Handover {
  const commits = candidates(digest, completed);
  const changed = digest?.changedAfterCommit ?? [];
  const unchecked = changed
    .filter((p) => !p.startsWith("/"))
    .map((p) => ({ path: p, kind: "unchecked" as const }));
  // A merge commit without a hash is listed once git names it; with no git it is left out.
  if (!opts.git)
    return {
      commits: commits.filter((c) => c.hash).map(listed),
      otherCommits: null,
      uncommitted: unchecked,
      gitNote: commits.length ? "commits not checked against git (this save runs no git)" : null,
    };
  const g = new DeadlineRunner(deps, root, {
    callMs: GIT_CALL_TIMEOUT_MS,
    ...(opts.deadlineAt !== undefined ? { deadlineAt: opts.deadlineAt } : {}),
    ...(opts.reserveMs !== undefined ? { reserveMs: opts.reserveMs } : {}),
  });
  const present = presentHashes(
    g,
    commits.filter((c) => c.hash).map((c) => c.hash),
  );
  const window = windowCommits(g, digest?.firstRequest?.at);
  const claimed = new Set<string>();
  const checked = checkEach(commits, present, window, claimed);
  const uncommitted = uncommittedOf(g, changed);
  const others = window ? window.filter((w) => !claimed.has(w.full)).length : null;
  return {
    commits: checked,
    otherCommits: others,
    uncommitted: uncommitted ?? unchecked,
    gitNote: g.skipped ? "git did not answer in time; commits and files listed unchecked" : null,
  };
}
