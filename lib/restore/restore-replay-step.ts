import type { Deps } from "../core/deps.ts";
import { readTextByRule } from "../core/file-range.ts";
import { allTakenLine, claimedBy } from "../store/prompt-claims.ts";
import {
  applyReplaySelection,
  classifyPendingPrompts,
  parseReplaySelection,
  promptKey,
  type PendingPromptSource,
} from "./prompt-replay.ts";
import { replayedPrompts } from "./restore-registries.ts";
import type { MemoryListing } from "./memory-listing.ts";
import type { Restored, RestoreRequest } from "./restore-outcome.ts";

// Restore step 4: the prompts a hook held (pending-prompt files) offered again, and the user's
// answer to "Replay which?" applied (prompt-replay.ts decides; this reads the files).

function readPendingPrompts(deps: Deps, snap: MemoryListing): PendingPromptSource[] {
  const out: PendingPromptSource[] = [];
  for (const p of snap.pendingPrompts) {
    try {
      out.push({
        file: p.path,
        sid: p.sid,
        mtimeMs: p.mtimeMs,
        text: readTextByRule(deps.fs, p.path),
      });
    } catch {
      // vanished or unreadable: nothing to replay from it
    }
  }
  return out;
}

/**
 * Fills `out.prompts` (CASE A: none to offer, B: this session's, C: another's) and, with an answer,
 * `out.replay`; without one, `replay` joins the questions. An answer that does not parse makes the
 * whole call invalid.
 */
export function replayStep(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  out: Restored,
  preferSid: string | null,
): { action: "invalid"; reason: string } | null {
  const files = readPendingPrompts(deps, snap);
  out.prompts = classifyPendingPrompts(
    files,
    req.sessionId,
    preferSid,
    (sid) => replayedPrompts(deps, sid),
    claimedBy(deps, promptKey),
  );
  if (out.prompts.case === "A") {
    const taken = allTakenLine(deps, files, preferSid, promptKey);
    if (taken) out.warnings.push(taken);
    return null;
  }
  if (req.replay === undefined) {
    out.needs.push("replay");
    return null;
  }
  const parsed = parseReplaySelection(req.replay);
  if (!parsed.ok) return { action: "invalid", reason: parsed.reason };
  const result = applyReplaySelection(out.prompts, parsed.selection);
  if (!result.ok) return { action: "invalid", reason: `--replay ${result.reason}` };
  out.replay = result;
  return null;
}
