import { execFileSync } from "node:child_process";
import * as path from "node:path";

/** Integration and e2e tests run the built bundles: build once before any test file runs. */
export default function setup(): void {
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
