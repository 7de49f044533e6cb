import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT_CAUSES } from "../../cli/answer.ts";
import { HOOK_SPECS } from "../../lib/install/install-layout.ts";

// The README's and docs' claims that are facts of the code, checked against it: how many hooks
// there are, what `npm i -g` puts on the PATH, the exit-code table.
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");
const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight"];

describe("the README's facts", () => {
  const readme = read("README.md");

  it("the hook count is the number of hooks installed", () => {
    const count = WORDS[HOOK_SPECS.length]!;
    const claims = [...readme.matchAll(/\b(\w+) hook(?: entries| scripts|s)\b/gi)]
      .map((m) => m[1]!.toLowerCase())
      .filter((w) => WORDS.includes(w));
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.filter((w) => w !== count)).toEqual([]);
    for (const spec of HOOK_SPECS) expect(readme).toContain(`\`${spec.event}\``);
  });

  it("what lands on the PATH: the package's bin, named as the README names it", () => {
    const pkg = JSON.parse(read("package.json")) as { bin: Record<string, string> };
    expect(Object.keys(pkg.bin)).toEqual(["quoin-checkpoint"]);
    expect(readme).toMatch(/npm i -g quoin-checkpoint[^\n]*`quoin-checkpoint` on your PATH/);
    expect(readme).not.toMatch(/no command on the PATH/i);
  });

  it("docs/commands.md's exit-code table is EXIT_CAUSES, row for row", () => {
    const rows = [...read("docs/commands.md").matchAll(/^\| ([a-z ]+) \| ([0-2]) \|/gm)].map(
      (m) => [m[1], Number(m[2])],
    );
    expect(rows).toEqual(EXIT_CAUSES.map((c) => [c.cause, c.code]));
  });
});
