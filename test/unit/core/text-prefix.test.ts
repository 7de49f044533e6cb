import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { PREFIX, SEED_WARNING } from "../../../lib/core/text-prefix.ts";

// One prefix per speaker: every string in lib/, cli/ and hooks/ that opens with a bracketed word
// and a space (`[name] ...`) opens with one of the table's prefixes, or is seed 001's literal
// warning. Bracketed text that is not a prefix (`[x]`, `[redacted]`) has no space after it or
// does not open a string.

const ROOT = path.resolve(import.meta.dirname, "../../..");
const ALLOWED = new Set<string>([PREFIX.person, PREFIX.model, PREFIX.engine]);

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(dir, f));
}

const withoutComments = (src: string) =>
  src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** `file: [name]` for every string that opens with a bracketed name and a space. */
function prefixesIn(file: string, src: string): string[] {
  const out: string[] = [];
  const text = withoutComments(src);
  for (const m of text.matchAll(/["'`](\[[A-Za-z][A-Za-z -]*\]) /g)) {
    const prefix = m[1] as string;
    if (ALLOWED.has(prefix)) continue;
    if (text.slice(m.index + 1).startsWith(SEED_WARNING)) continue;
    out.push(`${file}: ${prefix}`);
  }
  return out;
}

describe("message prefixes", () => {
  it("lib/, cli/ and hooks/ speak with the table's prefixes only", () => {
    const found = ["lib", "cli", "hooks"].flatMap((dir) =>
      sources(dir).flatMap((f) => prefixesIn(f, readFileSync(path.join(ROOT, f), "utf8"))),
    );
    expect(found).toEqual([]);
  });

  it("the scan finds an outlier, and lets the seed's warning and bracketed data pass", () => {
    expect(prefixesIn("a.ts", "warn(`[cleanup] nothing pruned`);")).toEqual(["a.ts: [cleanup]"]);
    expect(prefixesIn("a.ts", 'const x = "[quoin checkpoint] hello";')).toEqual([
      "a.ts: [quoin checkpoint]",
    ]);
    expect(prefixesIn("a.ts", "`[quoin checkpoint] WARNING: file ${f} exceeds`")).toEqual([]);
    expect(prefixesIn("a.ts", 'const m = "[x]"; const r = "[redacted]";')).toEqual([]);
    expect(prefixesIn("a.ts", "// `[cleanup] old` in a comment")).toEqual([]);
    expect(prefixesIn("a.ts", "say(`[quoin] saved`, `[checkpoint] ok`)")).toEqual([]);
  });
});
