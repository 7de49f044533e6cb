import type { B3Synthesis } from "./b3-synthesis.ts";
import type { Candidate } from "./restore-candidates.ts";
import type { GateResult } from "./restore-gate.ts";
import { readKnobs, type Knobs } from "../core/knobs.ts";

// What the restore picker decides, as data, and the settings it decides with: the picker
// (restore-picker.ts), its tiers (picker-tiers.ts), the run and the brief all read these types.

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

/** How many rows a picker menu shows; `list` and `--pick` number them all. */
export const PICKER_LIST_CAP = 10;

/** The decision to restore `candidate`: the contract path it took and the sentinel it consumes. */
export function restoreOf(
  candidate: Candidate,
  path: ContractPath,
  more: { consumed?: string; warnings?: string[]; list?: ListedCandidate[] } = {},
): Extract<PickerDecision, { action: "restore" }> {
  return {
    action: "restore",
    path,
    candidate,
    consumedSentinelPath: more.consumed ?? "",
    warnings: more.warnings ?? [],
    list: more.list ?? [],
  };
}

/** The decision to ask the user which one: the menu shows PICKER_LIST_CAP rows and counts the rest. */
export function chooseOf(
  reason: "multiple" | "b3-unavailable",
  list: ListedCandidate[],
  warnings: string[],
): PickerDecision {
  return {
    action: "choose",
    reason,
    list,
    more: Math.max(0, list.length - PICKER_LIST_CAP),
    warnings,
  };
}
