import { isUsableSessionId } from "../core/ids.ts";
import {
  CHECKPOINT_WINDOW_DAYS,
  enumerateCandidates,
  notOffered,
  type Candidate,
} from "./restore-candidates.ts";
import { damageNote } from "./checkpoint-damage.ts";
import { b3Trigger, gateFor, gateNote, gateWarning } from "./restore-gate.ts";
import type { MemoryListing } from "./memory-listing.ts";
import { DAY_MS } from "../core/time-format.ts";
import {
  chooseOf,
  restoreOf,
  type ContractPath,
  type ListedCandidate,
  type PickerAnswers,
  type PickerDecision,
  type PickerSettings,
} from "./picker-decision.ts";
import { routeToB3, tier1, tier2 } from "./picker-tiers.ts";

// The restore picker (seed restore step 1): a pure decision over a listing of the memory folder.
// Tier 1, Tier 2 and Tier 4 (B3) are in picker-tiers.ts, Tier 3's enumeration in
// restore-candidates.ts; here they run in order, and a numbered pick overrides them.

function listed(
  snap: MemoryListing,
  candidates: readonly Candidate[],
  anchorTask: string,
  s: PickerSettings,
): ListedCandidate[] {
  const gateOf = gateFor(snap, anchorTask, s.staleDays);
  return candidates.map((c, i) => {
    const gate = gateOf(c);
    return { ...c, n: i + 1, gate, note: c.damage ? damageNote(c.damage) : gateNote(gate) };
  });
}

/** Why a file numbered after the candidates is not offered by itself. */
function notOfferedNote(snap: MemoryListing, c: Candidate): string {
  if (c.damage) return damageNote(c.damage);
  return snap.nowMs - c.mtimeMs >= CHECKPOINT_WINDOW_DAYS * DAY_MS
    ? `older than ${CHECKPOINT_WINDOW_DAYS} days`
    : "kept beside a newer save of its session";
}

/** The whole numbering `list` shows and `--pick` takes: the candidates, then every other checkpoint file. */
export function numberedList(
  snap: MemoryListing,
  s: PickerSettings,
  anchorTask = "",
): ListedCandidate[] {
  const e = enumerateCandidates(snap, {
    sentinelWindowDays: s.sentinelWindowDays,
    dedupWindowDays: s.dedupWindowDays,
  });
  const list = listed(snap, e.candidates, anchorTask, s);
  const gateOf = gateFor(snap, anchorTask, s.staleDays);
  const rest = notOffered(snap, e.candidates).map((c, i) => ({
    ...c,
    n: list.length + i + 1,
    gate: gateOf(c),
    note: notOfferedNote(snap, c),
  }));
  return [...list, ...rest];
}

function sessionMismatch(snap: MemoryListing, c: Candidate): string[] {
  if (!isUsableSessionId(snap.sessionId) || !c.sessionId || c.sessionId === snap.sessionId)
    return [];
  return [
    `[checkpoint] note: checkpoint saved in session ${c.sessionId.slice(0, 8)}; this is session ${snap.sessionId.slice(0, 8)}`,
  ];
}

/** Restore a listed candidate (paths 3/3a and 4/4a): its sentinel, if any, is the consumed one. */
function restoreListed(
  snap: MemoryListing,
  c: Candidate,
  path: ContractPath,
  warnings: string[],
  list: ListedCandidate[],
): PickerDecision {
  return restoreOf(c, path, {
    consumed: c.sentinel ?? "",
    warnings: [...warnings, ...sessionMismatch(snap, c)],
    list,
  });
}

/** A numbered pick (paths 4 and 4a): the user's explicit choice overrides the gate. */
function pickChosen(
  snap: MemoryListing,
  pick: number,
  enumerated: { list: ListedCandidate[]; messages: string[] },
): PickerDecision {
  const { list, messages } = enumerated;
  const chosen = list[pick - 1];
  if (!Number.isInteger(pick) || !chosen) {
    return {
      action: "invalid",
      reason: `--pick ${pick}: expected a number from 1 to ${list.length} (see the list)`,
    };
  }
  const warnings = [
    ...messages,
    ...(chosen.note ? [`[checkpoint] picked despite: ${chosen.note}`] : []),
  ];
  return restoreListed(snap, chosen, chosen.source === "sentinel" ? "4" : "4a", warnings, list);
}

/** The picker's decision over a listing: the tiers in order, unless the user already answered. */
export function pickRestore(
  snap: MemoryListing,
  s: PickerSettings,
  answers: PickerAnswers = {},
): PickerDecision {
  const enumerate = (anchorTask: string) => {
    const e = enumerateCandidates(snap, {
      sentinelWindowDays: s.sentinelWindowDays,
      dedupWindowDays: s.dedupWindowDays,
    });
    return { list: listed(snap, e.candidates, anchorTask, s), messages: e.messages };
  };
  const t = tierDecision(snap, s, answers, enumerate);
  // choose and synthesize menus number shared checkpoints after every local file (`list`'s count)
  if (t.action !== "choose" && t.action !== "synthesize") return t;
  return { ...t, numbered: t.list.length + notOffered(snap, t.list).length };
}

function tierDecision(
  snap: MemoryListing,
  s: PickerSettings,
  answers: PickerAnswers,
  enumerate: (anchorTask: string) => { list: ListedCandidate[]; messages: string[] },
): PickerDecision {
  if (answers.synthesize) return routeToB3(snap, s, "requested", answers, [], enumerate("").list);

  // The user's explicit choice overrides the gate (paths 4 and 4a).
  if (answers.pick !== undefined) {
    const anchorTask = tier2(snap, s).anchorTask;
    const { messages } = enumerate(anchorTask);
    return pickChosen(snap, answers.pick, { list: numberedList(snap, s, anchorTask), messages });
  }

  const t1 = tier1(snap);
  // a damaged checkpoint named by this session's sentinel: shown as it is, the others listed
  if (t1?.passed && t1.decision.action === "restore" && t1.decision.candidate.damage)
    return { ...t1.decision, list: enumerate("").list };
  if (t1?.passed) return t1.decision;
  if (t1) return routeToB3(snap, s, "tier1-cross-task", answers, t1.warnings, enumerate("").list);

  // Tier 2: pending-prompt cross-reference.
  const t2 = tier2(snap, s);
  if (t2.anchor) return restoreOf(t2.anchor, "tier2", { consumed: t2.anchor.sentinel ?? "" });

  // Tier 3: full enumeration, then the B3 trigger (clause A: no candidate; clause B: all older than
  // the freshest session-state file), then the normal picker; a damaged checkpoint is listed
  // (marked), never picked by itself.
  const { list, messages } = enumerate(t2.anchorTask);
  const warnings = [...t2.warnings, ...messages];
  const healthy = list.filter((c) => !c.damage);
  for (const c of list)
    if (c.damage)
      warnings.push(`[checkpoint] ${c.file} is ${damageNote(c.damage)}: not restored by itself`);
  const trigger = b3Trigger(snap, healthy, s.fallbackWindowDays);
  if (trigger.fires)
    return routeToB3(
      snap,
      s,
      trigger.clause === "A" ? "clause-A" : "clause-B",
      answers,
      warnings,
      list,
    );

  if (healthy.length === 1) {
    const only = healthy[0]!;
    if (only.gate.suppressed)
      return routeToB3(
        snap,
        s,
        "gate",
        answers,
        [...warnings, ...gateWarning(only, only.gate, s.staleDays)],
        list,
      );
    return restoreListed(snap, only, only.source === "sentinel" ? "3" : "3a", warnings, list);
  }
  return chooseOf("multiple", list, warnings);
}

/**
 * Restore step 1.5 same-session detection: true only when the checkpoint's Session ID equals this session's
 * and no compaction happened since (compact-happened exempts: the context is already clear).
 */
export function isSameSession(
  snap: MemoryListing,
  checkpointSessionId: string | null | undefined,
): boolean {
  if (snap.compactHappened) return false;
  if (!isUsableSessionId(checkpointSessionId) || !isUsableSessionId(snap.sessionId)) return false;
  return checkpointSessionId === snap.sessionId;
}
