import type { FsApi } from "../core/deps.ts";
import * as path from "node:path";
import { writeAtomic } from "../core/atomic-write.ts";
import { ensureDir } from "../core/memory-dir.ts";
import { readRange, withOpenFile } from "../core/file-range.ts";
import { utcIso } from "../core/time-format.ts";
import { appendByRule } from "../core/safe-file.ts";

export const RECENT_TAIL_BYTES = 32 * 1024;
/** Past this size the file is rewritten with its newest RECENT_TAIL_BYTES (whole lines). */
export const RECENT_CAP_BYTES = 2 * RECENT_TAIL_BYTES;
// A session's previous prompt is almost always among the last few lines: look there first.
const FIRST_LOOK_BYTES = 4 * 1024;

function tailOf(fs: FsApi, file: string, bytes: number): { text: string; whole: boolean } | null {
  return withOpenFile(fs, file, (fd, size) => {
    const start = Math.max(0, size - bytes);
    const text = readRange(fs, fd, start, size).toString("utf8");
    // Drop a partial first line when the read did not start at the beginning.
    return { text: start > 0 ? text.slice(text.indexOf("\n") + 1) : text, whole: start === 0 };
  });
}

/** The file's last `bytes`, cut at a line start; null when it is missing. */
export function readTail(fs: FsApi, file: string, bytes: number): string | null {
  return tailOf(fs, file, bytes)?.text ?? null;
}

/** `<ISO> | <sid>` -> when, for this sid; null for another session's line or a malformed one. */
function seenAt(raw: string, sid: string): Date | null {
  const line = raw.replace(/\r$/, "");
  const bar = line.indexOf(" | ");
  if (bar < 0 || line.slice(bar + 3).trim() !== sid) return null;
  const when = Date.parse(line.slice(0, bar).trim());
  return Number.isFinite(when) ? new Date(when) : null;
}

/** This session's newest (or, with `oldest`, oldest) line in the file's tail. */
export function lastSeen(fs: FsApi, file: string, sid: string, oldest = false): Date | null {
  for (const bytes of oldest ? [RECENT_TAIL_BYTES] : [FIRST_LOOK_BYTES, RECENT_TAIL_BYTES]) {
    const tail = tailOf(fs, file, bytes);
    if (!tail) return null;
    const lines = tail.text.split("\n");
    if (!oldest) lines.reverse();
    for (const line of lines) {
      const when = seenAt(line, sid);
      if (when) return when;
    }
    if (tail.whole) return null;
  }
  return null;
}

/**
 * One `<ISO UTC> | <sid>` line, appended with O_APPEND so concurrent sessions never clobber (the
 * prompt hook calls it only where the memory folder exists: a plain prompt creates nothing). Bounded: past
 * RECENT_CAP_BYTES the newest lines are kept and the file is replaced atomically (a line another
 * session appends in that instant may be lost: it only feeds the idle note).
 */
export function appendRecentSession(
  fs: FsApi,
  file: string,
  now: Date,
  sid: string,
  pid = 0,
): void {
  ensureDir(fs, path.dirname(file));
  // By the safe-file rule: a committed symlink (to ~/.bashrc, /dev/stdout) or FIFO here throws.
  appendByRule(fs, file, `${utcIso(now)} | ${sid}\n`);
  if (fs.lstatSync(file).size <= RECENT_CAP_BYTES) return;
  const kept = readTail(fs, file, RECENT_TAIL_BYTES);
  if (kept !== null) writeAtomic(fs, file, kept, { pid });
}
