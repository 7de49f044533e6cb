import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["lib", "cli", "hooks", "scripts", "test"];

// Packages that are run, not imported, each with where it runs. Anything else that package.json
// declares must be imported by a source or test file.
const TOOLS: Record<string, string> = {
  "@anthropic-ai/claude-code": "the real client of the e2e suite (test/e2e/loopback-model.ts)",
  "claude-code-newest": "the newest real client of the e2e suite (QUOIN_E2E_CLIENT=newest)",
  "@biomejs/biome": "npm test's formatter check",
  "@types/node": "tsconfig.json types",
  esbuild: "scripts/build.ts",
  tsx: "the npm scripts",
  typescript: "npm test's tsc --noEmit",
  vitest: "npm test",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.parentPath.includes("fixtures"))
    .map((e) => path.join(e.parentPath, e.name));
}

function imported(text: string, name: string): boolean {
  return [`from "${name}"`, `from "${name}/`, `("${name}")`, `("${name}/`, `"${name}/`].some(
    (form) => text.includes(form),
  );
}

describe("package.json", () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const text = [
    ...SOURCES.flatMap((d) => sourceFiles(path.join(ROOT, d))),
    path.join(ROOT, "install.ts"),
    path.join(ROOT, "vitest.config.ts"),
  ]
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");

  it("has no runtime dependencies: the bundles are self-contained", () => {
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
  });

  it("declares no package that is neither imported nor a listed tool", () => {
    const declared = [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.devDependencies ?? {}),
    ];
    expect(declared.filter((name) => !(name in TOOLS) && !imported(text, name))).toEqual([]);
    expect(Object.keys(TOOLS).filter((name) => !declared.includes(name))).toEqual([]);
  });
});
