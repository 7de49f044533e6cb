import * as path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// The prompt hook runs before every prompt: the transcript digest (a 32 MiB read) must never be on
// its import graph. esbuild's metafile lists every source the bundle pulls in.
const ROOT = path.resolve(import.meta.dirname, "..", "..");

describe("the UserPromptSubmit hook's imports", () => {
  it("do not include the transcript digest", async () => {
    const out = await build({ entryPoints: [path.join(ROOT, "hooks", "userpromptsubmit.ts")], bundle: true, platform: "node", format: "esm", write: false, metafile: true, logLevel: "silent", outdir: "/tmp/unused" });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.some((f) => f.endsWith("lib/context/transcript-tail.ts"))).toBe(true);
    expect(inputs.filter((f) => f.includes("transcript-digest"))).toEqual([]);
  });
});
