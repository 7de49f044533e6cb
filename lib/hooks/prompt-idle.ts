import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { formatDuration, utcIso } from "../core/time-format.ts";
import { trashIfPresent } from "../core/trash.ts";
import type { Utilization } from "../context/context-utilization.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { appendRecentSession, lastSeen } from "../store/recent-sessions.ts";
import { parseKeyValues, sentinelPath } from "../store/sentinels.ts";
import { idleText } from "./prompt-gate.ts";

// The prompt hook's step 0.7: each prompt recorded in recent-sessions where the memory folder
// exists, and a gap of over an hour since the session's previous prompt said once (left for the
// next prompt that gets a note when this one gets none).

const IDLE_GAP_MS = 60 * 60 * 1000;

export interface IdleGap {
  previousIso: string;
  gapMs: number;
}

/**
 * Step 0.7: where the memory folder already exists, record this prompt; a gap over an hour since
 * this session's previous line is returned. Elsewhere a plain prompt writes nothing.
 */
export function recordPrompt(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  now: Date,
): IdleGap | null {
  if (!deps.fs.existsSync(paths.memory)) return null;
  const previous = lastSeen(deps.fs, paths.recentSessions, sid);
  appendRecentSession(deps.fs, paths.recentSessions, now, sid, deps.pid);
  if (!previous || now.getTime() - previous.getTime() <= IDLE_GAP_MS) return null;
  return { previousIso: utcIso(previous), gapMs: now.getTime() - previous.getTime() };
}

/** A prompt that gets no note (exempt, or held) leaves the idle advisory for the session's next prompt. */
export function persistIdleGap(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  now: Date,
  gap: IdleGap | null,
): void {
  if (!gap) return;
  try {
    writeAtomic(
      deps.fs,
      sentinelPath(paths.memory, "idle-advisory-pending", sid),
      `${utcIso(now)}\nprevious_prompt_at=${gap.previousIso}\n`,
      { pid: deps.pid },
    );
  } catch {
    // the idle note is lost; the answer stands
  }
}

/** An idle advisory an earlier (exempt or held) prompt left: its text, read before the measure. */
export function pendingIdleAdvisory(deps: Deps, paths: MemoryPaths, sid: string): string | null {
  return readTextOrNull(deps.fs, sentinelPath(paths.memory, "idle-advisory-pending", sid));
}

export function consumeIdleAdvisory(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  now: Date,
  text: string,
  u: Utilization | null,
): string | null {
  try {
    trashIfPresent(
      deps.fs,
      sentinelPath(paths.memory, "idle-advisory-pending", sid),
      paths.memory,
      now,
    );
  } catch {
    // left in place: said again next time rather than never
  }
  const previousIso = parseKeyValues(text)["previous_prompt_at"] ?? "";
  const previous = Date.parse(previousIso);
  const detectedAt = Date.parse(text.split("\n")[0] ?? "");
  if (!Number.isFinite(previous) || !Number.isFinite(detectedAt)) return null;
  return idleText(detectedAt - previous, previousIso, u, formatDuration);
}
