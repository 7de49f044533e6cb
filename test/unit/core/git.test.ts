import { describe, expect, it } from "vitest";
import { readBranchCheap, readHeadCheap } from "../../../lib/core/git.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

describe("readBranchCheap", () => {
  it("reads a branch, a detached HEAD, a worktree pointer, and no repository", () => {
    const deps = fakeDeps({
      files: {
        "/a/.git/HEAD": "ref: refs/heads/feat/x\n",
        "/b/.git/HEAD": "0123456789abcdef\n",
        "/c/.git": "gitdir: /a/.git\n",
      },
    });
    expect(readBranchCheap(deps.fs, "/a")).toBe("feat/x");
    expect(readBranchCheap(deps.fs, "/b")).toBe("HEAD");
    expect(readBranchCheap(deps.fs, "/c")).toBe("feat/x");
    expect(readBranchCheap(deps.fs, "/none")).toBe("unknown");
  });
});

describe("readHeadCheap", () => {
  const A = "a".repeat(40);
  const B = "b".repeat(40);
  const C = "c".repeat(40);

  it("follows HEAD to a loose ref, a packed ref, a detached commit, and a symbolic ref", () => {
    const deps = fakeDeps({
      files: {
        "/loose/.git/HEAD": "ref: refs/heads/main\n",
        "/loose/.git/refs/heads/main": `${A}\n`,
        "/loose/.git/packed-refs": `${B} refs/heads/main\n`,
        "/packed/.git/HEAD": "ref: refs/heads/feat/x\n",
        "/packed/.git/packed-refs": `# pack-refs with: peeled fully-peeled sorted\n${C} refs/heads/feat/x\n^${A}\n${B} refs/heads/main\n`,
        "/detached/.git/HEAD": `${B.toUpperCase()}\n`,
        "/symbolic/.git/HEAD": "ref: refs/heads/alias\n",
        "/symbolic/.git/refs/heads/alias": "ref: refs/heads/main\n",
        "/symbolic/.git/refs/heads/main": `${C}\n`,
      },
    });
    // the loose ref wins over a stale packed one
    expect(readHeadCheap(deps.fs, "/loose")).toBe(A);
    expect(readHeadCheap(deps.fs, "/packed")).toBe(C);
    expect(readHeadCheap(deps.fs, "/detached")).toBe(B);
    expect(readHeadCheap(deps.fs, "/symbolic")).toBe(C);
  });

  it("reads a worktree: its own HEAD, the refs of the common folder its commondir names", () => {
    const deps = fakeDeps({
      files: {
        "/main/.git/HEAD": "ref: refs/heads/main\n",
        "/main/.git/packed-refs": `${A} refs/heads/main\n${B} refs/heads/wt\n`,
        "/main/.git/worktrees/wt/HEAD": "ref: refs/heads/wt\n",
        "/main/.git/worktrees/wt/commondir": "../..\n",
        "/wt/.git": "gitdir: /main/.git/worktrees/wt\n",
      },
    });
    expect(readHeadCheap(deps.fs, "/wt")).toBe(B);
    expect(readHeadCheap(deps.fs, "/main")).toBe(A);
  });

  it("is null with no repository, no commit yet, a ref that leaves the git folder, or a loop", () => {
    const deps = fakeDeps({
      files: {
        "/unborn/.git/HEAD": "ref: refs/heads/main\n",
        "/escape/.git/HEAD": "ref: refs/../../../etc/passwd\n",
        "/loop/.git/HEAD": "ref: refs/heads/a\n",
        "/loop/.git/refs/heads/a": "ref: refs/heads/b\n",
        "/loop/.git/refs/heads/b": "ref: refs/heads/a\n",
        "/garbage/.git/HEAD": "not a ref\n",
      },
    });
    for (const root of ["/none", "/unborn", "/escape", "/loop", "/garbage"])
      expect(readHeadCheap(deps.fs, root), root).toBeNull();
  });
});
