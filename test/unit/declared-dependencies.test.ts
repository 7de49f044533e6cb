import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["lib", "cli", "hooks", "scripts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

describe("package.json", () => {
  it("declares no runtime dependency that no source file imports", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const text = [
      ...SOURCES.flatMap((d) => sourceFiles(path.join(ROOT, d))),
      path.join(ROOT, "install.ts"),
    ]
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const unused = Object.keys(pkg.dependencies).filter(
      (name) =>
        !text.includes(`from "${name}"`) &&
        !text.includes(`from "${name}/`) &&
        !text.includes(`"${name}/`) &&
        !text.includes(`("${name}")`),
    );
    expect(unused).toEqual([]);
  });
});
