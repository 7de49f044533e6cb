import type { OfferedShared } from "../restore-outcome.ts";
import { PICKER_LIST_CAP, type ListedCandidate } from "../picker-decision.ts";
import type { CheckpointRow } from "../checkpoint-list.ts";
import { kindOf } from "../../store/checkpoint-status.ts";
import { cutAtWord } from "../../core/text-cut.ts";

// The rows of a picker: the local candidates, then the shared checkpoints numbered after them.

/** At most this many shared rows in a menu; `list` shows them all. */
export const SHARED_ROWS_CAP = 5;

/** A shared row for JSON: the task, branch, time and who shared it are in the menu line, once. */
export function sharedJson(c: OfferedShared, n: number) {
  return { n, source: "shared" as const, shared: c.label, name: c.name };
}

/** `  13.   shared by another clone, <saved>: task [branch]  (shared s1: who, where, when)` */
function sharedRow(c: OfferedShared, n: number): string {
  return `  ${String(n).padStart(2)}.   shared by another clone, ${c.savedAt ?? "?"}: ${c.task ?? "(unknown task)"} [${c.branch ?? "?"}]  (shared ${c.label}: ${c.from})`;
}

/** Shared rows numbered after the whole local list (`--pick N` counts past the cap too). */
export function sharedLines(localCount: number, shared: readonly OfferedShared[]): string[] {
  if (shared.length === 0) return [];
  const lines = shared.slice(0, SHARED_ROWS_CAP).map((c, i) => sharedRow(c, localCount + i + 1));
  if (shared.length > SHARED_ROWS_CAP)
    lines.push(`  ... and ${shared.length - SHARED_ROWS_CAP} more shared (list shows them).`);
  return lines;
}

/**
 * One picker row for JSON: what the menu line does not say (the file, the session, the gate's
 * flags); its task, branch, time, what it was doing and its note are in the menu line, once.
 */
export function candidateJson(c: ListedCandidate) {
  return {
    n: c.n,
    source: c.source,
    legacy: c.sessionId === undefined,
    sessionId: c.sessionId ?? null,
    file: c.file,
    sentinel: c.sentinel,
    ageDays: c.gate.ageDays,
    stale: c.gate.stale,
    crossTask: c.gate.crossTask,
  };
}

/** What kind of save a checkpoint is, from its `## Status`, in a person's words. */
export function saveKindLabel(status: string | undefined): string {
  const k = kindOf(status);
  if (k.kind === "voluntary") return "your /checkpoint";
  if (k.kind === "panic") return "your /checkpoint, short";
  if (k.kind === "precompact") return "before compaction";
  if (k.kind === "forced") return "forced at the limit";
  if (k.kind === "session-end") return "session end";
  if (/\bcurated\b|\bvoluntary\b/i.test(k.status)) return "your /checkpoint";
  if (/precompact/i.test(k.status)) return "before compaction";
  if (/forced|block/i.test(k.status)) return "forced at the limit";
  if (/session end/i.test(k.status)) return "session end";
  if (/recovered/i.test(k.status)) return "recovered";
  return "saved";
}

/** How much of what a save was doing a row shows (cut between words). */
export const ROW_DOING_CHARS = 70;

/** The asked-for fallback: the newest request, as the intent section records it. */
const NEWEST_REQUEST = /^\(newest request\)\s*/;

/**
 * What the save was doing, as a row shows it, in the model's words where the checkpoint has them:
 * its in-progress line (or the work item in progress); else the intent when the model wrote it;
 * else its newest last words; else what the person last asked. NOTE: the model's own intent
 * comes before its last words: a /checkpoint's newest reply is often about the save itself.
 */
export function rowDoing(c: { working?: string; intent?: string; lastWord?: string }): string {
  const said = (t: string) => `"${cutAtWord(t, ROW_DOING_CHARS)}"`;
  if (c.working) return said(c.working);
  const asked = c.intent ? NEWEST_REQUEST.exec(c.intent) : null;
  if (c.intent && !asked) return said(c.intent);
  if (c.lastWord) return said(c.lastWord);
  if (c.intent && asked)
    return `last asked "${cutAtWord(c.intent.slice(asked[0].length), ROW_DOING_CHARS)}"`;
  return "";
}

/**
 * `  1. * your /checkpoint, 2026-11-29 11:00 UTC: alpha [main] "intent" (damaged: cut short)`:
 * the kind of save, when, the task and branch, what it was doing, then why it would not be
 * picked by itself. `*`: this session or another names it to be restored next.
 */
function candidateRow(c: ListedCandidate): string {
  const doing = c.damage ? "" : rowDoing(c);
  const what = doing ? `  ${doing}` : "";
  const note = c.note ? `  (${c.note})` : "";
  const kind = c.damage ? "damaged file" : saveKindLabel(c.status);
  return `  ${String(c.n).padStart(2)}. ${c.sentinel ? "*" : " "} ${kind}, ${c.saved}: ${c.task} [${c.branch}]${what}${note}`;
}

export function pickerLines(list: readonly ListedCandidate[]): string[] {
  const lines = list.slice(0, PICKER_LIST_CAP).map(candidateRow);
  if (list.length > PICKER_LIST_CAP)
    lines.push(`  ... and ${list.length - PICKER_LIST_CAP} older.`);
  return lines;
}

/** One row of `list`, numbered as `restore --pick` takes them. */
export function checkpointRowText(r: CheckpointRow): string {
  const mark = r.sentinels.length ? "*" : " ";
  const kind = r.damage ? `damaged: ${r.damage}` : saveKindLabel(r.status);
  const doing = r.damage ? "" : rowDoing({ ...r, intent: r.intent ?? undefined });
  const what = doing ? `  ${doing}` : "";
  return `${String(r.n).padStart(3)}. ${mark} ${r.saved.padEnd(26)} ${r.age.padStart(6)}  ${kind}: ${r.task}  [${r.branch}]  ${r.name}${what}`;
}
