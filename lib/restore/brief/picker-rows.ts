import type { OfferedShared } from "../restore-outcome.ts";
import { PICKER_LIST_CAP, type ListedCandidate } from "../restore-picker.ts";
import type { CheckpointRow } from "../checkpoint-list.ts";

// The rows of a picker: the local candidates, then the shared checkpoints numbered after them.

/** At most this many shared rows in a menu; `list` shows them all. */
export const SHARED_ROWS_CAP = 5;

export function sharedJson(c: OfferedShared, n: number) {
  return {
    n,
    task: c.task,
    branch: c.branch,
    saved: c.savedAt,
    source: "shared" as const,
    shared: c.label,
    from: c.from,
    name: c.name,
  };
}

function sharedRow(c: OfferedShared, n: number): string {
  return `  ${String(n).padStart(2)}.   Task: ${c.task ?? "(none)"}  Branch: ${c.branch ?? "?"}  Saved: ${c.savedAt ?? "?"}  (shared ${c.label}: ${c.from})`;
}

/** Shared rows numbered after the whole local list (`--pick N` counts past the cap too). */
export function sharedLines(localCount: number, shared: readonly OfferedShared[]): string[] {
  if (shared.length === 0) return [];
  const lines = shared.slice(0, SHARED_ROWS_CAP).map((c, i) => sharedRow(c, localCount + i + 1));
  if (shared.length > SHARED_ROWS_CAP)
    lines.push(`  ... and ${shared.length - SHARED_ROWS_CAP} more shared (list shows them).`);
  return lines;
}

/** One picker row for JSON: what the skill needs to ask the user. */
export function candidateJson(c: ListedCandidate) {
  return {
    n: c.n,
    task: c.task,
    branch: c.branch,
    saved: c.saved,
    source: c.source,
    legacy: c.sessionId === undefined,
    sessionId: c.sessionId ?? null,
    file: c.file,
    sentinel: c.sentinel,
    ageDays: c.gate.ageDays,
    stale: c.gate.stale,
    crossTask: c.gate.crossTask,
    intent: c.intent ?? null,
    note: c.note,
  };
}

/** The intent as a row shows it: one line, at most 70 characters. */
export function rowIntent(intent: string): string {
  const flat = intent.replace(/\s+/g, " ").trim();
  return flat.length <= 70 ? flat : `${flat.slice(0, 67)}...`;
}

/** `1. * Task: X  Branch: Y  Saved: Z  (sentinel)  "intent"` with the gate's annotation. */
function candidateRow(c: ListedCandidate): string {
  const source = c.sessionId === undefined ? "(legacy)" : `(${c.source})`;
  const note = c.note ? `  [${c.note}]` : "";
  const intent = c.intent ? `  "${rowIntent(c.intent)}"` : "";
  return `  ${String(c.n).padStart(2)}. ${c.source === "sentinel" ? "*" : " "} Task: ${c.task}  Branch: ${c.branch}  Saved: ${c.saved}  ${source}${intent}${note}`;
}

export function pickerLines(list: readonly ListedCandidate[]): string[] {
  const lines = list.slice(0, PICKER_LIST_CAP).map(candidateRow);
  if (list.length > PICKER_LIST_CAP)
    lines.push(`  ... and ${list.length - PICKER_LIST_CAP} older.`);
  return lines;
}

/** One row of `list`. */
export function checkpointRowText(r: CheckpointRow): string {
  const mark = r.sentinels.length ? "*" : " ";
  const intent = r.intent ? `  "${rowIntent(r.intent)}"` : "";
  return `${String(r.n).padStart(3)}. ${mark} ${r.saved.padEnd(26)} ${r.age.padStart(6)}  ${r.task}  [${r.branch}]${r.legacy ? " (legacy)" : ""}  ${r.name}${intent}`;
}
