import * as path from "node:path";
import { ARTIFACTS_DIR_NAME, MEMORY_DIR_NAME } from "../core/memory-dir.ts";

/** Every path under <root>/.workflow_artifacts/ comes from here. */
export interface MemoryPaths {
  root: string;
  artifacts: string;
  memory: string;
  checkpoints: string;
  sessions: string;
  trash: string;
  recentSessions: string;
}

export function memoryPaths(root: string): MemoryPaths {
  const artifacts = path.join(root, ARTIFACTS_DIR_NAME);
  const memory = path.join(artifacts, MEMORY_DIR_NAME);
  return {
    root,
    artifacts,
    memory,
    checkpoints: path.join(memory, "checkpoints"),
    sessions: path.join(memory, "sessions"),
    trash: path.join(memory, "trash"),
    recentSessions: path.join(memory, "recent-sessions.md"),
  };
}

export function costLedgerPath(root: string, task: string): string {
  return path.join(root, ARTIFACTS_DIR_NAME, task, "cost-ledger.md");
}

/** True when `candidate` resolves to a file directly inside the checkpoints folder. */
export function isInsideCheckpoints(paths: MemoryPaths, candidate: string): boolean {
  if (!path.isAbsolute(candidate)) return false;
  const resolved = path.resolve(candidate);
  return path.dirname(resolved) === path.resolve(paths.checkpoints) && resolved.endsWith(".md");
}
