import type { FsApi } from "./deps.ts";
import { readTail, RECENT_TAIL_BYTES } from "./recent-sessions.ts";

const HEAD_BYTES = 64 * 1024;

/** The first `"timestamp":"..."` in the transcript's head: when this session began. */
export function transcriptStart(fs: FsApi, transcript: string): Date | null {
  let fd: number;
  try {
    fd = fs.openSync(transcript, "r");
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    const m = /"timestamp"\s*:\s*"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z)"/.exec(buf.subarray(0, n).toString("utf8"));
    const when = m ? Date.parse(m[1]!) : NaN;
    return Number.isFinite(when) ? new Date(when) : null;
  } finally {
    fs.closeSync(fd);
  }
}

/** This session's oldest `<ISO> | <sid>` line in the tail of recent-sessions.md. */
export function firstSeen(fs: FsApi, recentSessions: string, sid: string): Date | null {
  const tail = readTail(fs, recentSessions, RECENT_TAIL_BYTES);
  if (!tail) return null;
  for (const raw of tail.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const bar = line.indexOf(" | ");
    if (bar < 0 || line.slice(bar + 3).trim() !== sid) continue;
    const when = Date.parse(line.slice(0, bar).trim());
    if (Number.isFinite(when)) return new Date(when);
  }
  return null;
}

/** When this session started, for "commits made this session": the transcript's first line, else recent-sessions.md. */
export function sessionStartTime(fs: FsApi, transcript: string | null, recentSessions: string, sid: string | null): Date | null {
  const fromTranscript = transcript ? transcriptStart(fs, transcript) : null;
  if (fromTranscript) return fromTranscript;
  return sid ? firstSeen(fs, recentSessions, sid) : null;
}
