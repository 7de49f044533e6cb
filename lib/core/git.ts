import { readTextByRule } from "./file-range.ts";
import * as path from "node:path";
import type { Deps, FsApi } from "./deps.ts";
import { parseObjectId, type LogCommit } from "./git-parse.ts";
import { plainRunner, runTask } from "./git-run.ts";
import { commitExistsTask, diffStatTask, logTask, statusTask } from "./git-tasks.ts";

/** The repository's git folder: <root>/.git, or where a worktree's or submodule's `.git` file points. */
function gitDirOf(fs: FsApi, root: string): string {
  const gitDir = path.join(root, ".git");
  if (!fs.statSync(gitDir).isFile()) return gitDir;
  const pointer = readTextByRule(fs, gitDir)
    .trim()
    .replace(/^gitdir:\s*/, "");
  return path.resolve(root, pointer);
}

/**
 * The branch without spawning git (hot path): read .git/HEAD, following a `gitdir:` file.
 * "HEAD" when detached, "unknown" when there is no repository.
 */
export function readBranchCheap(fs: FsApi, root: string): string {
  try {
    const head = readTextByRule(fs, path.join(gitDirOf(fs, root), "HEAD")).trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return ref?.[1] ?? "HEAD";
  } catch {
    return "unknown";
  }
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A checkpoint's `head` section when there is no commit to name (no repository, or none yet). */
export const NO_HEAD_LINE = "(none)";

/** The `head` section's first line: a commit id, null for `(none)` (or anything else), undefined when the section is absent. */
export function readHeadLine(line: string | undefined): string | null | undefined {
  return line === undefined ? undefined : parseObjectId(line);
}

function readTrimmed(fs: FsApi, file: string): string | null {
  // NOTE: existsSync first: a thrown ENOENT costs more than the read (a worktree's refs are elsewhere).
  if (!fs.existsSync(file)) return null;
  try {
    return readTextByRule(fs, file).trim();
  } catch {
    return null;
  }
}

/** A ref's commit from packed-refs (`<sha> <ref>` lines; `^` peel lines and comments skipped). */
function packedRef(fs: FsApi, commonDir: string, ref: string): string | null {
  const text = readTrimmed(fs, path.join(commonDir, "packed-refs"));
  if (!text) return null;
  for (const line of text.split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0 && line.slice(space + 1).trim() === ref) {
      const sha = line.slice(0, space).toLowerCase();
      return OBJECT_ID.test(sha) ? sha : null;
    }
  }
  return null;
}

/**
 * The commit HEAD points at, without spawning git (cheap enough for the prompt hook's forced
 * save): HEAD, then the loose ref (in a worktree's own folder, then in the common folder that its
 * `commondir` names), then packed-refs; a symbolic ref is followed a few levels. Null when there
 * is no repository, no commit yet (an unborn branch), or the files cannot be read.
 */
export function readHeadCheap(fs: FsApi, root: string): string | null {
  try {
    const gitDir = gitDirOf(fs, root);
    const common = readTrimmed(fs, path.join(gitDir, "commondir"));
    const commonDir = common ? path.resolve(gitDir, common) : gitDir;
    let value = readTrimmed(fs, path.join(gitDir, "HEAD"));
    for (let depth = 0; value !== null && depth < 5; depth += 1) {
      const lower = value.toLowerCase();
      if (OBJECT_ID.test(lower)) return lower;
      const ref = /^ref:\s*(refs\/\S+)$/.exec(value)?.[1];
      if (!ref || ref.split("/").includes("..")) return null;
      value =
        readTrimmed(fs, path.join(gitDir, ref)) ??
        (commonDir === gitDir ? null : readTrimmed(fs, path.join(commonDir, ref))) ??
        packedRef(fs, commonDir, ref);
    }
    return null;
  } catch {
    return null;
  }
}

export function commitExists(deps: Deps, root: string, hash: string): boolean {
  if (!/^[0-9a-f]{4,40}$/i.test(hash)) return false;
  return runTask(plainRunner(deps, root), commitExistsTask(hash)) === true;
}

/** A commit as the restore brief and the hooks list it. */
export type LogEntry = Pick<LogCommit, "hash" | "isoTime" | "subject">;

export const LOG_ENTRY_FIELDS = ["hash", "isoTime", "subject"] as const;

export function recentCommits(
  deps: Deps,
  root: string,
  opts: { max?: number; since?: string; timeoutMs?: number } = {},
): LogEntry[] {
  const rest = [`-n${opts.max ?? 10}`];
  if (opts.since) rest.push(`--since=${opts.since}`);
  return runTask(plainRunner(deps, root, opts.timeoutMs), logTask(LOG_ENTRY_FIELDS, rest)) ?? [];
}

/** The lines of `git status --porcelain`; null when git failed (no repository). */
export function statusPorcelain(deps: Deps, root: string): string[] | null {
  return runTask(plainRunner(deps, root), statusTask())?.map((e) => e.line) ?? null;
}

export function diffStat(deps: Deps, root: string): string | null {
  return runTask(plainRunner(deps, root), diffStatTask)?.text ?? null;
}
