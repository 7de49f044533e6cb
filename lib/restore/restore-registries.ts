import type { Deps } from "../core/deps.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { listRegistry, readRegistry, writeRegistry } from "../store/session-registry.ts";
import { freshestSessionState } from "./restore-gate.ts";
import { b3Key, type PickerSettings } from "./picker-decision.ts";
import { promptKey } from "./prompt-replay.ts";
import type { MemoryListing } from "./memory-listing.ts";
import type { Restored, RestoreRequest } from "./restore-outcome.ts";

// What restore remembers across runs, outside the repository (the session registry under the
// user's config): the session-state syntheses the user declined, and the prompts of another
// session's file that a restore already replayed. Both are best effort.

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((k): k is string => typeof k === "string") : [];

/**
 * B3 offers the user declined, from every session (registry kind "b3-declined"); with
 * `declineSynthesis` this answer is recorded first, for the file the offer was about.
 */
export function declinedSyntheses(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  s: PickerSettings,
): Set<string> {
  const config = claudeConfigDir(deps.env, deps.home);
  const keys = new Set<string>();
  for (const sid of listRegistry(deps, config, "b3-declined")) {
    for (const k of strings(readRegistry(deps, config, "b3-declined", sid)?.["files"])) keys.add(k);
  }
  const source = req.declineSynthesis ? freshestSessionState(snap, s.fallbackWindowDays) : null;
  if (source) {
    const key = b3Key(source.path, source.mtimeMs);
    keys.add(key);
    const owner = isUsableSessionId(req.sessionId) ? req.sessionId : "unknown-session";
    const mine = strings(readRegistry(deps, config, "b3-declined", owner)?.["files"]);
    const files = [...new Set([...mine, key])].slice(-50);
    try {
      writeRegistry(deps, config, "b3-declined", owner, { files });
    } catch {
      // not recorded: the offer may come again next time; this run still skips it
    }
  }
  return keys;
}

/**
 * Prompts of another session's file that an earlier CASE C (another session's prompts) restore
 * replayed (registry kind "replayed").
 */
export function replayedPrompts(deps: Deps, sid: string): Set<string> {
  if (!isUsableSessionId(sid)) return new Set();
  const rec = readRegistry(deps, claudeConfigDir(deps.env, deps.home), "replayed", sid);
  return new Set(strings(rec?.["prompts"]));
}

/**
 * After a CASE C replay the other session's file stays (it is not this session's to consume), so
 * what was replayed is recorded outside the repository and not offered again. Best effort.
 */
export function recordReplayed(deps: Deps, out: Restored): void {
  if (out.prompts.case !== "C" || !out.replay || out.replay.trash) return;
  const sid = out.prompts.source.sid;
  const done = [...out.replay.replay, ...(out.replay.edit ? [out.replay.edit] : [])].map(promptKey);
  if (done.length === 0 || !isUsableSessionId(sid)) return;
  try {
    const prompts = [...new Set([...replayedPrompts(deps, sid), ...done])].slice(-200);
    writeRegistry(deps, claudeConfigDir(deps.env, deps.home), "replayed", sid, { prompts });
  } catch (err) {
    out.warnings.push(
      `[checkpoint] could not record the replayed prompts: ${(err as Error).message}`,
    );
  }
}
