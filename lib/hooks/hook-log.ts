import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { trashMove } from "../core/trash.ts";
import { ensureDir } from "../core/memory-dir.ts";
import { utcIso } from "../core/time-format.ts";

export const HOOK_LOG_CAP_BYTES = 256 * 1024;

/**
 * One line in memory/logs/hooks.log. Past the cap the old log moves to trash/ (nothing is
 * deleted). Never throws: logging must not turn a fail-open into a crash.
 */
export function appendHookLog(
  fs: FsApi,
  logFile: string,
  memoryDir: string,
  now: Date,
  line: string,
): void {
  try {
    ensureDir(fs, path.dirname(logFile));
    try {
      if (fs.statSync(logFile).size > HOOK_LOG_CAP_BYTES) trashMove(fs, logFile, memoryDir, now);
    } catch {
      // no log yet
    }
    const clean = line.replace(/[\r\n]+/g, " ").slice(0, 2000);
    fs.appendFileSync(logFile, `${utcIso(now)} ${clean}\n`);
  } catch {
    // nowhere left to report to
  }
}
