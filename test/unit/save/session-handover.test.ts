import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeDeps } from "../../../lib/edge/node-deps.ts";
import { writeSnapshotCheckpoint } from "../../../lib/save/snapshot-save.ts";
import { memoryPaths } from "../../../lib/store/memory-paths.ts";
import { parseCheckpoint, type ParsedCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { tempRepo, type TempRepo } from "../../helpers/save-repo.ts";
import {
  bashLines,
  editLines,
  replyLine,
  transcriptText,
  userLine,
} from "../../helpers/session-transcript.ts";

// The handover rule by rule, on hand-made transcripts in a real temporary git repository: this
// session's commits read from its own `git commit` results and checked against git at save time,
// the uncommitted files, and only the failures that still stand.

const SID = "11111111-2222-4333-8444-555555555555";
const T0 = new Date(Date.now() - 3600_000).toISOString();
const at = (min: number) => new Date(Date.parse(T0) + min * 60_000).toISOString();

function commit(repo: TempRepo, file: string, subject: string): { hash: string; out: string } {
  writeFileSync(path.join(repo.root, file), `${subject}\n`);
  repo.git("add", file);
  const out = repo.git("commit", "-m", subject);
  return { hash: repo.git("rev-parse", "--short", "HEAD"), out };
}

function save(
  repo: TempRepo,
  lines: ReadonlyArray<string | string[]>,
  extra?: (dir: string) => void,
): ParsedCheckpoint {
  const dir = path.join(repo.home, ".claude", "projects", "p");
  mkdirSync(dir, { recursive: true });
  const transcript = path.join(dir, `${SID}.jsonl`);
  writeFileSync(transcript, transcriptText(lines));
  extra?.(path.join(dir, SID));
  const deps = nodeDeps({ home: repo.home, cwd: repo.root, env: repo.env });
  const res = writeSnapshotCheckpoint(deps, {
    paths: memoryPaths(repo.root),
    transcriptPath: transcript,
    sessionId: SID,
    launchCwd: repo.root,
    status: "checkpoint save (precompact, auto trigger)",
    shape: "precompact",
    writeSentinel: false,
  });
  return parseCheckpoint(readFileSync(res.checkpoint, "utf8"));
}

const start = [userLine(SID, at(0), "build the parser")];

describe("this session's commits, checked against git", () => {
  it("lists a commit made inside a compound command as present", () => {
    const repo = tempRepo();
    const c = commit(repo, "a.ts", "feat: parser");
    const p = save(repo, [
      ...start,
      bashLines(SID, at(1), "git add . && git commit -m 'feat: parser'", c.out),
    ]);
    expect(p.checkedCommits).toEqual([{ hash: c.hash, subject: "feat: parser", state: "present" }]);
  });

  it("shows a rebased commit with its new hash and the old one", () => {
    const repo = tempRepo();
    const base = repo.git("rev-parse", "HEAD");
    const mine = commit(repo, "a.ts", "feat: lexer");
    repo.git("reset", "-q", "--hard", base);
    commit(repo, "o.ts", "other: docs");
    repo.git("cherry-pick", mine.hash);
    const now = repo.git("rev-parse", "--short", "HEAD");
    const p = save(repo, [
      ...start,
      bashLines(SID, at(1), "git commit -am 'feat: lexer'", mine.out),
    ]);
    expect(p.checkedCommits[0]).toMatchObject({ hash: now, oldHash: mine.hash, state: "rebased" });
    expect(p.otherCommits).toBe(1);
  });

  it("keeps only the amended commit, not the one it replaced", () => {
    const repo = tempRepo();
    const first = commit(repo, "a.ts", "wip");
    writeFileSync(path.join(repo.root, "a.ts"), "done\n");
    repo.git("add", "a.ts");
    const out = repo.git("commit", "--amend", "-m", "feat: done");
    const hash = repo.git("rev-parse", "--short", "HEAD");
    const p = save(repo, [
      ...start,
      bashLines(SID, at(1), "git commit -m wip", first.out),
      bashLines(SID, at(2), "git commit --amend -m 'feat: done'", out),
    ]);
    expect(p.checkedCommits.map((c) => [c.hash, c.state])).toEqual([[hash, "present"]]);
  });

  it("marks a subagent's commit, from a sidechain line and from a subagents/ transcript", () => {
    const repo = tempRepo();
    const side = commit(repo, "s.ts", "feat: side");
    const file = commit(repo, "f.ts", "feat: from file");
    const p = save(
      repo,
      [
        ...start,
        bashLines(SID, at(1), "git commit -m 'feat: side'", side.out, { sidechain: true }),
      ],
      (dir) => {
        mkdirSync(path.join(dir, "subagents"), { recursive: true });
        writeFileSync(
          path.join(dir, "subagents", "agent-1.jsonl"),
          transcriptText([
            bashLines(SID, at(2), "cd x && git commit -m 'feat: from file'", file.out),
          ]),
        );
      },
    );
    expect(p.checkedCommits).toEqual([
      { hash: side.hash, subject: "feat: side", state: "present", subagent: true },
      { hash: file.hash, subject: "feat: from file", state: "present", subagent: true },
    ]);
    expect(p.otherCommits ?? 0).toBe(0);
  });

  it("counts other sessions' commits in the same window, never lists them", () => {
    const repo = tempRepo();
    commit(repo, "x.ts", "other session 1");
    const mine = commit(repo, "a.ts", "feat: mine");
    commit(repo, "y.ts", "other session 2");
    const p = save(repo, [...start, bashLines(SID, at(1), "git commit -m 'feat: mine'", mine.out)]);
    expect(p.checkedCommits.map((c) => c.subject)).toEqual(["feat: mine"]);
    expect(p.otherCommits).toBe(2);
    const body = p.sections.find((s) => s.title === "Completed this session")!.body;
    expect(body).toContain("2 other commits since this session started");
    expect(p.sections.filter((s) => s.title === "Completed this session")).toHaveLength(1);
  });

  it("lists a fast-forward merge as the HEAD it moved to and a merge commit by the hash git gives it", () => {
    const repo = tempRepo();
    repo.git("checkout", "-q", "-b", "feat");
    const a = commit(repo, "a.ts", "add a");
    repo.git("checkout", "-q", "main");
    const ff = repo.git("merge", "feat");
    repo.git("checkout", "-q", "-b", "feat2");
    commit(repo, "b.ts", "add b");
    repo.git("checkout", "-q", "main");
    const c = commit(repo, "c.ts", "add c");
    const made = repo.git("merge", "--no-edit", "feat2");
    const merge = repo.git("rev-parse", "--short", "HEAD");
    expect(ff).toMatch(/^Updating [0-9a-f]+\.\.[0-9a-f]+\nFast-forward/);
    expect(made).toMatch(/^Merge made by the '\w+' strategy\./);
    const lines = [
      ...start,
      bashLines(SID, at(1), "git merge feat", ff),
      bashLines(SID, at(2), "git commit -m 'add c'", c.out),
      bashLines(SID, at(3), "git merge --no-edit feat2", made),
    ];
    const p = save(repo, lines);
    expect(p.checkedCommits).toEqual([
      { hash: a.hash, subject: expect.stringMatching(/^fast-forward merge/), state: "present" },
      { hash: c.hash, subject: "add c", state: "present" },
      { hash: merge, subject: "Merge branch 'feat2'", state: "present" },
    ]);
    // the merged branch's own commits are other commits of the window, not this session's
    expect(p.otherCommits).toBe(1);
  });

  it("says when a commit is not in this clone", () => {
    const repo = tempRepo();
    const p = save(repo, [
      ...start,
      bashLines(SID, at(1), "git commit -m gone", "[main 1234abc] gone\n 1 file changed"),
    ]);
    expect(p.checkedCommits).toEqual([{ hash: "1234abc", subject: "gone", state: "missing" }]);
  });

  it("lists the files changed after the last commit that git still shows dirty", () => {
    const repo = tempRepo();
    const c = commit(repo, "a.ts", "feat: a");
    writeFileSync(path.join(repo.root, "b.ts"), "b\n");
    writeFileSync(path.join(repo.root, "a.ts"), "changed\n");
    const p = save(repo, [
      ...start,
      editLines(SID, at(1), path.join(repo.root, "c.ts")),
      bashLines(SID, at(2), "git commit -m 'feat: a'", c.out),
      editLines(SID, at(3), path.join(repo.root, "a.ts")),
      editLines(SID, at(4), path.join(repo.root, "b.ts")),
      editLines(SID, at(5), path.join(repo.root, "clean.ts")),
    ]);
    expect(p.uncommitted).toEqual([
      { path: "b.ts", kind: "untracked" },
      { path: "a.ts", kind: "modified" },
    ]);
  });
});

describe("failures that still stand", () => {
  const failures = (lines: string[][]) =>
    save(tempRepo(), [...start, ...lines, [replyLine(SID, at(9), "done")]]).digest.failures.map(
      (f) => f.command,
    );

  it("drops a failure whose command passed later (plain)", () => {
    expect(
      failures([
        bashLines(SID, at(1), "mix test", "1 test, 1 failure", { isError: true }),
        bashLines(SID, at(2), "mix test", "5 tests, 0 failures"),
      ]),
    ).toEqual([]);
  });

  it("drops a failure whose piped rerun shows no failure", () => {
    expect(
      failures([
        bashLines(SID, at(1), "mix test 2>&1", "1 test, 1 failure", { isError: true }),
        bashLines(SID, at(2), "mix test 2>&1 | tail -20", "All 5 tests pass\n5 tests, 0 failures"),
      ]),
    ).toEqual([]);
  });

  it("keeps a failure when the piped rerun's output shows failures (its exit says nothing)", () => {
    expect(
      failures([
        bashLines(SID, at(1), "mix test", "1 test, 1 failure", { isError: true }),
        bashLines(SID, at(2), "mix test | tail -5", "5 tests, 2 failures"),
      ]),
    ).toEqual(["mix test"]);
  });

  it("drops a refused commit once a later commit went through", () => {
    expect(
      failures([
        bashLines(SID, at(1), "git add . && git commit -m 'a'", "Pre-commit validation failed", {
          isError: true,
        }),
        bashLines(SID, at(2), "git commit -m 'b'", "[main 1234abc] b\n 1 file changed"),
      ]),
    ).toEqual([]);
  });

  it("keeps a failure whose later run is another command", () => {
    expect(
      failures([
        bashLines(SID, at(1), "mix test", "1 failure", { isError: true }),
        bashLines(SID, at(2), "mix compile", "ok"),
      ]),
    ).toEqual(["mix test"]);
  });
});
