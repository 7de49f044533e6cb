import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// A comment gives its reason itself: "issue 19" means nothing to a reader without the tracker,
// and DESIGN.md (the plan) and CLAUDE-CODE.md (notes on the client) are not in this repository;
// docs/ holds what the code does, and docs/glossary.md the seed's words (Tier 1, clause B,
// CASE C...) a comment may use.
const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["lib", "cli", "hooks", "scripts"];
const FORBIDDEN: readonly { name: string; re: RegExp }[] = [
  { name: "an issue number", re: /\bissue\s*#?\d+/i },
  { name: "DESIGN.md", re: /\bDESIGN(\.md)?\b/ },
  { name: "CLAUDE-CODE.md", re: /\bCLAUDE-CODE\.md\b/ },
];

/** Every comment of a TypeScript text, with its line (1-based). */
function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Set<number>();
  const out: { line: number; text: string }[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      const line = source.getLineAndCharacterOfPosition(r.pos).line + 1;
      out.push({ line, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node): void => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return out.sort((a, b) => a.line - b.line);
}

function offences(file: string, text: string): string[] {
  const out: string[] = [];
  for (const c of commentsOf(file, text)) {
    for (const f of FORBIDDEN) {
      const m = f.re.exec(c.text);
      if (m) out.push(`${file}:${c.line} names ${f.name}: "${m[0]}"`);
    }
  }
  return out;
}

function sourceFiles(): string[] {
  return FOLDERS.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `${dir}/${f.split(path.sep).join("/")}`),
  );
}

describe("comments say their reason", () => {
  it("no comment in lib/, cli/, hooks/ or scripts/ points at an issue number or DESIGN.md", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => offences(f, readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
  });

  it("would catch one in every kind of comment, and not in code", () => {
    const text = [
      "// the fix for issue 19",
      "/** see Issue #23, point 6 */",
      "const a = 1; /* issue 7 */",
      "const s = `issue 9 in a ${'template'}`; // fine",
      'const t = "issue 10 in a string";',
      '// DESIGN.md "On disk"',
      "// last line, issue 4",
    ].join("\n");
    expect(offences("x.ts", text)).toEqual([
      'x.ts:1 names an issue number: "issue 19"',
      'x.ts:2 names an issue number: "Issue #23"',
      'x.ts:3 names an issue number: "issue 7"',
      'x.ts:6 names DESIGN.md: "DESIGN.md"',
      'x.ts:7 names an issue number: "issue 4"',
    ]);
  });
});
