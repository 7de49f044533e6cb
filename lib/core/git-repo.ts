import type { Deps, RunResult } from "./deps.ts";
import type { TreeEntry } from "./git-parse.ts";
import { runGit, runTask, type GitCallOptions, type GitRunner } from "./git-run.ts";
import { catFileBatchTask, lsTreeTask, resolveCommitTask } from "./git-tasks.ts";

// Git's object store and refs of one repository, through the one runner: trees and blobs read
// and written, commits made, refs moved with a check of their old value. No branch, index, HEAD or
// working-tree file is touched, so it is safe beside a person's own work.

/** A local plumbing call's limit (a large tree, a cold disk). */
const LOCAL_MS = 10_000;
/** What one `cat-file --batch` reads at most, so the output stays well under spawn's buffer. */
const BATCH_BYTES = 8 * 1024 * 1024;

/** path -> blob id */
export type BlobTree = Map<string, string>;

export class GitRepo implements GitRunner {
  constructor(
    protected readonly deps: Deps,
    readonly root: string,
  ) {}

  run(args: readonly string[], o: GitCallOptions = {}): RunResult {
    return runGit(this.deps, this.root, args, {
      timeoutMs: o.network ? undefined : LOCAL_MS,
      ...o,
    });
  }

  /** stdout trimmed; a failure throws with git's first line (a broken repository is a bug here). */
  protected out(args: readonly string[], input?: string, o: GitCallOptions = {}): string {
    const r = this.run(args, { ...o, ...(input !== undefined ? { input } : {}) });
    if (r.status !== 0)
      throw new Error(`git ${args[0]} failed: ${firstLine(r.stderr) || `exit ${r.status}`}`);
    return r.stdout.trim();
  }

  isRepository(): boolean {
    return this.run(["rev-parse", "--git-dir"]).status === 0;
  }

  /** The commit a ref points at, or null when it does not exist. */
  resolve(ref: string): string | null {
    return runTask(this, resolveCommitTask(ref)) ?? null;
  }

  /** The blobs of a commit's tree with their sizes; none for null. */
  treeEntries(commit: string | null): TreeEntry[] {
    if (!commit) return [];
    const entries = runTask(this, lsTreeTask(commit));
    if (entries === null) throw new Error(`git ls-tree ${commit} failed`);
    return entries.filter((e) => e.type === "blob");
  }

  readTree(commit: string | null): BlobTree {
    return new Map(this.treeEntries(commit).map((e) => [e.path, e.id]));
  }

  readBlob(id: string): string {
    const r = this.run(["cat-file", "blob", id]);
    if (r.status !== 0) throw new Error(`git cat-file ${id} failed: ${firstLine(r.stderr)}`);
    return r.stdout;
  }

  /**
   * Many blobs' texts with one `cat-file --batch` process per BATCH_BYTES of them (the sizes come
   * from treeEntries); an id git does not have is left out.
   */
  readBlobs(blobs: readonly { id: string; size: number | null }[]): Map<string, string> {
    const out = new Map<string, string>();
    let batch: string[] = [];
    let bytes = 0;
    const flush = () => {
      if (!batch.length) return;
      const read = runTask(this, catFileBatchTask(batch));
      if (read === null) throw new Error(`git cat-file --batch failed (${batch.length} blobs)`);
      for (const [id, text] of read) out.set(id, text);
      batch = [];
      bytes = 0;
    };
    for (const b of blobs) {
      if (bytes + (b.size ?? 0) > BATCH_BYTES) flush();
      batch.push(b.id);
      bytes += b.size ?? 0;
    }
    flush();
    return out;
  }

  writeBlob(text: string): string {
    return this.out(["hash-object", "-w", "--stdin"], text);
  }

  /** Nested trees written bottom-up with mktree, one per folder. */
  writeTree(tree: ReadonlyMap<string, string>): string {
    const folders = new Map<string, Map<string, { type: "blob" | "tree"; id: string }>>();
    const folder = (dir: string) => {
      const known = folders.get(dir);
      if (known) return known;
      const f = new Map<string, { type: "blob" | "tree"; id: string }>();
      folders.set(dir, f);
      return f;
    };
    folder("");
    for (const [p, id] of tree) {
      const cut = p.lastIndexOf("/");
      folder(cut < 0 ? "" : p.slice(0, cut)).set(p.slice(cut + 1), { type: "blob", id });
      for (let dir = p.slice(0, Math.max(cut, 0)); dir !== ""; ) {
        const up = dir.lastIndexOf("/");
        folder(up < 0 ? "" : dir.slice(0, up));
        dir = up < 0 ? "" : dir.slice(0, up);
      }
    }
    const written = new Map<string, string>();
    // Deepest folders first, so each parent lists its children's tree ids.
    for (const dir of [...folders.keys()].sort((a, b) => depth(b) - depth(a))) {
      const entries = folders.get(dir) as Map<string, { type: "blob" | "tree"; id: string }>;
      for (const [child, id] of written) {
        const cut = child.lastIndexOf("/");
        if ((cut < 0 ? "" : child.slice(0, cut)) === dir && child !== "")
          entries.set(child.slice(cut + 1), { type: "tree", id });
      }
      const input = [...entries]
        .map(
          ([name, e]) => `${e.type === "tree" ? "040000 tree" : "100644 blob"} ${e.id}\t${name}\n`,
        )
        .join("");
      written.set(dir, this.out(["mktree"], input));
    }
    return written.get("") as string;
  }

  /** A commit by quoin-checkpoint (no user.name needed), dated by the caller's clock. */
  commitTree(tree: string, parents: readonly string[], message: string): string {
    const args = ["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-F", "-"];
    return this.out(args, message, { identityAt: this.deps.now() });
  }

  /** The tree a commit holds. */
  treeOf(commit: string): string {
    return this.out(["rev-parse", `${commit}^{tree}`]);
  }

  /** Moves `ref` only if it still holds `old` (null: only if it does not exist yet). */
  updateRef(ref: string, next: string, old: string | null): boolean {
    const expected = old ?? "0".repeat(next.length);
    return this.run(["update-ref", "-m", "quoin share", ref, next, expected]).status === 0;
  }

  mergeBase(a: string, b: string): string | null {
    const r = this.run(["merge-base", a, b]);
    return r.status === 0 ? r.stdout.trim() || null : null;
  }

  /** True when `ancestor` is `commit` or in its history. */
  isAncestor(ancestor: string, commit: string): boolean {
    return this.run(["merge-base", "--is-ancestor", ancestor, commit]).status === 0;
  }

  /** How many commits the history of `commit` holds (of all the commits named, together). */
  commitCount(commit: string, ...more: string[]): number {
    return Number(this.out(["rev-list", "--count", commit, ...more])) || 0;
  }

  /** Full ref names under a prefix (`refs/quoin/remotes/`). */
  refsUnder(prefix: string): string[] {
    const r = this.run(["for-each-ref", "--format=%(refname)", prefix]);
    return r.status === 0 ? r.stdout.split("\n").filter((l) => l.trim() !== "") : [];
  }

  remoteExists(name: string): boolean {
    return this.run(["remote", "get-url", name]).status === 0;
  }

  /** The current branch's short name, or "HEAD" when detached (or unborn with no name). */
  currentBranch(): string {
    return this.run(["symbolic-ref", "-q", "--short", "HEAD"]).stdout.trim() || "HEAD";
  }

  configValue(key: string): string {
    return this.run(["config", "--get", key]).stdout.trim();
  }
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

/** The first non-blank line of git's stderr, trimmed. */
export function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? ""
  );
}
