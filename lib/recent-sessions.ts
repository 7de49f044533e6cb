import * as path from "node:path";
import type { FsApi } from "./deps.ts";
import { readRange, withOpenFile } from "./file-range.ts";
import { utcIso } from "./time-format.ts";

export const RECENT_TAIL_BYTES = 32 * 1024;

/** Read at most the last `bytes` of a file (the whole file when smaller). */
export function readTail(fs: FsApi, file: string, bytes: number): string | null {
  return withOpenFile(fs, file, (fd, size) => {
    const start = Math.max(0, size - bytes);
    const text = readRange(fs, fd, start, size).toString("utf8");
    // Drop a partial first line when the read did not start at the beginning.
    return start > 0 ? text.slice(text.indexOf("\n") + 1) : text;
  });
}

/** This session's newest `<ISO> | <sid>` line in the file's tail. */
export function lastSeen(fs: FsApi, file: string, sid: string): Date | null {
  const tail = readTail(fs, file, RECENT_TAIL_BYTES);
  if (!tail) return null;
  const lines = tail.split("\n");
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = (lines[i] ?? "").replace(/\r$/, "");
    const bar = line.indexOf(" | ");
    if (bar < 0 || line.slice(bar + 3).trim() !== sid) continue;
    const when = Date.parse(line.slice(0, bar).trim());
    if (Number.isFinite(when)) return new Date(when);
  }
  return null;
}

/** One `<ISO UTC> | <sid>` line, appended with O_APPEND so concurrent sessions never clobber. */
export function appendRecentSession(fs: FsApi, file: string, now: Date, sid: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${utcIso(now)} | ${sid}\n`);
}
