import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { planDrift, planTaskStates, reconcile } from "../../../lib/restore/reconcile.ts";
import { reconcileLines } from "../../../lib/restore/brief/reconcile-lines.ts";
import { MemoryFixture, ROOT } from "../../helpers/memory-fixture.ts";

function fixtureCheckpoint(f: MemoryFixture) {
  const file = f.checkpoint("2026-11-29T1100-alpha.md", {
    task: "alpha",
    ageDays: 0.1,
    extra: {
      planFile: "docs/plan.md",
      commits: [
        { hash: "1111111", subject: "T-01 parser" },
        { hash: "2222222", subject: "T-02 lexer" },
      ],
      inProgress: "T-03 half done",
      nextUp: [{ item: "T-04 wire up", prerequisitesMet: true }],
      blockers: ["flaky CI on node 20"],
    },
  });
  return parseCheckpoint(f.fs.readFileSync(file, "utf8") as string);
}

describe("reconcile (seed 001)", () => {
  it("keeps commits git knows, reports the rest as not in this clone, re-derives state from git, lists drift and blockers", () => {
    const f = new MemoryFixture();
    f.write(
      `${ROOT}/docs/plan.md`,
      "- [ ] T-01 parser\n- [x] T-03 something\n- [ ] T-04 wire up\n",
      0.5,
    );
    f.runResult = (_cmd, args) => {
      const sub = args[2];
      if (sub === "status") return { status: 0, stdout: " M lib/a.ts\n?? new.ts\n", stderr: "" };
      if (sub === "diff")
        return {
          status: 0,
          stdout: " lib/a.ts | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n",
          stderr: "",
        };
      if (sub === "cat-file")
        return { status: args[4] === "1111111^{commit}" ? 0 : 1, stdout: "", stderr: "" };
      if (sub === "log")
        return { status: 0, stdout: "abcdef0\t2026-11-29T11:00:00Z\tlater work\n", stderr: "" };
      return { status: 1, stdout: "", stderr: "" };
    };
    const r = reconcile(f.deps(), ROOT, fixtureCheckpoint(f));
    expect(r.confirmedCommits.map((c) => c.hash)).toEqual(["1111111"]);
    expect(r.droppedCommits.map((c) => c.hash)).toEqual(["2222222"]);
    expect(r.status).toEqual([" M lib/a.ts", "?? new.ts"]);
    expect(r.commitsSinceSave).toBe(1);
    expect(r.drift).toEqual([
      "T-01: done in the checkpoint (1111111), open in the plan",
      "T-03: still in progress or next up in the checkpoint, done in the plan",
      "1 commit(s) since the checkpoint was saved",
    ]);
    expect(r.blockers).toEqual(["flaky CI on node 20"]);
    const lines = reconcileLines(r);
    // the commit not in this clone is said once, by its drift line
    expect(lines).toContain('Drift: commit 2222222 "T-02 lexer" is not in this clone');
    expect(lines.filter((l) => l.includes("2222222"))).toHaveLength(1);
    expect(lines).toContain("Blocker (re-check): flaky CI on node 20");
    // next up is the checkpoint's own line in the brief, said once
    expect(lines.join("\n")).not.toContain("Next up");
  });

  it("outside a repository checks nothing and drops nothing", () => {
    const f = new MemoryFixture();
    const r = reconcile(f.deps(), ROOT, fixtureCheckpoint(f));
    expect(r.git).toBe(false);
    expect(r.droppedCommits).toEqual([]);
    expect(r.drift).toEqual(["plan file docs/plan.md not found (or outside the project)"]);
  });

  it("never reads a plan outside the project", () => {
    const f = new MemoryFixture();
    f.write("/etc/plan.md", "- [x] T-09\n");
    const cp = { ...fixtureCheckpoint(f), planFile: "../../../etc/plan.md" };
    expect(reconcile(f.deps(), ROOT, cp).drift[0]).toContain("not found (or outside the project)");
  });

  it("never follows a plan symlink out of the project", () => {
    const f = new MemoryFixture();
    f.write("/etc/plan.md", "- [x] T-03 elsewhere\n");
    f.fs.mkdirSync(`${ROOT}/docs`, { recursive: true });
    (f.fs as unknown as { symlinkSync: (t: string, p: string) => void }).symlinkSync(
      "/etc/plan.md",
      `${ROOT}/docs/plan.md`,
    );
    expect(reconcile(f.deps(), ROOT, fixtureCheckpoint(f)).drift).toEqual([
      "plan file docs/plan.md not found (or outside the project)",
    ]);
  });
});

describe("planTaskStates and planDrift", () => {
  it("reads checkboxes and status glyphs", () => {
    const s = planTaskStates(
      "- [x] T-1 a\n- [ ] T-2 b\n1. \u2713 T-3 c\n* \u23F3 T-4 d\nT-5 prose\n",
    );
    expect([...s.done]).toEqual(["T-1", "T-3"]);
    expect([...s.open]).toEqual(["T-2", "T-4"]);
  });
  it("reports a plan-done task whose commit is not in git", () => {
    const cp = parseCheckpoint("## Active task\nx\n");
    expect(
      planDrift("- [x] T-7 thing\n", cp, [], [{ hash: "abcdef1", subject: "T-7 thing" }]),
    ).toEqual(["T-7: done in the plan, but commit abcdef1 is not in git"]);
  });
});

describe("reconcile: the three states of a listed commit (present, rebased, not in this clone)", () => {
  const HEAD = "a".repeat(40);
  function handoverCheckpoint(f: MemoryFixture, extraSections: string) {
    const file = f.checkpoint("2026-11-29T1100-gamma.md", {
      task: "gamma",
      ageDays: 0.1,
      extra: {
        commits: [
          { hash: "1111111", subject: "present one" },
          { hash: "99b497c", subject: "gqc.5 close review" },
          { hash: "3333333", subject: "lost one [subagent]" },
        ],
      },
    });
    const text = f.fs.readFileSync(file, "utf8") as string;
    return parseCheckpoint(`${text}\n${extraSections}`);
  }
  function git(f: MemoryFixture, status: string, head = HEAD) {
    f.runResult = (_cmd, args) => {
      const sub = args[2];
      if (sub === "status") return { status: 0, stdout: status, stderr: "" };
      if (sub === "diff") return { status: 0, stdout: "", stderr: "" };
      if (sub === "rev-parse") return { status: 0, stdout: `${head}\n`, stderr: "" };
      if (sub === "cat-file")
        return { status: args[4] === "1111111^{commit}" ? 0 : 1, stdout: "", stderr: "" };
      if (sub === "log" && args.includes("HEAD"))
        return {
          status: 0,
          stdout: "9737146\tgqc.5 close review\n1111111\tpresent one\n",
          stderr: "",
        };
      if (sub === "log") return { status: 0, stdout: "", stderr: "" };
      return { status: 1, stdout: "", stderr: "" };
    };
  }

  it("present keeps its hash, rebased takes the new hash of the same subject (marked), the rest is not in this clone", () => {
    const f = new MemoryFixture();
    git(f, "");
    const r = reconcile(f.deps(), ROOT, handoverCheckpoint(f, ""));
    expect(r.confirmedCommits).toEqual([{ hash: "1111111", subject: "present one" }]);
    expect(r.rebasedCommits).toEqual([
      { hash: "9737146", subject: "gqc.5 close review", was: "99b497c" },
    ]);
    expect(r.droppedCommits).toEqual([{ hash: "3333333", subject: "lost one" }]);
    const lines = reconcileLines(r);
    expect(lines).toContain("Commit (present in git): 1111111 present one");
    expect(lines).toContain("Commit (rebased: now 9737146, listed as 99b497c): gqc.5 close review");
    expect(lines).toContain('Drift: commit 3333333 "lost one" is not in this clone');
    expect(lines.filter((l) => l.includes("3333333"))).toHaveLength(1);
  });

  it("a bullet the writer marked rebased keeps its mark when its new hash is present", () => {
    const f = new MemoryFixture();
    git(f, "");
    const cp = handoverCheckpoint(f, "");
    // the checkpoint lists only this bullet, as the writer marked it
    cp.values.completed = parseCheckpoint(
      "## Completed this session\n- 1111111 present one (rebased from 99b497c)\n",
    ).values.completed;
    expect(reconcile(f.deps(), ROOT, cp).rebasedCommits).toEqual([
      { hash: "1111111", subject: "present one", was: "99b497c" },
    ]);
  });

  it("flags an uncommitted file that is clean now with no commit since (same ## Head)", () => {
    const f = new MemoryFixture();
    f.write(`${ROOT}/lib/a.ts`, "x");
    f.write(`${ROOT}/lib/b.ts`, "x");
    git(f, " M lib/b.ts\n");
    const sections = `## Head\n${HEAD}\n\n## Uncommitted\n- lib/a.ts (modified)\n- lib/b.ts (modified)\n`;
    expect(reconcile(f.deps(), ROOT, handoverCheckpoint(f, sections)).gitDrift).toContain(
      "uncommitted at the save, clean now with no commit since (reverted or lost?): lib/a.ts",
    );
  });

  it("reads HEAD now from .git as the save did, without a git process; git rev-parse only when .git does not say", () => {
    const f = new MemoryFixture();
    f.write(`${ROOT}/lib/a.ts`, "x");
    f.write(`${ROOT}/.git/HEAD`, "ref: refs/heads/main\n");
    f.write(`${ROOT}/.git/refs/heads/main`, `${HEAD}\n`);
    // git would say HEAD moved: the answer comes from .git, so the file is flagged
    git(f, "", "b".repeat(40));
    const sections = `## Head\n${HEAD}\n\n## Uncommitted\n- lib/a.ts (modified)\n`;
    const drift = reconcile(f.deps(), ROOT, handoverCheckpoint(f, sections)).gitDrift;
    expect(drift.join("\n")).toContain("clean now with no commit since");
    expect(f.runs.filter((r) => r.args[2] === "rev-parse")).toEqual([]);
    // an unborn branch in .git: git is asked
    f.fs.rmSync(`${ROOT}/.git/refs/heads/main`);
    reconcile(f.deps(), ROOT, handoverCheckpoint(f, sections));
    expect(f.runs.filter((r) => r.args[2] === "rev-parse")).toHaveLength(1);
  });

  it("does not flag a clean uncommitted file when HEAD moved since the save (it was committed)", () => {
    const f = new MemoryFixture();
    f.write(`${ROOT}/lib/a.ts`, "x");
    git(f, "", "b".repeat(40));
    const sections = `## Head\n${HEAD}\n\n## Uncommitted\n- lib/a.ts (modified)\n`;
    const drift = reconcile(f.deps(), ROOT, handoverCheckpoint(f, sections)).gitDrift;
    expect(drift.join("\n")).not.toContain("clean now");
  });

  it("flags working-set files that vanished, not the ones recorded as deleted", () => {
    const f = new MemoryFixture();
    git(f, "");
    const r = reconcile(
      f.deps(),
      ROOT,
      handoverCheckpoint(f, "## Uncommitted\n- old.ts (deleted)\n- lib/gone.ts (modified)\n"),
    );
    expect(r.gitDrift).toContain("working-set files that no longer exist: lib/gone.ts");
  });

  it("an older checkpoint without the handover sections reconciles as before", () => {
    const f = new MemoryFixture();
    f.write(`${ROOT}/lib/a.ts`, "x");
    git(f, "?? lib/a.ts\n");
    const r = reconcile(f.deps(), ROOT, handoverCheckpoint(f, ""));
    expect(r.gitDrift).toEqual(['commit 3333333 "lost one" is not in this clone']);
  });

  it("summarizes git status by kind and lists at most 20 entries, the checkpoint's files first", () => {
    const f = new MemoryFixture();
    f.write(`${ROOT}/lib/mine.ts`, "x");
    const untracked = Array.from({ length: 7000 }, (_, i) => `?? junk/f${i}.txt`).join("\n");
    git(f, `${untracked}\n M lib/other.ts\n M lib/mine.ts\n`);
    const r = reconcile(
      f.deps(),
      ROOT,
      handoverCheckpoint(f, "## Uncommitted\n- lib/mine.ts (modified)\n"),
    );
    expect(r.statusTotal).toBe(7002);
    expect(r.statusCounts).toEqual({ modified: 2, untracked: 7000 });
    expect(r.status).toHaveLength(20);
    expect(r.status[0]).toBe(" M lib/mine.ts");
    expect(reconcileLines(r)).toContain(
      "Working tree now: 7002 changed path(s): 2 modified, 7000 untracked; listed: 20, the session's files and what changed since the save",
    );
  });

  it("lists the session's files and what changed since the save, not untracked files already there at the save", () => {
    const f = new MemoryFixture();
    // the checkpoint was saved 0.1 day ago; 300 untracked logs are older, one note is newer
    for (let i = 0; i < 300; i += 1) f.write(`${ROOT}/logs/old${i}.log`, "x", 1);
    f.write(`${ROOT}/notes-after.md`, "x", 0.01);
    f.write(`${ROOT}/lib/mine.ts`, "x", 1);
    const old = Array.from({ length: 300 }, (_, i) => `?? logs/old${i}.log`).join("\n");
    git(f, `${old}\n?? notes-after.md\n M lib/mine.ts\n`);
    const r = reconcile(
      f.deps(),
      ROOT,
      handoverCheckpoint(f, "## Uncommitted\n- lib/mine.ts (modified)\n"),
    );
    expect(r.status).toEqual([" M lib/mine.ts", "?? notes-after.md"]);
    expect(r.statusTotal).toBe(302);
    expect(r.statusCounts).toEqual({ modified: 1, untracked: 301 });
  });
});

describe("reconcile: commits since the save", () => {
  it("with ## Head recorded, counts what HEAD has beyond it, a commit in the very second of the save too", () => {
    const f = new MemoryFixture();
    const head = "a".repeat(40);
    const file = f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      ageDays: 0,
      extra: { head },
    });
    const logs: (readonly string[])[] = [];
    f.runResult = (_cmd, args) => {
      const sub = args[2];
      if (sub === "status") return { status: 0, stdout: "", stderr: "" };
      if (sub === "log") {
        logs.push(args);
        // the commit shares the save's second: a --since window would not count it
        return args.includes(`${head}..HEAD`)
          ? { status: 0, stdout: "bbbbbbb\t2026-11-29T12:00:00Z\tsame second\n", stderr: "" }
          : { status: 0, stdout: "", stderr: "" };
      }
      return { status: 1, stdout: "", stderr: "" };
    };
    const r = reconcile(f.deps(), ROOT, parseCheckpoint(f.fs.readFileSync(file, "utf8") as string));
    expect(logs.some((a) => a.includes(`${head}..HEAD`))).toBe(true);
    expect(r.commitsSinceSave).toBe(1);
  });
});
