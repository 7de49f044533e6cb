import { promptPreview, replayMenu } from "./prompt-replay.ts";
import { OPEN_QUESTIONS, restoredLines, WARNINGS, warningsOf } from "./restore-brief.ts";
import { fitShow, type BriefLine } from "./brief-fit.ts";
import { PICKER_LIST_CAP, type ListedCandidate } from "./restore-picker.ts";
import type { RestoreOutcome, Restored, ResumeSummary } from "./restore-run.ts";
import { cut, restoreNext } from "./restore-guide.ts";

/**
 * A checkpoint another clone shared (fetched, not yet copied here), offered in the picker after
 * the local candidates and numbered after them; never picked automatically.
 */
export interface OfferedShared {
  /** `s1`, `s2`, ...: the alias `restore --shared sN` takes */
  label: string;
  name: string;
  task: string | null;
  branch: string | null;
  savedAt: string | null;
  /** who shared it, from which host and branch, and when */
  from: string;
}

/** At most this many shared rows in a menu; `list` shows them all. */
const SHARED_ROWS_CAP = 5;

function sharedJson(c: OfferedShared, n: number) {
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
function sharedLines(localCount: number, shared: readonly OfferedShared[]): string[] {
  if (shared.length === 0) return [];
  const lines = shared.slice(0, SHARED_ROWS_CAP).map((c, i) => sharedRow(c, localCount + i + 1));
  if (shared.length > SHARED_ROWS_CAP)
    lines.push(`  ... and ${shared.length - SHARED_ROWS_CAP} more shared (list shows them).`);
  return lines;
}

/** One picker row for JSON: what the skill needs to ask the user. */
function candidateJson(c: ListedCandidate) {
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

function pickerLines(list: readonly ListedCandidate[]): string[] {
  const lines = list.slice(0, PICKER_LIST_CAP).map(candidateRow);
  if (list.length > PICKER_LIST_CAP)
    lines.push(`  ... and ${list.length - PICKER_LIST_CAP} older.`);
  return lines;
}

/** The summary fields `next` and the callers read; the rest of the checkpoint is said once, in `show`. */
function summaryJson(s: ResumeSummary | null) {
  if (!s) return {};
  return {
    source: s.source,
    kind: s.kind,
    file: s.file,
    task: s.task,
    branch: s.branch,
    intent: cut(s.intent, 300),
    sessionId: s.sessionId,
    resume: s.resume,
    ...(s.savedAt ? { savedAt: s.savedAt } : {}),
    openQuestions: s.openQuestions.slice(0, OPEN_QUESTIONS).map((q) => cut(q, 120)),
    reread: s.reread,
  };
}

function promptsJson(r: Restored) {
  if (r.prompts.case === "A") return { case: "A" as const };
  return {
    case: r.prompts.case,
    file: r.prompts.source.file,
    sid: r.prompts.source.sid,
    legacy: r.prompts.legacy,
    warning: r.prompts.warning ?? null,
    others: r.prompts.others,
    entries: r.prompts.entries.map((e) => ({
      n: e.n,
      timestamp: e.timestamp,
      nonReplayable: e.nonReplayable,
      preview: promptPreview(e.text),
    })),
    menu: replayMenu(r.prompts),
  };
}

function restoredJson(r: Restored) {
  return {
    action: r.action,
    done: r.done,
    needs: r.needs,
    path: r.path,
    ...summaryJson(r.summary),
    sameSession: r.sameSession,
    consumedSentinel: r.consumedSentinel,
    warnings: warningsOf(r),
    reconcile: r.reconcile,
    pendingPrompts: promptsJson(r),
    replay: r.replay
      ? {
          prompts: r.replay.replay.map((e) => ({ n: e.n, timestamp: e.timestamp, text: e.text })),
          edit: r.replay.edit ? { n: r.replay.edit.n, text: r.replay.edit.text } : null,
          trashed: r.replay.trash,
        }
      : null,
    cleanup: r.cleanup
      ? { trashed: r.cleanup.trashed.length, failed: r.cleanup.failed.slice(0, WARNINGS) }
      : null,
    ledger: r.ledger,
    rerun: r.rerun,
    // the raw text is in `show` (it must not be lost), once
    ...(r.corrupt
      ? { corrupt: { file: r.corrupt.file, reason: r.corrupt.reason, hint: r.corrupt.hint } }
      : {}),
  };
}

/**
 * The one JSON object `restore --json` prints; `action` says what the skill does next:
 * - `restore`: `done` true means finished (sentinels moved to trash, ledger row written). With
 *   `done` false, ask about each of `needs` (`same-session`: proceed or open a fresh session;
 *   `replay`: show `pendingPrompts.menu`; `manual-recovery`: the raw text in `show`, `corrupt.hint`),
 *   then rerun with `rerun` plus `--proceed` / `--replay ANSWER`. Summary fields: kind, file,
 *   task, branch, intent, resume, openQuestions, reread (the files to Read), reconcile (bounded);
 *   the rest of the checkpoint is said once, in `show` (at most 8 KB in all, held prompts and a
 *   corrupt checkpoint's raw text excepted); `replay.prompts` are the prompts to submit,
 *   `replay.edit` the one to offer for editing.
 * - `choose`: show `menu` (or `candidates`); rerun with `--pick N`, or stop on skip.
 * - `synthesize`: show `warnings` and `menu`; on yes rerun with `--synthesize`, or `--pick N`.
 * - `none`: nothing to restore (`reason`). `invalid`: the answer could not be read (exit 2).
 */
export function restoreJson(
  o: RestoreOutcome,
  engine: string,
  extra: object = {},
  shared: readonly OfferedShared[] = [],
): unknown {
  // `show`: the lines to show the user (the text form); `next`: what to do with this answer.
  // `extra`: the command's own fields (the mid-agent handoff), inside the same 8 KB.
  // `ok` (the envelope's, in `extra`) leads, as in every engine answer.
  const { ok, ...own } = extra as { ok?: boolean };
  const fields = {
    ...(ok === undefined ? {} : { ok }),
    ...restoreFields(o, shared),
    ...own,
    next: restoreNext(o),
  };
  const lines =
    o.action === "restore" ? restoredLines(o, engine, true) : plain(restoreText(o, engine, shared));
  const file = o.action === "restore" ? (o.summary?.file ?? o.corrupt?.file ?? null) : null;
  const { next, ...rest } = fields;
  return { ...rest, show: fitShow(lines, fields, file), next };
}

const plain = (text: string): BriefLine[] => text.split("\n").map((t) => ({ text: t }));

function restoreFields(o: RestoreOutcome, shared: readonly OfferedShared[]): object {
  const offered = (list: readonly ListedCandidate[]) =>
    shared.slice(0, SHARED_ROWS_CAP).map((c, i) => sharedJson(c, list.length + i + 1));
  switch (o.action) {
    case "restore":
      return restoredJson(o);
    case "choose":
      return {
        action: o.action,
        reason: o.reason,
        warnings: warningsOf(o),
        candidates: [...o.list.slice(0, PICKER_LIST_CAP).map(candidateJson), ...offered(o.list)],
        more: o.more,
        menu: chooseLines(o, shared),
      };
    case "synthesize":
      return {
        action: o.action,
        route: o.route,
        path: o.path,
        warnings: o.warnings,
        sessionState: o.synthesis,
        candidates: [...o.list.slice(0, PICKER_LIST_CAP).map(candidateJson), ...offered(o.list)],
        more: Math.max(0, o.list.length - PICKER_LIST_CAP),
        menu: synthesizeLines(o, shared),
      };
    case "none":
      return { action: o.action, reason: o.reason, warnings: o.warnings };
    case "invalid":
      return { action: o.action, reason: o.reason };
  }
}

type Choose = Extract<RestoreOutcome, { action: "choose" }>;
type Synthesize = Extract<RestoreOutcome, { action: "synthesize" }>;

function chooseLines(o: Choose, shared: readonly OfferedShared[]): string[] {
  const head =
    o.reason === "multiple"
      ? "Multiple recent checkpoints found. Which session do you want to restore?"
      : "Auto-pick suppressed and no recent session-state to synthesize from. Pick one explicitly, or skip:";
  return [
    head,
    ...pickerLines(o.list),
    ...sharedLines(o.list.length, shared),
    "Enter a number (rerun with --pick N), or 'skip'. The notes in [ ] do not stop an explicit choice.",
  ];
}

function synthesizeLines(o: Synthesize, shared: readonly OfferedShared[]): string[] {
  return [
    "Synthesize from the session-state: rerun with --synthesize.",
    ...(o.list.length || shared.length
      ? [
          "Or restore a checkpoint explicitly (rerun with --pick N):",
          ...pickerLines(o.list),
          ...sharedLines(o.list.length, shared),
        ]
      : []),
  ];
}

/** Readable text for a person at a terminal; `engine` is how to run the engine as printed (engineInvocation). */
export function restoreText(
  o: RestoreOutcome,
  engine: string,
  shared: readonly OfferedShared[] = [],
): string {
  switch (o.action) {
    case "restore":
      return restoredLines(o, engine, false)
        .map((l) => l.text)
        .join("\n");
    case "choose":
      return [...o.warnings, ...chooseLines(o, shared)].join("\n");
    case "synthesize":
      return [...o.warnings, ...synthesizeLines(o, shared)].join("\n");
    case "none":
      return [...o.warnings, `[checkpoint] ${o.reason}.`].join("\n");
    case "invalid":
      return o.reason;
  }
}
