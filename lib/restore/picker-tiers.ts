import { b3Offer, synthesizeFromSessionState } from "./b3-synthesis.ts";
import { isUsableSessionId } from "../core/ids.ts";
import {
  checkpointIndex,
  sentinelTarget,
  toCandidate,
  type Candidate,
} from "./restore-candidates.ts";
import { freshestSessionState, freshestTask, sameTask } from "./restore-gate.ts";
import type { MemoryListing } from "./memory-listing.ts";
import { mentionsSessionUuid, taskFromSessionFileName } from "../store/session-state.ts";
import { DAY_MS } from "../core/time-format.ts";
import { compareNames } from "../core/dir-listing.ts";
import {
  b3Key,
  chooseOf,
  restoreOf,
  type B3Route,
  type ListedCandidate,
  type PickerAnswers,
  type PickerDecision,
  type PickerSettings,
} from "./picker-decision.ts";

// The picker's tiers but the third (the full enumeration, restore-candidates.ts): Tier 1, this
// session's own pending-restore; Tier 2, the session of a held prompt; Tier 4, the session-state
// (B3) synthesis. restore-picker.ts runs them in order.

type Tier1 =
  | { passed: true; decision: Extract<PickerDecision, { action: "restore" }> }
  | { passed: false; warnings: string[] }
  | null;

/**
 * Tier 1: current-session pending-restore sentinel, cross-task guard, no staleness check. Skipped
 * for "" and "unknown". A damaged checkpoint passes (it is shown as it is, never swapped).
 */
export function tier1(snap: MemoryListing): Tier1 {
  if (!isUsableSessionId(snap.sessionId)) return null;
  const own = snap.pendingRestores.find((r) => r.sid === snap.sessionId);
  const target = own ? sentinelTarget(snap, checkpointIndex(snap), own) : null;
  const candidate = target && own ? toCandidate(target, own.path) : null;
  // Missing file, untrusted path or unparseable `task` section: fall through to Tier 2/3.
  if (!candidate) return null;
  // The Tier 2 anchor task is not set yet here: freshest_task comes from sessions/*.md only.
  const task = candidate.damage ? "" : freshestTask(snap, "");
  if (task !== "" && !sameTask(candidate.task, task)) {
    return {
      passed: false,
      warnings: [
        "[checkpoint] WARNING: auto-pick suppressed.",
        `  Cross-task: fast-path candidate task='${candidate.task}' vs freshest session task='${task}'.`,
        "  Routing to session-state synthesis (B3).",
      ],
    };
  }
  return { passed: true, decision: restoreOf(candidate, "1") };
}

/**
 * Tier 1 alone, for a listing without enumeration: the restore when the current-session
 * sentinel passes the cross-task guard, else null (run the full picker).
 */
export function pickFastPath(snap: MemoryListing): PickerDecision | null {
  const t1 = tier1(snap);
  // a damaged checkpoint is shown with the others listed: the full listing is needed
  return t1?.passed && t1.decision.candidate.damage === undefined ? t1.decision : null;
}

/**
 * Tier 2: pending-prompt cross-reference, freshest first. Returns an anchor or the task to seed the gate.
 * NOTE: deviation: the seed returns the anchor unchecked. The block tier writes both sentinels, so a
 * days-old blocked session of another task would be auto-picked (the incident); the anchor gets
 * Tier 1's cross-task guard (no staleness check) and, when it fails, is left to Tier 3's gate.
 */
export function tier2(
  snap: MemoryListing,
  s: PickerSettings,
): { anchor: Candidate | null; anchorTask: string; warnings: string[] } {
  const index = checkpointIndex(snap);
  const prompts = snap.pendingPrompts
    .filter((p) => snap.nowMs - p.mtimeMs < s.sentinelWindowDays * DAY_MS)
    .sort((a, b) => b.mtimeMs - a.mtimeMs || compareNames(b.name, a.name));
  const statesByMtime = [...snap.sessionStates].sort(
    (a, b) => b.mtimeMs - a.mtimeMs || compareNames(b.name, a.name),
  );
  const currentTask = freshestTask(snap, "");
  const warnings: string[] = [];
  let anchorTask = "";
  for (const prompt of prompts) {
    const restore =
      prompt.sid === "" ? undefined : snap.pendingRestores.find((r) => r.sid === prompt.sid);
    const target = restore ? sentinelTarget(snap, index, restore) : null;
    const found = target && restore ? toCandidate(target, restore.path) : null;
    const anchor = found?.damage ? null : found;
    // Strongest: both hook sentinels present for this session id.
    if (anchor && (currentTask === "" || sameTask(anchor.task, currentTask)))
      return { anchor, anchorTask, warnings };
    if (anchor) {
      warnings.push(
        "[checkpoint] WARNING: auto-pick suppressed.",
        `  Cross-task: Tier 2 anchor task='${anchor.task}' vs freshest session task='${currentTask}'.`,
      );
    }
    if (anchorTask === "" && statesByMtime.length > 0) {
      // Session UUID grep, else the newest session-state file (mtime heuristic).
      const implied =
        (prompt.sid !== "" &&
          statesByMtime.find((st) => mentionsSessionUuid(st.text, prompt.sid))) ||
        statesByMtime[0]!;
      anchorTask = taskFromSessionFileName(implied.name);
    }
    // Do not stop: keep scanning for a stronger (anchor) candidate.
  }
  return { anchor: null, anchorTask, warnings };
}

/**
 * Tier 4: B3 (session-state) synthesis from the freshest session-state within the fallback window;
 * else the list, else nothing.
 */
export function routeToB3(
  snap: MemoryListing,
  s: PickerSettings,
  route: B3Route,
  answers: PickerAnswers,
  warnings: string[],
  list: ListedCandidate[],
): PickerDecision {
  const source = freshestSessionState(snap, s.fallbackWindowDays);
  const declined =
    source !== null &&
    answers.synthesize !== true &&
    answers.declinedB3?.has(b3Key(source.path, source.mtimeMs)) === true;
  if (declined)
    warnings = [
      ...warnings,
      `[checkpoint] synthesis from ${source.path} was declined before; not offered again`,
    ];
  if (source && !declined) {
    const synthesis = synthesizeFromSessionState(source);
    const confirmed = answers.synthesize === true;
    return {
      action: "synthesize",
      confirmed,
      path: route === "tier1-cross-task" && !confirmed ? "1a" : "5",
      route,
      synthesis,
      consumedSentinelPath: "",
      warnings: confirmed ? warnings : [...warnings, ...b3Offer(synthesis)],
      list,
    };
  }
  // NOTE: deviation: the seed falls to "no checkpoints found" here even when a suppressed
  // candidate exists; showing the list lets the user's explicit choice still reach it.
  if (list.length > 0) return chooseOf("b3-unavailable", list, warnings);
  return { action: "none", path: "2", reason: "no checkpoints found", warnings, list };
}
