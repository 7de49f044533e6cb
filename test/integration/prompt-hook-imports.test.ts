import { readdirSync } from "node:fs";
import * as path from "node:path";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { lazyPromptColdPlugin } from "../../scripts/lazy-prompt-cold-plugin.ts";

// The prompt hook runs before every prompt: the transcript digest (a 32 MiB read) must never be on
// its import graph. esbuild's metafile lists every source the bundle pulls in.
const ROOT = path.resolve(import.meta.dirname, "..", "..");

describe("the UserPromptSubmit hook's imports", () => {
  it("do not include the transcript digest", async () => {
    const inputs = await bundleInputs("hooks/userpromptsubmit.ts");
    expect(inputs.some((f) => f.endsWith("lib/context/transcript-tail.ts"))).toBe(true);
    expect(inputs.filter((f) => f.includes("transcript-digest"))).toEqual([]);
  });

  it("compile the block tier and the re-entry after a compaction only when reached (prompt-cold.ts)", async () => {
    const inputs = await bundleInputs("hooks/userpromptsubmit.ts", [lazyPromptColdPlugin(ROOT)]);
    expect(inputs.some((f) => f.endsWith("lib/edge/lazy-prompt-cold.ts"))).toBe(true);
    for (const cold of [
      "lib/hooks/prompt-cold.ts",
      "lib/hooks/prompt-failed.ts",
      "lib/save/skeleton-save.ts",
      "lib/store/checkpoint-format.ts",
      "lib/store/checkpoint-parse.ts",
      "lib/hooks/compact-reentry.ts",
      "lib/hooks/reentry-at-prompt.ts",
    ])
      expect(inputs.filter((f) => f.endsWith(cold))).toEqual([]);
  });
});

// Merely loading zod/mini costs a hook 3-4 ms (3-4 % of a bare `node -e 0`): no hook bundle and not
// the status line may pull it in (lib/core/value-checks.ts). The engine keeps it: the check can fail.
async function bundleInputs(entry: string, plugins: Plugin[] = []): Promise<string[]> {
  const out = await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    outdir: "/tmp/unused",
    plugins,
  });
  return Object.keys(out.metafile.inputs);
}

describe("zod stays out of the hooks and the status line", () => {
  const entries = [
    ...readdirSync(path.join(ROOT, "hooks"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `hooks/${f}`),
    "cli/statusline-entry.ts",
  ];
  it.each(entries.map((e) => [e]))("%s imports no zod", async (entry) => {
    expect((await bundleInputs(entry)).filter((f) => f.includes("zod"))).toEqual([]);
  });
  it("while the engine (cli/main.ts) still does", async () => {
    expect(entries.length).toBeGreaterThanOrEqual(5);
    expect((await bundleInputs("cli/main.ts")).some((f) => f.includes("node_modules/zod/"))).toBe(
      true,
    );
  });
});

// any-ascii's tables are half a megabyte: no hook and not the status line may pull them in; the
// engine reaches them only through lib/edge/lazy-any-ascii.ts, which loads dist/any-ascii.cjs.
describe("any-ascii stays out of the hooks and the status line", () => {
  const entries = [
    ...readdirSync(path.join(ROOT, "hooks"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `hooks/${f}`),
    "cli/statusline-entry.ts",
  ];
  it.each(entries.map((e) => [e]))("%s imports no any-ascii", async (entry) => {
    expect((await bundleInputs(entry)).filter((f) => f.includes("any-ascii"))).toEqual([]);
  });
});
