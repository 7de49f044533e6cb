import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import type { InFlightScan } from "./artifact-scan.ts";

/** Seed 001's plan file: docs/plan.md when it exists, else the newest current-plan.md under .workflow_artifacts/. */
export function findPlanFile(fs: FsApi, root: string, scan: InFlightScan): string | null {
  const docsPlan = path.join(root, "docs", "plan.md");
  try {
    if (fs.statSync(docsPlan).isFile()) return docsPlan;
  } catch {
    // no docs/plan.md
  }
  return scan.currentPlan?.path ?? null;
}
