import { withFrozenClock, type Deps } from "../core/deps.ts";
import { isUsableSessionId } from "../core/ids.ts";
import type { Knobs } from "../core/knobs.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { findMidAgentHandoff } from "../store/mid-agent-handoff.ts";
import { CHECKPOINT_WINDOW_DAYS } from "./restore-candidates.ts";
import { numberedList, pickRestore } from "./restore-picker.ts";
import { pickFastPath } from "./picker-tiers.ts";
import { pickerSettings, type PickerDecision, type PickerSettings } from "./picker-decision.ts";
import { buildMemoryListing, type MemoryListing } from "./memory-listing.ts";
import { declinedSyntheses } from "./restore-registries.ts";
import { openRestored, restoreCheckpoint, synthesisSummary } from "./restore-read.ts";
import { replayStep } from "./restore-replay-step.ts";
import { finishRestore } from "./restore-finish.ts";
import {
  NO_SURROUNDINGS,
  type RestoreDecision,
  type RestoreOutcome,
  type RestoreRequest,
  type Restored,
} from "./restore-outcome.ts";
import { markRunningSessions } from "./running-sessions.ts";

// Restore end to end, computed (the words are brief/'s): the picker, then for what it chose the
// read (restore-read.ts), the replay of held prompts (restore-replay-step.ts) and the cleanup and
// ledger (restore-finish.ts); the questions still open stop it before the cleanup.

/** `--pick N` past the local candidates: the shared checkpoint the picker numbered N, as its `sN`. */
function sharedAlias(req: RestoreRequest, snap: MemoryListing, s: PickerSettings): string | null {
  if (req.pick === undefined || !req.sharedSource) return null;
  const local = numberedList(snap, s).length;
  if (req.pick <= local) return null;
  return req.pick - local <= req.sharedSource.list().length ? `s${req.pick - local}` : null;
}

type Picked =
  | { decision: PickerDecision; snap: MemoryListing }
  | { sharedAlias: string; snap: MemoryListing };

/**
 * Restore step 1 (the picker): Tier 1 (this session's own pending-restore) on a first listing of that sentinel alone, else the
 * full picker; the full listing is built once, and a pick past its candidates names a shared one.
 */
function pick(deps: Deps, knobs: Knobs, req: RestoreRequest): Picked {
  const now = deps.now();
  const answered = req.pick !== undefined || req.synthesize === true;
  // The common Tier 1 case returns without enumeration: when this session has a pending-restore,
  // a first listing reads only the checkpoint it names; the full one is built only if Tier 1 fails.
  const ownSentinel =
    isUsableSessionId(req.sessionId) &&
    deps.fs.existsSync(sentinelPath(req.paths.memory, "pending-restore", req.sessionId));
  if (ownSentinel && !answered) {
    const snap = buildMemoryListing(deps.fs, req.paths, req.sessionId, now, {
      checkpointWindowDays: 0,
      ownSentinelOnly: true,
    });
    const decision = pickFastPath(snap);
    if (decision) return { decision, snap };
  }
  const settings = pickerSettings(knobs);
  const snap = buildMemoryListing(deps.fs, req.paths, req.sessionId, now, {
    // an explicit pick may name any file `list` numbers: every head is read (the head cache holds them)
    checkpointWindowDays:
      req.pick === undefined ? CHECKPOINT_WINDOW_DAYS : Number.POSITIVE_INFINITY,
    sentinelWindowDays: settings.sentinelWindowDays,
    headCachePid: deps.pid,
  });
  const alias = sharedAlias(req, snap, settings);
  if (alias) return { sharedAlias: alias, snap };
  const declinedB3 = declinedSyntheses(deps, req, snap, settings);
  return {
    decision: pickRestore(snap, settings, {
      pick: req.pick,
      synthesize: req.synthesize,
      declinedB3,
    }),
    snap,
  };
}

/** Restore mode end to end: picker, restore steps 1.5 and 2, reconciliation, step 4 replay, step 5 cleanup, step 6 ledger. */
function decide(deps: Deps, knobs: Knobs, req: RestoreRequest): Decided {
  const picked = pick(deps, knobs, req);
  if ("sharedAlias" in picked) return adoptAndRestore(deps, knobs, req, picked.sharedAlias);
  return { decision: decidePicked(deps, req, picked), adopted: null };
}

type Decided = { decision: RestoreDecision; adopted: string | null };

function decidePicked(
  deps: Deps,
  req: RestoreRequest,
  { decision, snap }: { decision: PickerDecision; snap: MemoryListing },
): RestoreDecision {
  if (decision.action === "invalid" || decision.action === "choose" || decision.action === "none")
    return decision;
  if (decision.action === "synthesize" && !decision.confirmed) return decision;

  let out: Restored;
  let preferSid: string | null = null;
  if (decision.action === "synthesize") {
    // Synthesis from a session-state file consumes no sentinel; current-session cleanup still runs.
    out = openRestored(decision.path, decision.warnings, { case: "A" });
    out.summary = synthesisSummary(decision.synthesis);
    out.warnings.push("[checkpoint] no in-flight artifacts to re-fire (session-state synthesis)");
  } else {
    ({ out, preferSid } = restoreCheckpoint(deps, req, snap, decision));
    if (out.corrupt) return out;
  }
  out.rerun = req.synthesize
    ? ["--synthesize"]
    : req.pick !== undefined
      ? ["--pick", String(req.pick)]
      : [];
  if (out.sameSession && !req.proceed) out.needs.push("same-session");
  const invalid = replayStep(deps, req, snap, out, preferSid);
  if (invalid) return invalid;
  if (out.needs.length > 0) return out;
  return finishRestore(deps, req, snap, out);
}

/**
 * `--shared sN` (or a pick past the local rows): the shared checkpoint copied here and named by
 * this session's own sentinel, then restored by Tier 1 (the picker's look at that sentinel); a picked shared checkpoint asks no
 * same-session question.
 */
function adoptAndRestore(deps: Deps, knobs: Knobs, req: RestoreRequest, arg: string): Decided {
  const refused = (reason: string, expected: string): Decided => ({
    decision: { action: "invalid", reason, expected },
    adopted: null,
  });
  if (!isUsableSessionId(req.sessionId) || !req.sharedSource)
    return refused(
      "restore --shared needs this session's id",
      "--session ID (the skill passes it)",
    );
  const adopted = req.sharedSource.adopt(arg, req.sessionId);
  if (!adopted.ok) return refused(adopted.reason, adopted.expected);
  const { decision } = decide(deps, knobs, {
    ...req,
    pick: undefined,
    shared: undefined,
    proceed: true,
    sharedSource: undefined,
  });
  return { decision, adopted: adopted.file };
}

/** One restore, computed: the decision, running sessions marked, and what was found around it. */
export function runRestore(rawDeps: Deps, knobs: Knobs, req: RestoreRequest): RestoreOutcome {
  // The clock is read once per restore (see withFrozenClock).
  const deps = withFrozenClock(rawDeps);
  const { decision, adopted } = req.shared
    ? adoptAndRestore(deps, knobs, req, req.shared)
    : decide(deps, knobs, req);
  const marked = req.running ? markRunningSessions(decision, req.sessionId, req.running) : decision;
  const offered =
    marked.action === "choose" || marked.action === "synthesize"
      ? (req.sharedSource?.list() ?? [])
      : [];
  return {
    ...marked,
    ...NO_SURROUNDINGS,
    midAgentHandoff: findMidAgentHandoff(
      deps.fs,
      req.paths.memory,
      req.sessionId,
      deps.now().getTime(),
      knobs.QUOIN_RESTORE_SENTINEL_WINDOW,
    ),
    offeredShared: offered,
    sharedHint: marked.action === "none" ? sharedHint(req) : null,
    adoptedShared: adopted,
  };
}

/** With nothing to pick: the shared checkpoints fetched here, else whether the remote holds some. */
function sharedHint(req: RestoreRequest): RestoreOutcome["sharedHint"] {
  const source = req.sharedSource;
  if (!source) return null;
  const fetched = source.list().length;
  if (fetched > 0) return { fetched };
  const remote = source.remoteHolding();
  return remote ? { remote } : null;
}
