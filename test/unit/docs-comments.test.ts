import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// A comment gives its reason itself: an issue number means nothing to a reader without the
// tracker, and DESIGN.md (the plan) and CLAUDE-CODE.md (notes on the client) are not in this
// repository; docs/ holds what the code does, and docs/glossary.md the seed's words (Tier 1,
// clause B, CASE C...) a comment may use. A test's comments and its describe/it titles say what
// it checks the same way (test/fixtures holds recorded data, not code of ours, and is skipped).
const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["lib", "cli", "hooks", "scripts"];
const TEST_FOLDER = "test";
const ISSUE_NUMBER = { name: "an issue number", re: /\bissues?\s*#?\d+/i };
const FORBIDDEN: readonly { name: string; re: RegExp }[] = [
  ISSUE_NUMBER,
  { name: "DESIGN.md", re: /\bDESIGN(\.md)?\b/ },
  { name: "CLAUDE-CODE.md", re: /\bCLAUDE-CODE\.md\b/ },
];
/** test/ is held to the same rules as the code. */
const FORBIDDEN_IN_TESTS = FORBIDDEN;
const TEST_CALLS = new Set(["describe", "it", "test", "suite"]);

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

/** The name a call starts from: `it` in `it(...)`, `it.each(rows)(...)` and `it.skip(...)`. */
function calleeRoot(node: ts.Expression): string | null {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node) || ts.isCallExpression(node))
    return calleeRoot(node.expression);
  return null;
}

/** The title of every describe/it/test call (its first argument, when written as a string). */
function titlesOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && TEST_CALLS.has(calleeRoot(node.expression) ?? "")) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteralLike(first) || ts.isTemplateExpression(first))) {
        const line = source.getLineAndCharacterOfPosition(first.getStart(source)).line + 1;
        out.push({ line, text: first.getText(source) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function offences(
  file: string,
  text: string,
  forbidden: readonly { name: string; re: RegExp }[] = FORBIDDEN,
): string[] {
  const out: string[] = [];
  for (const c of commentsOf(file, text)) {
    for (const f of forbidden) {
      const m = f.re.exec(c.text);
      if (m) out.push(`${file}:${c.line} names ${f.name}: "${m[0]}"`);
    }
  }
  return out;
}

function titleOffences(file: string, text: string): string[] {
  const out: string[] = [];
  for (const t of titlesOf(file, text))
    for (const f of FORBIDDEN) {
      const m = f.re.exec(t.text);
      if (m) out.push(`${file}:${t.line} title names ${f.name}: "${m[0]}"`);
    }
  return out;
}

function tsFilesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${dir}/${f.split(path.sep).join("/")}`);
}

function sourceFiles(): string[] {
  return FOLDERS.flatMap(tsFilesUnder);
}

/** This file names what it forbids, so it is left out. */
const SELF = `${TEST_FOLDER}/unit/docs-comments.test.ts`;

function testFiles(): string[] {
  return tsFilesUnder(TEST_FOLDER).filter(
    (f) => !f.startsWith(`${TEST_FOLDER}/fixtures/`) && f !== SELF,
  );
}

const read = (f: string) => readFileSync(path.join(ROOT, f), "utf8");

describe("comments say their reason", () => {
  it("no comment in lib/, cli/, hooks/ or scripts/ points at an issue number or DESIGN.md", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => offences(f, read(f)))).toEqual([]);
  });

  it("no comment and no describe/it title in test/ (fixtures aside) points at an issue number or DESIGN.md", () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(
      files.flatMap((f) => [
        ...offences(f, read(f), FORBIDDEN_IN_TESTS),
        ...titleOffences(f, read(f)),
      ]),
    ).toEqual([]);
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

  it("would catch it in a test's title, however the call is written, and not in other strings", () => {
    const text = [
      'describe("reconcile (issue 19)", () => {',
      '  it("keeps the hash, issues 3 and 4", () => {});',
      '  it.each([1])("row %s of Issue #9", () => {});',
      "  describe.skipIf(false)(`on ${'x'}, issue 23 point 5`, () => {});",
      '  test("fine", () => expect("issue 10").toBe("issue 10"));',
      '  run("issue 11", () => {});',
      "});",
    ].join("\n");
    expect(titleOffences("x.test.ts", text)).toEqual([
      'x.test.ts:1 title names an issue number: "issue 19"',
      'x.test.ts:2 title names an issue number: "issues 3"',
      'x.test.ts:3 title names an issue number: "Issue #9"',
      'x.test.ts:4 title names an issue number: "issue 23"',
    ]);
  });
});
