import type { Deps } from "../core/deps.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import type { Knobs } from "../core/knobs.ts";
import { measureUtilization } from "../context/context-utilization.ts";
import { formatTokens, MAKE_WINDOW_KNOWN } from "../context/context-window.ts";
import { projectMemory } from "../store/project-root.ts";
import { readTail } from "../store/recent-sessions.ts";
import { transcriptPathFor } from "../store/session-id-resolve.ts";
import { isUsableSessionId } from "../core/ids.ts";

// `doctor`: which window each recent session of this project ran on, and where it came from. A
// session on the default guess gets a warning with the way to make its window known.

export interface WindowCheck {
  name: string;
  ok: boolean;
  warn?: boolean;
  detail: string;
  fix?: string;
}

const RECENT_SESSIONS_SHOWN = 5;

/** The newest distinct sessions in recent-sessions.md, newest first, with their last prompt time. */
function recentSessionIds(
  deps: Pick<Deps, "fs">,
  file: string,
  max: number,
): Array<{ sid: string; at: string }> {
  const lines = (readTail(deps.fs, file, 32 * 1024) ?? "").split("\n").reverse();
  const seen = new Map<string, string>();
  for (const line of lines) {
    const [at, sid] = line.split(" | ").map((s) => s.trim());
    if (!at || !isUsableSessionId(sid) || seen.has(sid)) continue;
    seen.set(sid, at);
    if (seen.size >= max) break;
  }
  return [...seen].map(([sid, at]) => ({ sid, at }));
}

/** `makeKnown`: the fix in this install's own words (window-advice.ts) */
export function windowSourceChecks(deps: Deps, knobs: Knobs, makeKnown?: string): WindowCheck[] {
  const paths = projectMemory(deps, deps.cwd);
  if (!paths) return [];
  const root = paths.root;
  const configDir = claudeConfigDir(deps.env, deps.home);
  const out: WindowCheck[] = [];
  for (const { sid, at } of recentSessionIds(deps, paths.recentSessions, RECENT_SESSIONS_SHOWN)) {
    const name = `window of session ${sid.slice(0, 8)} (last prompt ${at})`;
    const u = measureUtilization({
      deps,
      transcriptPath: transcriptPathFor(deps, root, sid),
      knobs,
      configDir,
      projectRoot: root,
      sessionId: sid,
    });
    if (!u) {
      out.push({
        name,
        ok: true,
        detail: "transcript not found (started in another folder, or removed)",
      });
      continue;
    }
    const detail = `${formatTokens(u.window)} from ${u.windowSource} (${u.windowFrom}); 100% = ${formatTokens(u.limit)}`;
    if (u.windowKnown) out.push({ name, ok: true, detail });
    else
      out.push({
        name,
        ok: true,
        warn: true,
        detail: `${detail}: a guess, so a prompt past the limit is only warned about, never held back`,
        fix: makeKnown ?? MAKE_WINDOW_KNOWN,
      });
  }
  return out;
}
