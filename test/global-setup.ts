import { execFileSync } from "node:child_process";
import * as path from "node:path";

/** Integration and e2e tests run the built bundles: build once before any test file runs. */
export default function setup(): void {
  // NOTE: vitest runs a global setup once for the root and once per project (claude-2.1.197,
  // claude-2.1.332), all in this one process: build once.
  const once = globalThis as { quoinBuilt?: boolean };
  if (once.quoinBuilt) return;
  once.quoinBuilt = true;
  const root = path.resolve(import.meta.dirname, "..");
  execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
      path.join(root, "scripts", "build.ts"),
    ],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}
