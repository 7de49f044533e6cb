import type { FsApi } from "../core/deps.ts";
import { readHead } from "../core/file-range.ts";
import { lastSeen } from "./recent-sessions.ts";

const HEAD_BYTES = 64 * 1024;

/** The first `"timestamp":"..."` in the transcript's head: when this session began. */
function transcriptStart(fs: FsApi, transcript: string): Date | null {
  const head = readHead(fs, transcript, HEAD_BYTES);
  const m =
    head === null ? null : /"timestamp"\s*:\s*"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z)"/.exec(head);
  const when = m ? Date.parse(m[1]!) : NaN;
  return Number.isFinite(when) ? new Date(when) : null;
}

/** When this session started, for "commits made this session": the transcript's first line, else recent-sessions.md. */
export function sessionStartTime(
  fs: FsApi,
  transcript: string | null,
  recentSessions: string,
  sid: string | null,
): Date | null {
  const fromTranscript = transcript ? transcriptStart(fs, transcript) : null;
  if (fromTranscript) return fromTranscript;
  return sid ? lastSeen(fs, recentSessions, sid, true) : null;
}
