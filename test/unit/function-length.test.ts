import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The house rule: no function in lib/ over about 80 lines (a longer one is several steps that
// want names). Counted from the line of its signature to the line of its closing brace.
const LIB = path.resolve(import.meta.dirname, "../../lib");
const MAX_LINES = 80;

function longFunctions(file: string, text = readFileSync(path.join(LIB, file), "utf8")): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : "(anonymous)";
      if (lines > MAX_LINES) out.push(`lib/${file}:${start + 1} ${name} is ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe("function length", () => {
  it(`no function in lib/ is over ${MAX_LINES} lines`, () => {
    const files = readdirSync(LIB, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".ts"),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => longFunctions(f.split(path.sep).join("/")))).toEqual([]);
  });

  it("would catch one (the check can fail)", () => {
    const body = (n: number) =>
      Array.from({ length: n }, (_, i) => `    const v${i} = ${i};`).join("\n");
    // an arrow inside a method inside a class: every kind of function is counted
    const text = `class A {\n  m() {\n    const f = () => {\n${body(MAX_LINES)}\n    };\n  }\n}\nfunction short() {\n${body(MAX_LINES - 2)}\n}\n`;
    expect(longFunctions("x.ts", text)).toEqual([
      "lib/x.ts:2 m is 84 lines",
      "lib/x.ts:3 (anonymous) is 82 lines",
    ]);
  });
});
