import * as path from "node:path";
import type { Deps, FsApi } from "./deps.ts";

/**
 * The branch without spawning git (hot path): read .git/HEAD, following a `gitdir:` file.
 * "HEAD" when detached, "unknown" when there is no repository.
 */
export function readBranchCheap(fs: FsApi, root: string): string {
  try {
    let gitDir = path.join(root, ".git");
    if (fs.statSync(gitDir).isFile()) {
      const pointer = fs
        .readFileSync(gitDir, "utf8")
        .trim()
        .replace(/^gitdir:\s*/, "");
      gitDir = path.resolve(root, pointer);
    }
    const head = fs.readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return ref?.[1] ?? "HEAD";
  } catch {
    return "unknown";
  }
}

function git(deps: Deps, root: string, args: string[], timeoutMs = 5000): string | null {
  const res = deps.run("git", ["-C", root, ...args], { timeoutMs });
  return res.status === 0 ? res.stdout : null;
}

export function commitExists(deps: Deps, root: string, hash: string): boolean {
  if (!/^[0-9a-f]{4,40}$/i.test(hash)) return false;
  return (
    deps.run("git", ["-C", root, "cat-file", "-e", `${hash}^{commit}`], { timeoutMs: 5000 })
      .status === 0
  );
}

export interface LogEntry {
  hash: string;
  isoTime: string;
  subject: string;
}

export function recentCommits(
  deps: Deps,
  root: string,
  opts: { max?: number; since?: string; timeoutMs?: number } = {},
): LogEntry[] {
  const args = ["log", `-n${opts.max ?? 10}`, "--format=%h%x09%cI%x09%s"];
  if (opts.since) args.push(`--since=${opts.since}`);
  const out = git(deps, root, args, opts.timeoutMs);
  if (!out) return [];
  return out
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const [hash = "", isoTime = "", ...rest] = l.split("\t");
      return { hash, isoTime, subject: rest.join("\t") };
    });
}

export function statusPorcelain(deps: Deps, root: string): string[] | null {
  const out = git(deps, root, ["status", "--porcelain"]);
  return out === null ? null : out.split("\n").filter((l) => l.trim() !== "");
}

export function diffStat(deps: Deps, root: string): string | null {
  const out = git(deps, root, ["diff", "--stat"]);
  return out === null ? null : out.trimEnd();
}
