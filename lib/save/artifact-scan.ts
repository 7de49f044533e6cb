import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import type { FoundFile } from "../core/dir-listing.ts";

export interface InFlightScan {
  currentPlan: FoundFile | null;
  architecture: FoundFile | null;
  criticResponse: FoundFile | null;
  review: FoundFile | null;
}

const SKIP_DIRS = new Set(["memory", "trash", "node_modules", ".git"]);
const MAX_ENTRIES = 5000;
const MAX_DEPTH = 6;

function newer(a: FoundFile | null, b: FoundFile): FoundFile {
  return !a || b.mtimeMs > a.mtimeMs ? b : a;
}

/**
 * One bounded walk of .workflow_artifacts/ for the in-flight artifacts the seed names: the newest
 * current-plan.md and architecture.md, and the highest-numbered critic-response-N.md and review-N.md.
 * Paths only; nothing is read.
 */
export function scanInFlightArtifacts(fs: FsApi, artifactsDir: string): InFlightScan {
  const out: InFlightScan = {
    currentPlan: null,
    architecture: null,
    criticResponse: null,
    review: null,
  };
  let criticN = -1;
  let reviewN = -1;
  let seen = 0;
  const walk = (dir: string, depth: number) => {
    if (depth > MAX_DEPTH || seen > MAX_ENTRIES) return;
    let entries: import("node:fs").Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > MAX_ENTRIES) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(full, depth + 1);
        continue;
      }
      if (!entry.isFile()) continue;
      const critic = /^critic-response-(\d+)\.md$/.exec(entry.name);
      const review = /^review-(\d+)\.md$/.exec(entry.name);
      if (
        entry.name !== "current-plan.md" &&
        entry.name !== "architecture.md" &&
        !critic &&
        !review
      )
        continue;
      let mtimeMs = 0;
      try {
        mtimeMs = fs.statSync(full).mtimeMs;
      } catch {
        continue;
      }
      const found = { path: full, mtimeMs };
      if (entry.name === "current-plan.md") out.currentPlan = newer(out.currentPlan, found);
      else if (entry.name === "architecture.md") out.architecture = newer(out.architecture, found);
      else if (critic) {
        const n = Number(critic[1]);
        if (n > criticN || (n === criticN && mtimeMs > (out.criticResponse?.mtimeMs ?? 0))) {
          criticN = n;
          out.criticResponse = found;
        }
      } else if (review) {
        const n = Number(review[1]);
        if (n > reviewN || (n === reviewN && mtimeMs > (out.review?.mtimeMs ?? 0))) {
          reviewN = n;
          out.review = found;
        }
      }
    }
  };
  walk(artifactsDir, 0);
  return out;
}
