import type { Deps, RunResult } from "../core/deps.ts";
import type { ShareTree } from "./share-tree.ts";

// Git plumbing for the shared ref, through deps.run: objects and refs only, so no branch, index,
// HEAD or working-tree file is touched. A network call never waits on a prompt.

const LOCAL_MS = 10_000;
const NETWORK_MS = 30_000;

/** Never a credential prompt: git's own, ssh's, or a GUI askpass. */
const NO_PROMPT = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
  GCM_INTERACTIVE: "never",
};

/** The commits of the shared ref carry quoin's identity, so a share works without user.name set. */
function identity(deps: Deps): Record<string, string> {
  const at = `${Math.floor(deps.now().getTime() / 1000)} +0000`;
  return {
    GIT_AUTHOR_NAME: "quoin-checkpoint",
    GIT_AUTHOR_EMAIL: "quoin-checkpoint@localhost",
    GIT_COMMITTER_NAME: "quoin-checkpoint",
    GIT_COMMITTER_EMAIL: "quoin-checkpoint@localhost",
    GIT_AUTHOR_DATE: at,
    GIT_COMMITTER_DATE: at,
  };
}

export class ShareGit {
  constructor(
    private readonly deps: Deps,
    readonly root: string,
  ) {}

  run(
    args: readonly string[],
    opts: {
      input?: string;
      network?: boolean;
      env?: Record<string, string>;
      timeoutMs?: number;
    } = {},
  ): RunResult {
    const env = opts.network
      ? {
          ...NO_PROMPT,
          // BatchMode: ssh fails instead of asking for a passphrase or a host key.
          GIT_SSH_COMMAND: this.deps.env["GIT_SSH_COMMAND"] ?? "ssh -o BatchMode=yes",
          ...opts.env,
        }
      : opts.env;
    return this.deps.run("git", ["-C", this.root, ...args], {
      input: opts.input,
      timeoutMs: opts.timeoutMs ?? (opts.network ? NETWORK_MS : LOCAL_MS),
      env,
    });
  }

  private out(args: readonly string[], input?: string): string {
    const r = this.run(args, { input });
    if (r.status !== 0)
      throw new Error(`git ${args[0]} failed: ${firstLine(r.stderr) || `exit ${r.status}`}`);
    return r.stdout.trim();
  }

  isRepository(): boolean {
    return this.run(["rev-parse", "--git-dir"]).status === 0;
  }

  /** The commit a ref points at, or null when it does not exist. */
  resolve(ref: string): string | null {
    const r = this.run(["rev-parse", "--verify", "-q", `${ref}^{commit}`]);
    return r.status === 0 && r.stdout.trim() !== "" ? r.stdout.trim() : null;
  }

  readTree(commit: string | null): Map<string, string> {
    const out = new Map<string, string>();
    if (!commit) return out;
    for (const rec of this.out(["ls-tree", "-r", "-z", commit]).split("\0")) {
      const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(rec);
      if (m) out.set(m[2] as string, m[1] as string);
    }
    return out;
  }

  readBlob(id: string): string {
    const r = this.run(["cat-file", "blob", id]);
    if (r.status !== 0) throw new Error(`git cat-file ${id} failed: ${firstLine(r.stderr)}`);
    return r.stdout;
  }

  writeBlob(text: string): string {
    return this.out(["hash-object", "-w", "--stdin"], text);
  }

  /** Nested trees written bottom-up with mktree, one per folder. */
  writeTree(tree: ShareTree): string {
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

  commitTree(tree: string, parents: readonly string[], message: string): string {
    const args = ["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-F", "-"];
    const r = this.run(args, { input: message, env: identity(this.deps) });
    if (r.status !== 0) throw new Error(`git commit-tree failed: ${firstLine(r.stderr)}`);
    return r.stdout.trim();
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

  remoteExists(name: string): boolean {
    return this.run(["remote", "get-url", name]).status === 0;
  }

  /** The current branch's upstream remote, else origin. */
  defaultRemote(): string {
    const branch = this.run(["symbolic-ref", "-q", "--short", "HEAD"]).stdout.trim();
    if (branch) {
      const r = this.run(["config", "--get", `branch.${branch}.remote`]).stdout.trim();
      if (r && r !== ".") return r;
    }
    return "origin";
  }

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

export function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? ""
  );
}
