import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { parseSentinelName, type SentinelFamily } from "./sentinels.ts";
import { listByMtime } from "../core/dir-listing.ts";

export interface SentinelFile {
  path: string;
  mtimeMs: number;
  family: SentinelFamily;
  /** "" for an orphan such as pending-restore-.txt */
  sid: string;
}

/**
 * Every sentinel in the memory folder, newest first, from one directory listing ([] when the folder
 * is missing). SessionStart takes it once and hands it to both the sweep and the banner.
 */
export function listSentinelFiles(fs: FsApi, memoryDir: string): SentinelFile[] {
  const out: SentinelFile[] = [];
  for (const f of listByMtime(fs, memoryDir, (name) => parseSentinelName(name) !== null)) {
    const parsed = parseSentinelName(path.basename(f.path));
    if (parsed) out.push({ path: f.path, mtimeMs: f.mtimeMs, ...parsed });
  }
  return out;
}
