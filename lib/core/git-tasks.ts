import {
  logFormat,
  parseBatchCheck,
  parseCatFileBatch,
  parseDiffStat,
  parseLog,
  parseLsTree,
  parseObjectId,
  parseStatus,
  type BatchCheck,
  type DiffStat,
  type LogCommit,
  type LogField,
  type StatusEntry,
  type TreeEntry,
} from "./git-parse.ts";
import type { GitTask } from "./git-run.ts";

// The git commands lib/ runs to read a repository, each with the parser of its output. Run one
// with runTask (lib/core/git-run.ts): its parsed output, or null when git failed or timed out.

/** `git log` of these fields; `rest` holds the count, range and other options. */
export function logTask<F extends LogField>(
  fields: readonly F[],
  rest: readonly string[],
): GitTask<Pick<LogCommit, F>[]> {
  return { args: ["log", ...rest, logFormat(fields)], parse: (out) => parseLog(fields, out) };
}

/** `git status --porcelain` (of `paths` only, untracked files one by one, when given). */
export function statusTask(paths?: readonly string[]): GitTask<StatusEntry[]> {
  const args = paths
    ? ["status", "--porcelain", "-uall", "--", ...paths]
    : ["status", "--porcelain"];
  return { args, parse: parseStatus };
}

export const diffStatTask: GitTask<DiffStat & { text: string }> = {
  args: ["diff", "--stat"],
  parse: (out) => ({ ...parseDiffStat(out), text: out.trimEnd() }),
};

/** The commit HEAD names, in full; null without one. */
export const headTask: GitTask<string | null> = {
  args: ["rev-parse", "HEAD"],
  parse: parseObjectId,
};

/** `<rev>^{commit}` resolved to a full id (exit 1, so null, when there is none). */
export function resolveCommitTask(rev: string): GitTask<string | null> {
  return { args: ["rev-parse", "--verify", "-q", `${rev}^{commit}`], parse: parseObjectId };
}

/** true when `hash` names a commit here (null from runTask: it does not, or git failed). */
export function commitExistsTask(hash: string): GitTask<true> {
  return { args: ["cat-file", "-e", `${hash}^{commit}`], parse: () => true };
}

/** Every name's object, type and size: one process for all of them. */
export function batchCheckTask(names: readonly string[]): GitTask<BatchCheck[]> {
  return {
    args: ["cat-file", "--batch-check"],
    input: `${names.join("\n")}\n`,
    parse: (out) => parseBatchCheck(names, out),
  };
}

/** The blobs of a commit's tree, recursively, with their sizes. */
export function lsTreeTask(commit: string): GitTask<TreeEntry[]> {
  return { args: ["ls-tree", "-r", "-l", "-z", commit], parse: parseLsTree };
}

/** Several objects' contents in one process (id -> text; an absent one is left out). */
export function catFileBatchTask(ids: readonly string[]): GitTask<Map<string, string>> {
  return {
    args: ["cat-file", "--batch"],
    input: `${ids.join("\n")}\n`,
    parse: (out) => parseCatFileBatch(ids, out),
  };
}
