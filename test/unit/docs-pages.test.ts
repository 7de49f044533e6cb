import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

// The README is the front door (at most 20,000 bytes) and docs/ the map: every page a link names
// exists, every heading a link names is there, and the architecture page names every folder of
// lib/, so a new folder cannot be left out of it.
const ROOT = path.resolve(import.meta.dirname, "../..");
const README_MAX_BYTES = 20_000;

const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (m) out.add(slug(m[1] as string));
  }
  return out;
}

/** Relative links of a Markdown text, outside code: `[text](target)`. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^[a-z]+:/i.test(t));
}

/** Every link of `file` (relative to the repository) that names a missing file or heading. */
function brokenLinks(file: string): string[] {
  const out: string[] = [];
  for (const link of linksOf(read(file))) {
    const [target = "", anchor] = link.split("#");
    const resolved = target === "" ? file : path.posix.join(path.posix.dirname(file), target);
    if (!existsSync(path.join(ROOT, resolved))) {
      out.push(`${file}: ${link} (no such file)`);
      continue;
    }
    if (anchor && resolved.endsWith(".md") && !anchorsOf(read(resolved)).has(anchor))
      out.push(`${file}: ${link} (no such heading)`);
  }
  return out;
}

const docPages = () =>
  readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);

describe("the README and docs/", () => {
  it(`the README is at most ${README_MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(read("README.md"))).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it("every docs/ page the README links to exists, and so does every page and heading docs/ links to", () => {
    const readmeDocs = linksOf(read("README.md")).filter((l) => l.startsWith("docs/"));
    expect(readmeDocs.length).toBeGreaterThanOrEqual(10);
    expect([...["README.md"], ...docPages()].flatMap(brokenLinks)).toEqual([]);
  });

  it("the README links to every page of docs/", () => {
    const linked = new Set(linksOf(read("README.md")).map((l) => l.split("#")[0]));
    expect(docPages().filter((p) => !linked.has(p))).toEqual([]);
  });

  it("docs/architecture.md names every folder of lib/", () => {
    const page = read("docs/architecture.md");
    const folders = readdirSync(path.join(ROOT, "lib")).filter((f) =>
      statSync(path.join(ROOT, "lib", f)).isDirectory(),
    );
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((f) => !page.includes(`### lib/${f}/`))).toEqual([]);
  });

  it("would catch a missing page, a missing heading and a folder left out", () => {
    expect(linksOf("see [a](docs/nope.md) and `[b](docs/code.md)` and [c](https://x.y)")).toEqual([
      "docs/nope.md",
    ]);
    expect(slug("Walk 2: `quoin-checkpoint restore` to the brief")).toBe(
      "walk-2-quoin-checkpoint-restore-to-the-brief",
    );
    expect(anchorsOf("# A b\n```\n# not a heading\n```\n## C, d (e)\n")).toEqual(
      new Set(["a-b", "c-d-e"]),
    );
  });
});
