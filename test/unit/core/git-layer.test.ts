import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

// Every git process lib/ starts goes through lib/core/git-run.ts (one runner: its timeout or
// deadline, stdin, the no-prompt network environment, quoin's identity). A file that spawns git
// itself would skip those, so it fails here.
const LIB = path.resolve(import.meta.dirname, "../../../lib");
const RUNNER = "core/git-run.ts";

/** `deps.run("git", ...)`, `run('git', ...)`, `.run(\`git\`...)`: a git spawn by hand. */
const SPAWNS_GIT = /\brun\s*\(\s*["'`]git["'`]/;

function gitSpawnsOutsideTheLayer(files: Record<string, string>): string[] {
  return Object.entries(files)
    .filter(([file, src]) => file !== RUNNER && SPAWNS_GIT.test(src))
    .map(([file]) => file);
}

function libSources(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(LIB, { recursive: true, encoding: "utf8" }))
    if (f.endsWith(".ts"))
      out[f.split(path.sep).join("/")] = readFileSync(path.join(LIB, f), "utf8");
  return out;
}

describe("the git layer", () => {
  it("is the only place lib/ spawns git", () => {
    expect(gitSpawnsOutsideTheLayer(libSources())).toEqual([]);
  });

  it("finds a hand-made git spawn (what the check above would catch)", () => {
    expect(
      gitSpawnsOutsideTheLayer({
        "share/x.ts": 'return this.deps.run("git", ["-C", root, ...args]);',
        "save/y.ts": "deps.run('git', ['status'])",
        "restore/z.ts": 'deps.run("ps", ["-o", "ppid="])',
        [RUNNER]: 'return deps.run("git", ["-C", root, ...args], opts);',
      }),
    ).toEqual(["share/x.ts", "save/y.ts"]);
  });
});
