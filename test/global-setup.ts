import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * Integration and e2e tests run the built bundles: build once before any test file runs
 * (QUOIN_NO_BUILD=1 skips it: `npm run test:fast` runs only tests that need no bundle).
 *
 * Every test file runs with TMPDIR set to one folder of this run's own, so the suite's scratch
 * folders cannot mix with anything else on the machine; at the end that folder must be empty
 * (each test removes what it made), else the run fails and names what was left.
 */
export default function setup(): (() => void) | undefined {
  // NOTE: vitest runs a global setup once for the root and once per project (claude-2.1.197,
  // claude-2.1.332), all in this one process: do this once.
  const once = globalThis as { quoinSetUp?: boolean };
  if (once.quoinSetUp) return undefined;
  once.quoinSetUp = true;
  const root = path.resolve(import.meta.dirname, "..");
  if (!process.env["QUOIN_NO_BUILD"]) {
    execFileSync(
      process.execPath,
      [
        path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
        path.join(root, "scripts", "build.ts"),
      ],
      { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  const runTmp = mkdtempSync(path.join(os.tmpdir(), "quoin-test-run-"));
  process.env["TMPDIR"] = runTmp;
  return () => {
    // Not the tests' own: tsx's compile cache (<tmp>/tsx-<uid>, tests that start install.ts through
    // tsx), the real Claude Code client's scratch folders (<tmp>/claude-<uid>, <tmp>/cc-socks) and
    // Node 22+'s own compile cache (<tmp>/node-compile-cache, made by tools the tests start).
    const left = readdirSync(runTmp).filter(
      (name) => !/^(tsx-\d+|claude-\d+|cc-socks|node-compile-cache)$/.test(name),
    );
    if (process.env["QUOIN_KEEP_TEST_DIRS"]) return;
    rmSync(runTmp, { recursive: true, force: true });
    if (left.length === 0) return;
    // NOTE: vitest reports an error thrown here but still exits 0, so the exit code is set too.
    process.exitCode = 1;
    throw new Error(
      `the tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} in the temp folder (each test removes what it makes): ${left.slice(0, 12).join(", ")}`,
    );
  };
}
