import { describe, expect, it } from "vitest";
import { readBranchCheap } from "../../../lib/core/git.ts";
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
