import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { FsApi } from "../../lib/core/deps.ts";
import { readHeadCheap } from "../../lib/core/git.ts";
import { tempRepo } from "../helpers/save-repo.ts";

// readHeadCheap reads .git's files instead of running git: held against `git rev-parse HEAD` in
// real repositories, in each state git leaves them (loose ref, packed refs, detached, worktree).

const nodeFs = fs as unknown as FsApi;

describe("readHeadCheap against git rev-parse HEAD", () => {
  it("agrees after a commit, after pack-refs, detached, in a linked worktree, and before any commit", () => {
    const repo = tempRepo();
    const head = () => readHeadCheap(nodeFs, repo.root);
    expect(head()).toBe(repo.git("rev-parse", "HEAD"));

    repo.git("commit", "-q", "--allow-empty", "-m", "second");
    expect(head()).toBe(repo.git("rev-parse", "HEAD"));

    repo.git("pack-refs", "--all");
    expect(fs.existsSync(path.join(repo.root, ".git", "refs", "heads", "main"))).toBe(false);
    expect(head()).toBe(repo.git("rev-parse", "HEAD"));

    repo.git("checkout", "-q", "--detach", "HEAD~1");
    expect(head()).toBe(repo.git("rev-parse", "HEAD"));
    repo.git("checkout", "-q", "main");

    const wt = path.join(repo.home, "wt");
    repo.git("worktree", "add", "-q", "-b", "side", wt);
    repo.git("-C", wt, "commit", "-q", "--allow-empty", "-m", "on side");
    expect(readHeadCheap(nodeFs, wt)).toBe(repo.git("-C", wt, "rev-parse", "HEAD"));
    expect(readHeadCheap(nodeFs, wt)).not.toBe(head());

    repo.git("checkout", "-q", "--orphan", "fresh");
    expect(head()).toBeNull();
  });
});
