import { reduceTaskName } from "../core/ids.ts";
import type { Candidate } from "./restore-candidates.ts";
import type { MemoryListing, SessionStateFile } from "./memory-listing.ts";
import { taskFromSessionFileName } from "../store/session-state.ts";
import { DAY_MS } from "../core/time-format.ts";

/** Newest session-state file (`ls -t sessions/*.md | head -1`), optionally only within `windowDays`. */
export function freshestSessionState(
  snap: MemoryListing,
  windowDays?: number,
): SessionStateFile | null {
  let best: SessionStateFile | null = null;
  for (const s of snap.sessionStates) {
    if (windowDays !== undefined && snap.nowMs - s.mtimeMs >= windowDays * DAY_MS) continue;
    if (!best || s.mtimeMs > best.mtimeMs || (s.mtimeMs === best.mtimeMs && s.name > best.name))
      best = s;
  }
  return best;
}

/**
 * The task the user works on now: the Tier 2 anchor task (of a held prompt's session) if set, else
 * the freshest session-state file name.
 */
export function freshestTask(snap: MemoryListing, anchorTask: string): string {
  if (anchorTask !== "") return anchorTask;
  const fresh = freshestSessionState(snap);
  return fresh ? taskFromSessionFileName(fresh.name) : "";
}

// NOTE: the save side stores task names reduced to [a-z0-9-], so both sides are compared reduced.
export function sameTask(a: string, b: string): boolean {
  return reduceTaskName(a) === reduceTaskName(b);
}

export interface GateResult {
  stale: boolean;
  crossTask: boolean;
  /** whole days since the checkpoint's mtime */
  ageDays: number;
  suppressed: boolean;
  freshestTask: string;
}

/** The gate with its inputs resolved once, for a whole list of candidates. */
export function gateFor(
  snap: MemoryListing,
  anchorTask: string,
  staleDays: number,
): (c: Candidate) => GateResult {
  const task = freshestTask(snap, anchorTask);
  const reduced = task === "" ? "" : reduceTaskName(task);
  const hasSessionState = freshestSessionState(snap) !== null;
  // A list of 1,000 candidates names a few dozen tasks: each is reduced once.
  const reducedOf = new Map<string, string>();
  const reduce = (t: string): string => {
    const known = reducedOf.get(t);
    if (known !== undefined) return known;
    const r = reduceTaskName(t);
    reducedOf.set(t, r);
    return r;
  };
  return (c) => {
    const ageDays = Math.floor((snap.nowMs - c.mtimeMs) / DAY_MS);
    const stale = hasSessionState && ageDays > staleDays;
    const crossTask = task !== "" && c.task !== task && reduce(c.task) !== reduced;
    return { stale, crossTask, ageDays, suppressed: stale || crossTask, freshestTask: task };
  };
}

/** The loud warning printed when the gate suppresses an auto-pick. */
export function gateWarning(c: Candidate, g: GateResult, staleDays: number): string[] {
  const lines = ["[checkpoint] WARNING: auto-pick suppressed."];
  if (g.stale) lines.push(`  Stale: candidate is ${g.ageDays}d old (threshold: ${staleDays}d).`);
  if (g.crossTask)
    lines.push(
      `  Cross-task: candidate task='${c.task}' vs freshest session task='${g.freshestTask}'.`,
    );
  lines.push(
    "  Routing to session-state synthesis (B3). Choose 'y' to synthesize from the freshest session-state.",
  );
  return lines;
}

/** Short note for the numbered list: why this entry would not have been auto-picked. */
export function gateNote(g: GateResult): string {
  const parts: string[] = [];
  if (g.stale) parts.push(`stale ${g.ageDays}d`);
  if (g.crossTask) parts.push(`other task (now '${g.freshestTask}')`);
  return parts.join(", ");
}

export type B3Trigger = { fires: false } | { fires: true; clause: "A" | "B" };

/**
 * B3 trigger (offer a synthesis from the session-state file instead), evaluated before the normal
 * picker. Clause A: no candidate. Clause B: every candidate is older than the freshest
 * session-state file within the fallback window.
 */
export function b3Trigger(
  snap: MemoryListing,
  candidates: readonly Candidate[],
  fallbackWindowDays: number,
): B3Trigger {
  if (candidates.length === 0) return { fires: true, clause: "A" };
  const fresh = freshestSessionState(snap, fallbackWindowDays);
  if (!fresh) return { fires: false };
  const newestCandidate = Math.max(...candidates.map((c) => c.mtimeMs));
  return newestCandidate < fresh.mtimeMs ? { fires: true, clause: "B" } : { fires: false };
}
