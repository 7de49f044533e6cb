import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeDeps } from "../../../lib/edge/node-deps.ts";
import { gatherCheckpoint } from "../../../lib/save/save-gather.ts";
import { memoryPaths } from "../../../lib/store/memory-paths.ts";
import { tempRepo } from "../../helpers/save-repo.ts";

// A save whose transcript is not where it was looked for (the engine run with another HOME than
// the client's): it says so in one line, and the uncommitted files are git status's.

const SID = "11111111-2222-4333-8444-555555555555";

describe("a save with no transcript at the path it was given", () => {
  it("warns in one line naming the path; the uncommitted files are every file git status shows", () => {
    const repo = tempRepo();
    writeFileSync(path.join(repo.root, "project_review_live.ex"), "x\n");
    repo.git("add", "project_review_live.ex");
    repo.git("commit", "-q", "-m", "add");
    writeFileSync(path.join(repo.root, "project_review_live.ex"), "y\n");
    const missing = path.join(repo.home, ".claude", "projects", "p", `${SID}.jsonl`);
    const deps = nodeDeps({
      home: repo.home,
      cwd: repo.root,
      env: repo.env as Record<string, string>,
    });
    const g = gatherCheckpoint(
      deps,
      {
        paths: memoryPaths(repo.root),
        launchCwd: repo.root,
        sessionId: SID,
        transcriptPath: missing,
        blockers: [],
        nextUp: [],
        completed: [],
        notes: [],
      },
      "checkpoint save (voluntary)",
    );
    expect(g.transcriptMissing).toBe(missing);
    const lines = g.warnings.filter((w) => w.includes("no transcript at"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(missing);
    expect(lines[0]).toContain("not known to be this session's");
    expect(g.data.notes?.join("\n")).toContain(`(unknown: no transcript at ${missing})`);
    expect(g.data.handover?.uncommitted).toEqual([
      { path: "project_review_live.ex", kind: "modified" },
    ]);
  });
});
