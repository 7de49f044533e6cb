import type { FsApi } from "../core/deps.ts";
import { mentionsSessionUuid } from "./session-state.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { listByMtime } from "../core/dir-listing.ts";

export interface LocatedSessionState {
  file: string | null;
  resolution: "uuid-anchor" | "mtime-fallback" | null;
  /** the seed's INFO and WARNING lines, ready to print */
  messages: string[];
}

const isSessionStateName = (name: string) =>
  name.endsWith(".md") && /^\d{4}-\d{2}-\d{2}-.+\.md$/.test(name);

/** Save step 1.1: the session-state file by `Session UUID:` anchor, else by mtime, with the seed's warnings. */
export function locateSessionState(
  fs: FsApi,
  sessionsDir: string,
  sid: string | null | undefined,
): LocatedSessionState {
  const files = listByMtime(fs, sessionsDir, isSessionStateName);
  const newest = files[0]?.path ?? null;
  if (!isUsableSessionId(sid)) {
    return {
      file: newest,
      resolution: newest ? "mtime-fallback" : null,
      messages: ["[checkpoint] WARNING: session UUID unavailable; using mtime fallback"],
    };
  }
  const matches = files.filter((f) => {
    try {
      return mentionsSessionUuid(fs.readFileSync(f.path, "utf8"), sid);
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
      : [],
  };
}
