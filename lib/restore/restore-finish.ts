import type { Deps } from "../core/deps.ts";
import { isUsableSessionId, reduceTaskName } from "../core/ids.ts";
import { appendLedgerRow, ledgerRow } from "../store/cost-ledger.ts";
import { claimReplay } from "../store/prompt-claims.ts";
import { promptKey } from "./prompt-replay.ts";
import { checkpointIndex, sentinelTarget, toCandidate } from "./restore-candidates.ts";
import { cleanupAfterRestore } from "./restore-cleanup.ts";
import { recordReplayed } from "./restore-registries.ts";
import type { MemoryListing } from "./memory-listing.ts";
import type { Restored, RestoreRequest } from "./restore-outcome.ts";

// The end of a restore with every question answered: the held prompts claimed, the sentinels
// cleaned up (restore step 5), the replayed prompts recorded, the ledger row written (step 6).

/**
 * The checkpoint this session's own pending-restore names when it exists but Tier 1 could not parse
 * it (it fell through, so the user never saw it). NOTE: deviation: the seed's restore step 5 trashes this
 * session's sentinel on every successful restore; here it survives, as on the corrupt-file path.
 */
function ownSentinelUnparsed(snap: MemoryListing): string | null {
  if (!isUsableSessionId(snap.sessionId)) return null;
  const own = snap.pendingRestores.find((r) => r.sid === snap.sessionId);
  const target = own ? sentinelTarget(snap, checkpointIndex(snap), own) : null;
  return target && own && toCandidate(target, own.path) === null ? target.path : null;
}

/**
 * Restore step 5: sentinel cleanup (the six-path contract: which sentinel the pick consumed, if
 * any), then restore step 6: the ledger row.
 */
export function finishRestore(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  out: Restored,
): Restored {
  out.done = true;
  // Each held prompt is handed to one restore only, even when two run at once (prompt-claims.ts).
  if (out.prompts.case !== "A" && out.replay) {
    const mine = claimReplay(deps, out.prompts.source.file, out.replay, promptKey, req.sessionId);
    out.replay = { ...out.replay, replay: mine.replay, edit: mine.edit };
    if (mine.warning) out.warnings.push(mine.warning);
  }
  const unparsed = ownSentinelUnparsed(snap);
  if (unparsed)
    out.warnings.push(
      `[checkpoint] this session's pending-restore names ${unparsed}, which could not be parsed; the sentinel is kept`,
    );
  out.cleanup = cleanupAfterRestore(deps, req.paths, {
    sessionId: req.sessionId,
    keepOwn: unparsed !== null,
    consumedSentinelPath: out.consumedSentinel,
    pendingPromptFile:
      out.prompts.case !== "A" && out.replay?.trash ? out.prompts.source.file : null,
  });
  recordReplayed(deps, out);
  const task = reduceTaskName(out.summary?.task);
  try {
    out.ledger = appendLedgerRow(
      deps.fs,
      req.paths.root,
      task,
      ledgerRow(isUsableSessionId(req.sessionId) ? req.sessionId : null, deps.now(), "restore"),
    );
  } catch (err) {
    out.warnings.push(`[checkpoint] ledger row not written: ${(err as Error).message}`);
  }
  return out;
}
