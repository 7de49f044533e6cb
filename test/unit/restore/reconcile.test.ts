import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../../lib/store/checkpoint-format.ts";
import {
  planDrift,
  planTaskStates,
  reconcile,
  reconcileLines,
} from "../../../lib/restore/reconcile.ts";
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
  it("keeps commits git knows, drops the rest as noise, re-derives state from git, lists drift and blockers", () => {
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
    expect(r.commitsSinceSave).toHaveLength(1);
    expect(r.drift).toEqual([
      "T-01: done in the checkpoint (1111111), open in the plan",
      "T-03: still in progress or next up in the checkpoint, done in the plan",
      "1 commit(s) since the checkpoint was saved",
    ]);
    expect(r.blockers).toEqual(["flaky CI on node 20"]);
    const lines = reconcileLines(r);
    expect(lines).toContain("Dropped as noise (not in git): 2222222");
    expect(lines).toContain("Blocker (re-check): flaky CI on node 20");
    expect(lines).toContain("Next up: T-04 wire up (prerequisites met? yes)");
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
