import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  logFormat,
  parseBatchCheck,
  parseCatFileBatch,
  parseCommitOutput,
  parseDiffStat,
  parseLog,
  parseLsTree,
  parseObjectId,
  parseStatus,
  statusKind,
} from "../../../lib/core/git-parse.ts";
import { tempDir } from "../../helpers/temp-dirs.ts";

// Each parser on what a real git printed, in a repository made here.
let repo = "";
const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

function git(args: string[], input?: string): string {
  const r = spawnSync("git", ["-C", repo, ...args], { encoding: "utf8", env: ENV, input });
  if (r.status !== 0 && r.status !== 1) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}
const write = (name: string, text: string) => writeFileSync(path.join(repo, name), text);
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n");

beforeAll(() => {
  repo = tempDir("quoin-git-parse-");
  git(["init", "-q", "-b", "main"]);
  write("a.txt", lines(50));
  write("m.txt", "m\n");
  write("d.txt", "d\n");
  write("gone.txt", "g\n");
  git(["add", "."]);
  git(["commit", "-q", "-m", "first\twith a tab"]);
});

describe("git output parsers", () => {
  it("porcelain status: every kind, a copy is 'copied' (the one classifier)", () => {
    write("a.txt", `${lines(50)}\nmore\n`);
    write("c.txt", lines(50));
    git(["add", "a.txt", "c.txt"]);
    git(["mv", "d.txt", "e.txt"]);
    git(["rm", "-q", "gone.txt"]);
    write("m.txt", "changed\n");
    write("new file.txt", "n\n");
    const out = git(["-c", "status.renames=copies", "status", "--porcelain"]);
    expect(parseStatus(out).map((e) => [e.xy, e.kind, e.path])).toEqual([
      ["M ", "modified", "a.txt"],
      ["C ", "copied", "c.txt"],
      ["R ", "renamed", "e.txt"],
      ["D ", "deleted", "gone.txt"],
      [" M", "modified", "m.txt"],
      ["??", "untracked", "new file.txt"],
    ]);
    expect(["A ", "AM", "UU", "AA", "DD", "!!", "MD"].map(statusKind)).toEqual([
      "added",
      "added",
      "conflicted",
      "conflicted",
      "conflicted",
      "ignored",
      "deleted",
    ]);
    git(["add", "-A"]);
    git(["commit", "-q", "-m", "second"]);
  });

  it("log: fields by name, parents split, a tab in the subject kept", () => {
    const fields = ["full", "hash", "parents", "isoTime", "subject"] as const;
    const out = git(["log", logFormat(fields)]);
    const log = parseLog(fields, out);
    expect(log).toHaveLength(2);
    expect(log[0]!.subject).toBe("second");
    expect(log[1]!.subject).toBe("first\twith a tab");
    expect(log[0]!.parents).toEqual([log[1]!.full]);
    expect(log[1]!.parents).toEqual([]);
    expect(log[0]!.full.startsWith(log[0]!.hash)).toBe(true);
    expect(Number.isFinite(Date.parse(log[0]!.isoTime))).toBe(true);
    expect(parseLog(["hash", "subject"], git(["log", logFormat(["hash", "subject"])]))[1]).toEqual({
      hash: log[1]!.hash,
      subject: "first\twith a tab",
    });
  });

  it("HEAD, diff --stat, and commit and merge output", () => {
    const head = parseObjectId(git(["rev-parse", "HEAD"]));
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(parseObjectId("fatal: not a git repository\n")).toBeNull();
    write("m.txt", "changed again\nand more\n");
    const stat = parseDiffStat(git(["diff", "--stat"]));
    expect(stat.files).toEqual([" m.txt | 3 ++-"]);
    expect(stat.summary).toBe(" 1 file changed, 2 insertions(+), 1 deletion(-)");
    expect(parseDiffStat("")).toEqual({ files: [], summary: "" });

    const committed = git(["commit", "-a", "-m", "third"]);
    const [c] = parseCommitOutput(committed);
    expect(c).toMatchObject({ branch: "main", subject: "third" });
    expect(git(["rev-parse", "--short", "HEAD"]).trim()).toBe(c!.hash);

    git(["checkout", "-q", "-b", "side"]);
    write("s.txt", "s\n");
    git(["add", "s.txt"]);
    git(["commit", "-q", "-m", "on side"]);
    git(["checkout", "-q", "main"]);
    const ff = parseCommitOutput(git(["merge", "side"]));
    expect(ff).toEqual([
      expect.objectContaining({
        merge: "fast-forward",
        hash: git(["rev-parse", "--short", "HEAD"]).trim(),
      }),
    ]);
    git(["checkout", "-q", "-b", "other", "HEAD~1"]);
    write("o.txt", "o\n");
    git(["add", "o.txt"]);
    git(["commit", "-q", "-m", "on other"]);
    git(["checkout", "-q", "main"]);
    const made = parseCommitOutput(git(["merge", "--no-edit", "other"]));
    expect(made).toEqual([expect.objectContaining({ merge: "commit", hash: "" })]);
    const root = parseCommitOutput("[main (root-commit) 1a2b3c4] start\n 1 file changed\n");
    expect(root).toEqual([{ index: 0, hash: "1a2b3c4", subject: "start", branch: "main" }]);
  });

  it("ls-tree -r -l -z, cat-file --batch-check and --batch (multi-byte text, a missing id)", () => {
    mkdirSync(path.join(repo, "dir"));
    write("dir/ünï.md", "héllo wörld ✓\nsecond line\n");
    write("dir/b.md", "plain\n");
    git(["add", "dir"]);
    git(["commit", "-q", "-m", "tree"]);
    const entries = parseLsTree(git(["ls-tree", "-r", "-l", "-z", "HEAD"]));
    const uni = entries.find((e) => e.path === "dir/ünï.md")!;
    expect(uni).toMatchObject({
      mode: "100644",
      type: "blob",
      size: Buffer.byteLength("héllo wörld ✓\nsecond line\n"),
    });
    const b = entries.find((e) => e.path === "dir/b.md")!;
    const missing = "0".repeat(40);
    const check = parseBatchCheck(
      [uni.id, missing],
      git(["cat-file", "--batch-check"], `${uni.id}\n${missing}\n`),
    );
    expect(check[0]!.found).toEqual({ id: uni.id, type: "blob", size: uni.size });
    expect(check[1]!.found).toBeNull();
    const ids = [uni.id, missing, b.id];
    const texts = parseCatFileBatch(ids, git(["cat-file", "--batch"], `${ids.join("\n")}\n`));
    expect(texts.get(uni.id)).toBe("héllo wörld ✓\nsecond line\n");
    expect(texts.get(b.id)).toBe("plain\n");
    expect(texts.has(missing)).toBe(false);
  });

  it("cat-file --batch: a blob that is not UTF-8 is found by the next header", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    // 3 bytes that decode to 3 replacement characters (9 bytes): the size no longer fits
    const out = `${a} blob 5\nx\uFFFD\uFFFD\uFFFDy\n${b} blob 2\nok\n`;
    const texts = parseCatFileBatch([a, b], out);
    expect(texts.get(b)).toBe("ok");
    expect(texts.get(a)).toBe("x\uFFFD\uFFFD\uFFFDy");
  });
});
