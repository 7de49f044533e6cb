import { b3Offer, synthesizeFromSessionState, type B3Synthesis } from "./b3-synthesis.ts";
import { isUsableSessionId } from "../core/ids.ts";
import {
  CHECKPOINT_WINDOW_DAYS,
  checkpointIndex,
  enumerateCandidates,
  notOffered,
  sentinelTarget,
  toCandidate,
  type Candidate,
} from "./restore-candidates.ts";
import { damageNote } from "./checkpoint-damage.ts";
import {
  b3Trigger,
  gateFor,
  freshestSessionState,
  freshestTask,
  gateNote,
  gateWarning,
  sameTask,
  type GateResult,
} from "./restore-gate.ts";
import type { MemoryListing } from "./memory-listing.ts";
import { mentionsSessionUuid, taskFromSessionFileName } from "../store/session-state.ts";
import { DAY_MS } from "../core/time-format.ts";
import { compareNames } from "../core/dir-listing.ts";
import { readKnobs, type Knobs } from "../core/knobs.ts";

export interface PickerSettings {
  /** QUOIN_RESTORE_SENTINEL_WINDOW */
  sentinelWindowDays: number;
  /** QUOIN_RESTORE_STALE_DAYS */
  staleDays: number;
  /** QUOIN_SESSION_FALLBACK_WINDOW */
  fallbackWindowDays: number;
  /** QUOIN_PICKER_DEDUP_WINDOW */
  dedupWindowDays: number;
}

export function pickerSettings(knobs: Knobs): PickerSettings {
  return {
    sentinelWindowDays: knobs.QUOIN_RESTORE_SENTINEL_WINDOW,
    staleDays: knobs.QUOIN_RESTORE_STALE_DAYS,
    fallbackWindowDays: knobs.QUOIN_SESSION_FALLBACK_WINDOW,
    dedupWindowDays: knobs.QUOIN_PICKER_DEDUP_WINDOW,
  };
}

/** The picker's windows when no knob was read (a caller with no environment): their defaults. */
export const defaultPickerSettings = (): PickerSettings => pickerSettings(readKnobs({}, () => {}));

/**
 * What the user already answered: a number from the list, or yes to B3 (session-state) synthesis.
 */
export interface PickerAnswers {
  pick?: number;
  synthesize?: boolean;
  /** session-state files (b3Key) whose synthesis the user declined: not offered again */
  declinedB3?: ReadonlySet<string>;
}

/** Which version of a session-state file a B3 decline was about: its path and mtime. */
export function b3Key(file: string, mtimeMs: number): string {
  return `${file}@${Math.floor(mtimeMs)}`;
}

/**
 * Where the picker ended, in the seed's consumed_sentinel_path contract (the six paths; which
 * sentinel a restore consumes): 1 this session's sentinel (1a: the cross-task guard sent it to
 * synthesis), 2 no candidate, 3 the one candidate picked (3a: a checkpoint with no sentinel), 4 a
 * numbered pick (4a: no sentinel), 5 session-state synthesis (6, the corrupt-file branch, is
 * decided when the checkpoint is read). "tier2" is the Tier 2 anchor (a held prompt's session), which
 * consumes the other session's pending-restore sentinel.
 */
export type ContractPath = "1" | "1a" | "2" | "3" | "3a" | "4" | "4a" | "5" | "tier2";

export interface ListedCandidate extends Candidate {
  n: number;
  gate: GateResult;
  /** why the gate would not auto-pick it ("" when it would) */
  note: string;
}

export type B3Route = "clause-A" | "clause-B" | "gate" | "tier1-cross-task" | "requested";

export type PickerDecision =
  | {
      action: "restore";
      path: ContractPath;
      candidate: Candidate;
      consumedSentinelPath: string;
      warnings: string[];
      list: ListedCandidate[];
    }
  | {
      action: "choose";
      reason: "multiple" | "b3-unavailable";
      list: ListedCandidate[];
      more: number;
      warnings: string[];
      /** how many local files `list` and `--pick` number (the candidates and the rest) */
      numbered?: number;
    }
  | {
      action: "synthesize";
      /** true when the user already said yes (--synthesize): restore from it */
      confirmed: boolean;
      path: "1a" | "5";
      route: B3Route;
      synthesis: B3Synthesis;
      consumedSentinelPath: "";
      warnings: string[];
      list: ListedCandidate[];
      /** how many local files `list` and `--pick` number (the candidates and the rest) */
      numbered?: number;
    }
  | { action: "none"; path: "2"; reason: string; warnings: string[]; list: ListedCandidate[] }
  | { action: "invalid"; reason: string };

export const PICKER_LIST_CAP = 10;

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
  return {
    action: "restore",
    path,
    candidate: c,
    consumedSentinelPath: c.sentinel ?? "",
    warnings: [...warnings, ...sessionMismatch(snap, c)],
    list,
  };
}

/**
 * Tier 4: B3 (session-state) synthesis from the freshest session-state within the fallback window;
 * else the list, else nothing.
 */
function routeToB3(
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
  if (list.length > 0)
    return {
      action: "choose",
      reason: "b3-unavailable",
      list,
      more: Math.max(0, list.length - PICKER_LIST_CAP),
      warnings,
    };
  return { action: "none", path: "2", reason: "no checkpoints found", warnings, list };
}

/**
 * Tier 2: pending-prompt cross-reference, freshest first. Returns an anchor or the task to seed the gate.
 * NOTE: deviation: the seed returns the anchor unchecked. The block tier writes both sentinels, so a
 * days-old blocked session of another task would be auto-picked (the incident); the anchor gets
 * Tier 1's cross-task guard (no staleness check) and, when it fails, is left to Tier 3's gate.
 */
function tier2(
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

type Tier1 =
  | { passed: true; decision: PickerDecision }
  | { passed: false; warnings: string[] }
  | null;

/**
 * Tier 1: current-session pending-restore sentinel, cross-task guard, no staleness check. Skipped
 * for "" and "unknown".
 */
function tier1(snap: MemoryListing): Tier1 {
  if (!isUsableSessionId(snap.sessionId)) return null;
  const own = snap.pendingRestores.find((r) => r.sid === snap.sessionId);
  const target = own ? sentinelTarget(snap, checkpointIndex(snap), own) : null;
  const candidate = target && own ? toCandidate(target, own.path) : null;
  // Missing file, untrusted path or unparseable `task` section: fall through to Tier 2/3.
  if (!candidate) return null;
  if (candidate.damage)
    return {
      passed: true,
      decision: {
        action: "restore",
        path: "1",
        candidate,
        consumedSentinelPath: "",
        warnings: [],
        list: [],
      },
    };
  // The Tier 2 anchor task is not set yet here: freshest_task comes from sessions/*.md only.
  const task = freshestTask(snap, "");
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
  return {
    passed: true,
    decision: {
      action: "restore",
      path: "1",
      candidate,
      consumedSentinelPath: "",
      warnings: [],
      list: [],
    },
  };
}

/**
 * Tier 1 alone, for a listing without enumeration: the restore when the current-session
 * sentinel passes the cross-task guard, else null (run the full picker).
 */
export function pickFastPath(snap: MemoryListing): PickerDecision | null {
  const t1 = tier1(snap);
  // a damaged checkpoint is shown with the others listed: the full listing is needed
  return t1?.passed && !isDamaged(t1.decision) ? t1.decision : null;
}

const isDamaged = (d: PickerDecision) => d.action === "restore" && d.candidate.damage !== undefined;

/** The restore picker (seed restore step 1): a pure decision over a listing of the memory folder. */
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
  if (t2.anchor) {
    return {
      action: "restore",
      path: "tier2",
      candidate: t2.anchor,
      consumedSentinelPath: t2.anchor.sentinel ?? "",
      warnings: [],
      list: [],
    };
  }

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
  return {
    action: "choose",
    reason: "multiple",
    list,
    more: Math.max(0, list.length - PICKER_LIST_CAP),
    warnings,
  };
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
