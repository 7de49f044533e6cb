import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { renderAllSkills, staleSkills, writeSkills } from "../../../scripts/gen-skills.ts";
import { tempDir } from "../../helpers/temp-dirs.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const COMMITTED = path.join(ROOT, "plugin", "skills");

// The committed SKILL.md files (plugin/skills, what a git install of the plugin loads) against
// the templates rendered here, in memory: no build, so a hand edit or a stale copy fails.
describe("the committed SKILL.md files", () => {
  it("are what the templates render now (else run: npm run build:plugin)", () => {
    const skills = renderAllSkills(ROOT, "plugin");
    expect(skills.map((s) => s.name)).toEqual(["checkpoint", "cleanup"]);
    expect(staleSkills(COMMITTED, skills).map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it("the check names a hand-edited SKILL.md and a missing one", () => {
    const tmp = tempDir("quoin-skills-");
    const skills = renderAllSkills(ROOT, "plugin");
    writeSkills(tmp, skills);
    expect(staleSkills(tmp, skills)).toEqual([]);
    const cleanup = path.join(tmp, "cleanup", "SKILL.md");
    writeFileSync(cleanup, readFileSync(cleanup, "utf8").replace("pidfile", "pid file"));
    rmSync(path.join(tmp, "checkpoint", "SKILL.md"));
    expect(staleSkills(tmp, skills).map((f) => path.relative(tmp, f))).toEqual([
      path.join("checkpoint", "SKILL.md"),
      path.join("cleanup", "SKILL.md"),
    ]);
  });
});
