import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

// lib/ is layered: a folder may import its own files and the folders of a lower rank, never a
// sibling of the same rank or anything above it. Only lib/edge/ touches the world directly.
const LIB = path.resolve(import.meta.dirname, "../../lib");
const RANK: Record<string, number> = {
  core: 0,
  store: 1,
  context: 2,
  save: 3,
  restore: 3,
  skills: 3,
  install: 3,
  // sharing reads restore's list and save's windows; hooks may call it (QUOIN_SHARE=auto)
  share: 3.5,
  // the hooks' notes to the model and the person, rendered from data the hooks gather
  notes: 3.7,
  hooks: 4,
  edge: 5,
};

const WORLD = [
  { what: "process.", re: /\bprocess\./ },
  { what: "Date.now", re: /\bDate\.now\b/ },
  { what: "argument-less new Date()", re: /\bnew Date\(\s*\)/ },
  { what: "Math.random", re: /\bMath\.random\b/ },
  { what: "a timer", re: /\b(setTimeout|setInterval|setImmediate)\s*\(/ },
  { what: "a node:fs value import", re: /^import (?!type\b)[^;]*from "node:fs(\/promises)?";/m },
  { what: "require()", re: /\brequire\s*\(/ },
];

// Anywhere in lib/, edge/ too: whatever a hook or the engine calls is paid on every run.
const SLOW = [
  {
    what: "localeCompare (its first call builds an ICU collator, about 8 ms; use compareNames)",
    re: /\.localeCompare\s*\(/,
  },
  { what: "Intl (ICU data loads on first use)", re: /\bIntl\./ },
];

function libFiles(): string[] {
  return readdirSync(LIB, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

/** Comments say why; they may name process.env or Date.now without using them. */
function withoutComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
}

function importsOf(src: string): string[] {
  return [...src.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)";/gm)].map(
    (m) => m[1] as string,
  );
}

function layerViolations(file: string, src: string): string[] {
  const folder = file.split("/")[0] as string;
  const out: string[] = [];
  if (!file.includes("/"))
    out.push(`${file}: a file at lib/'s top level (lib/ holds folders only)`);
  if (RANK[folder] === undefined)
    out.push(`${file}: folder ${folder}/ has no rank in the layering table`);
  for (const spec of importsOf(src)) {
    if (!spec.startsWith(".")) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    if (target.startsWith("..")) {
      out.push(`${file}: imports ${spec}, outside lib/`);
      continue;
    }
    const to = target.split("/")[0] as string;
    if (to === folder) continue;
    const a = RANK[folder] ?? -1;
    const b = RANK[to] ?? 99;
    if (b >= a) out.push(`${file}: ${folder}/ (rank ${a}) imports ${to}/ (rank ${b}) via ${spec}`);
  }
  const code = withoutComments(src);
  for (const w of SLOW) if (w.re.test(code)) out.push(`${file}: uses ${w.what}`);
  if (folder !== "edge") {
    for (const w of WORLD)
      if (w.re.test(code)) out.push(`${file}: uses ${w.what} outside lib/edge/`);
  }
  return out;
}

/** Files of lib/ importing each other in a circle, type imports included: each circle once. */
function importCircles(sources: ReadonlyMap<string, string>): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, src] of sources)
    graph.set(
      file,
      importsOf(src)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)))
        .filter((to) => sources.has(to)),
    );
  const circles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    const at = stack.indexOf(file);
    if (at >= 0) {
      circles.push([...stack.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const to of graph.get(file) ?? []) visit(to);
    stack.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return circles;
}

describe("lib/ imports no file in a circle", () => {
  it("type imports included", () => {
    const sources = new Map(libFiles().map((f) => [f, readFileSync(path.join(LIB, f), "utf8")]));
    expect(importCircles(sources).map((c) => c.join(" -> "))).toEqual([]);
  });

  it("finds a circle of type imports across folders", () => {
    const sources = new Map([
      ["restore/a.ts", 'import type { B } from "./b.ts";'],
      ["restore/b.ts", 'import { c } from "../core/c.ts";'],
      ["core/c.ts", 'import type { A } from "../restore/a.ts";'],
      ["core/d.ts", 'import { c } from "./c.ts";'],
    ]);
    expect(importCircles(sources)).toEqual([
      ["core/c.ts", "restore/a.ts", "restore/b.ts", "core/c.ts"],
    ]);
  });
});

describe("lib/ layering", () => {
  it("every file sits in a ranked folder and imports only downwards; the world only in edge/", () => {
    const violations = libFiles().flatMap((f) =>
      layerViolations(f, readFileSync(path.join(LIB, f), "utf8")),
    );
    expect(violations).toEqual([]);
  });

  it.each([
    ["save/x.ts", 'import { a } from "../restore/y.ts";', "save/ (rank 3) imports restore/"],
    ["core/x.ts", 'import { a } from "../store/y.ts";', "core/ (rank 0) imports store/"],
    ["store/x.ts", 'import type { A } from "../hooks/y.ts";', "store/ (rank 1) imports hooks/"],
    ["hooks/x.ts", 'export { a } from "../edge/y.ts";', "hooks/ (rank 4) imports edge/"],
    ["store/x.ts", "const t = Date.now();", "Date.now"],
    ["store/x.ts", "const t = new Date();", "argument-less new Date()"],
    ["core/x.ts", "const r = Math.random();", "Math.random"],
    ["context/x.ts", "const e = process.env.HOME;", "process."],
    ["save/x.ts", "setTimeout(() => {}, 1);", "a timer"],
    ["core/x.ts", 'import { readFileSync } from "node:fs";', "a node:fs value import"],
    ["x.ts", "", "top level"],
    ["edge/x.ts", "names.sort((a, b) => a.localeCompare(b));", "localeCompare"],
    ["restore/x.ts", "new Intl.Collator();", "Intl"],
  ])("flags %s: %s", (file, src, expected) => {
    const v = layerViolations(file, src);
    expect(v.join("\n")).toContain(expected);
  });

  it.each([
    ["hooks/x.ts", 'import { a } from "../save/y.ts";'],
    ["store/x.ts", 'import type * as nodeFs from "node:fs";'],
    ["store/x.ts", "const d = new Date(ms); // not Date.now()"],
    ["edge/x.ts", "process.exit(0);"],
  ])("accepts %s: %s", (file, src) => {
    expect(layerViolations(file, src)).toEqual([]);
  });
});
