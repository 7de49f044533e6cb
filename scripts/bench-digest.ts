import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { build } from "esbuild";
import { benchNode, formatRow, measure, type BenchContext } from "./bench-lib.ts";

/**
 * readTranscriptDigest on the big transcripts (32 MiB budget read backwards plus the head read):
 * the cost must not grow with the file. Bundled alone, so the row times the digest and node, not tsx.
 */
export async function benchDigest(ctx: BenchContext): Promise<void> {
  const bundle = path.join(ctx.work, "digest-bench.mjs");
  await build({
    entryPoints: [path.join(ctx.root, "scripts", "bench-digest-entry.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    minify: true,
    logLevel: "warning",
  });
  for (const label of ctx.sizes) {
    const transcript = ctx.makeTranscript(label);
    const job = { args: [bundle, transcript, "/home/USER/projects/spotter-worktrees/spotter-dov"] };
    const t = measure(job, ctx.runs);
    const counts = spawnSync(benchNode, job.args, { encoding: "utf8" }).stdout.trim();
    console.log(`${formatRow(`transcript digest ${label}`, t)}   ${counts}`);
  }
}
