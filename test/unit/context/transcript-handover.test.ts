import { describe, expect, it } from "vitest";
import {
  commandKey,
  commitCall,
  addCommits,
  commitsInResult,
  lastWordsOf,
  outputShowsFailure,
} from "../../../lib/context/transcript-handover.ts";
import { checkHandover } from "../../../lib/save/session-git.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { replyLine, userLine } from "../../helpers/session-transcript.ts";
import {
  fixtureLines,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
} from "../../helpers/transcript-lines.ts";

describe("command keys", () => {
  it("drops redirections and trailing tail/head/grep pipes, and says the run was piped", () => {
    expect(commandKey("mix test 2>&1 | tail -20")).toEqual({ key: "mix test", piped: true });
    expect(commandKey("npm test  >out.txt 2>/dev/null")).toEqual({ key: "npm test", piped: false });
    expect(commandKey("npx vitest run 2>&1 | grep -E 'FAIL' | head -5")).toEqual({
      key: "npx vitest run",
      piped: true,
    });
    expect(commandKey("cat a | sort")).toEqual({ key: "cat a | sort", piped: false });
  });

  it("reads failures in a piped run's output, not in a clean summary", () => {
    expect(outputShowsFailure("5 tests, 0 failures")).toBe(false);
    expect(outputShowsFailure("5 tests, 2 failures")).toBe(true);
    expect(outputShowsFailure(" FAIL  test/a.test.ts")).toBe(true);
    expect(outputShowsFailure("Error: cannot find module")).toBe(true);
    expect(outputShowsFailure("Tests  12 passed (12)")).toBe(false);
  });
});

describe("committing calls", () => {
  it("finds git commit inside compound commands, with --amend, cherry-pick, revert and merge", () => {
    expect(commitCall("git add . && git commit -m 'x'")).toEqual({
      verbs: ["commit"],
      amend: false,
    });
    expect(commitCall("git commit --amend --no-edit")).toEqual({ verbs: ["commit"], amend: true });
    expect(commitCall("git -C /r cherry-pick abc")?.verbs).toEqual(["cherry-pick"]);
    expect(commitCall("git revert HEAD; git merge dev")?.verbs).toEqual(["revert", "merge"]);
    expect(commitCall("git status && git log")).toBeNull();
    expect(commitCall("echo git commit-graph")).toBeNull();
  });

  it("reads [branch hash] subject lines, root commits and detached heads included", () => {
    const text =
      "[main (root-commit) 1a2b3c4] first\n 1 file changed\n[detached HEAD 9f8e7d6] second";
    expect(commitsInResult(text, null, false).map((c) => [c.branch, c.hash, c.subject])).toEqual([
      ["main", "1a2b3c4", "first"],
      ["detached HEAD", "9f8e7d6", "second"],
    ]);
  });
});

describe("merges that print no [branch hash] line", () => {
  // git 2.39's own output for `git merge feat` (fast-forward) and `git merge --no-edit feat2`
  const FF = "Updating c38db96..814a627\nFast-forward\n a | 1 +\n 1 file changed, 1 insertion(+)";
  const ORT = "Merge made by the 'ort' strategy.\n b | 1 +\n 1 file changed, 1 insertion(+)";

  it("a fast-forward is the HEAD it moved to; a merge commit is one entry git is asked to name", () => {
    const at = "2026-11-29T21:00:00.000Z";
    expect(commitsInResult(FF, at, false)).toEqual([
      {
        hash: "814a627",
        subject: "fast-forward merge (from c38db96)",
        branch: "",
        at,
        subagent: false,
        merge: "fast-forward",
      },
    ]);
    expect(commitsInResult(`[main 1a2b3c4] fix\n${ORT}`, at, false)).toMatchObject([
      { hash: "1a2b3c4", subject: "fix" },
      { hash: "", subject: "merge commit", merge: "commit" },
    ]);
    expect(commitsInResult("Updating c38db96..814a627\nerror: local changes", at, false)).toEqual(
      [],
    );
    expect(commitsInResult("Already up to date.", at, false)).toEqual([]);
    // `git merge --squash` prints the fast-forward it did not make
    const squash =
      "Updating c38db96..814a627\nFast-forward\nSquash commit -- not updating HEAD\n a | 1 +";
    expect(commitsInResult(squash, at, false)).toEqual([]);
  });

  it("two merge commits stay two entries; a fast-forward to a listed commit adds nothing", () => {
    const list = commitsInResult("[feat 814a627] add a", null, false);
    addCommits(list, commitsInResult(FF, null, false), false);
    expect(list.map((c) => c.subject)).toEqual(["add a"]);
    addCommits(list, commitsInResult(ORT, null, false), false);
    addCommits(list, commitsInResult(ORT, null, false), false);
    expect(list.map((c) => c.merge ?? c.hash)).toEqual(["814a627", "commit", "commit"]);
  });

  it("a save that runs no git lists the fast-forward unchecked and leaves out the merge git never named", () => {
    const commits = [...commitsInResult(FF, null, false), ...commitsInResult(ORT, null, false)];
    const h = checkHandover(
      fakeDeps(),
      "/r",
      { commits, changedAfterCommit: [], firstRequest: null },
      [{ hash: "9f8e7d6", subject: "from the model" }],
      { git: false },
    );
    expect(h.commits).toEqual([
      { hash: "814a627", subject: "fast-forward merge (from c38db96)", state: "unchecked" },
      { hash: "9f8e7d6", subject: "from the model", state: "unchecked" },
    ]);
  });
});

describe("last words", () => {
  it("keeps 3 to 5 newest replies, newest last, each at most 800 characters, 1,600 in all", () => {
    const words = lastWordsOf(
      Array.from({ length: 8 }, (_, i) => ({ text: `${i} ${"w".repeat(400)}`, at: null })),
    );
    expect(words.map((w) => w.text[0])).toEqual(["5", "6", "7"]);
    expect(words.reduce((n, w) => n + w.text.length, 0)).toBeLessThanOrEqual(1600);
    const long = lastWordsOf([{ text: "x".repeat(2000), at: null }]);
    expect(long[0]!.text.length).toBe(800);
  });

  it("a reply that lays out a 6-step plan keeps its last step (spotter-4d5611e5 at its compaction)", () => {
    const d = digestLines(fixtureLines(SPOTTER).slice(0, 753), {
      projectRoot: SPOTTER_ROOT,
      sessionId: SPOTTER_SID,
    });
    const plan = d.lastWords.find((w) => w.text.startsWith("Now I have the full picture"))!;
    expect(plan.text).toContain("6. **spotter.css** - add debug grid and expand control styles");
  });

  it("are the main chain's text replies, not a subagent's and not API errors", () => {
    const sid = "s1";
    const api = JSON.stringify({
      ...JSON.parse(replyLine(sid, "2026-11-29T10:03:00Z", "API Error: 529 overloaded")),
      isApiErrorMessage: true,
    });
    const side = JSON.stringify({
      ...JSON.parse(replyLine(sid, "2026-11-29T10:02:00Z", "subagent says")),
      isSidechain: true,
    });
    const d = digestLines(
      [
        userLine(sid, "2026-11-29T10:00:00Z", "go"),
        replyLine(sid, "2026-11-29T10:01:00Z", "Now gqc.6: close the review."),
        side,
        api,
      ],
      { projectRoot: "/p", sessionId: sid },
    );
    expect(d.lastWords.map((w) => w.text)).toEqual(["Now gqc.6: close the review."]);
  });
});
