import { readTextByRule } from "../core/file-range.ts";
import type { FsApi } from "../core/deps.ts";
import { mentionsSessionUuid } from "./session-state.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { listByMtime } from "../core/dir-listing.ts";
import { DAY_MS } from "../core/time-format.ts";

export interface LocatedSessionState {
  file: string | null;
  resolution: "uuid-anchor" | "mtime-fallback" | null;
  /** the seed's INFO and WARNING lines, ready to print */
  messages: string[];
}

const isSessionStateName = (name: string) =>
  name.endsWith(".md") && /^\d{4}-\d{2}-\d{2}-.+\.md$/.test(name);

/** The mtime fallback's bound: only a file changed within the last `windowDays` (QUOIN_SESSION_FALLBACK_WINDOW). */
export interface FallbackWindow {
  nowMs: number;
  windowDays: number;
}

/**
 * Save step 1.1: the session-state file by `Session UUID:` anchor, else the newest one within the
 * fallback window (by mtime), with the seed's warnings.
 */
export function locateSessionState(
  fs: FsApi,
  sessionsDir: string,
  sid: string | null | undefined,
  window?: FallbackWindow,
): LocatedSessionState {
  const files = listByMtime(fs, sessionsDir, isSessionStateName);
  const inWindow = window
    ? files.filter((f) => window.nowMs - f.mtimeMs < window.windowDays * DAY_MS)
    : files;
  const newest = inWindow[0]?.path ?? null;
  const outside =
    window && files.length > 0 && !newest
      ? [
          `[checkpoint] WARNING: no session-state file changed within QUOIN_SESSION_FALLBACK_WINDOW (${window.windowDays} days); none used`,
        ]
      : [];
  if (!isUsableSessionId(sid)) {
    return {
      file: newest,
      resolution: newest ? "mtime-fallback" : null,
      messages: [
        "[checkpoint] WARNING: session UUID unavailable; using mtime fallback",
        ...outside,
      ],
    };
  }
  const matches = files.filter((f) => {
    try {
      return mentionsSessionUuid(readTextByRule(fs, f.path), sid);
    } catch {
      return false;
    }
  });
  if (matches.length === 1) {
    return {
      file: matches[0]!.path,
      resolution: "uuid-anchor",
      messages: [`[checkpoint] session-state located by UUID anchor: ${matches[0]!.path}`],
    };
  }
  if (matches.length > 1) {
    return {
      file: matches[0]!.path,
      resolution: "uuid-anchor",
      messages: [
        `[checkpoint] WARNING: multiple session-state files match UUID '${sid}'; picked '${matches[0]!.path}' by mtime`,
      ],
    };
  }
  return {
    file: newest,
    resolution: newest ? "mtime-fallback" : null,
    messages: newest
      ? [
          `[checkpoint] WARNING: no session-state file contains Session UUID '${sid}'; falling back to mtime ordering`,
        ]
      : outside,
  };
}
