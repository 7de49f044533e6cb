import { promptPreview, replayMenu } from "./prompt-replay.ts";
import { reconcileLines } from "./reconcile.ts";
import { PICKER_LIST_CAP, type ListedCandidate } from "./restore-picker.ts";
import type { RestoreOutcome, Restored } from "./restore-run.ts";
import { restoreNext, sessionLines } from "./restore-guide.ts";

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

function restoredJson(r: Restored) {
  const prompts =
    r.prompts.case === "A"
      ? { case: "A" as const }
      : {
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
  return {
    action: r.action,
    done: r.done,
    needs: r.needs,
    path: r.path,
    ...(r.summary ?? {}),
    sameSession: r.sameSession,
    consumedSentinel: r.consumedSentinel,
    warnings: r.warnings,
    reconcile: r.reconcile,
    pendingPrompts: prompts,
    replay: r.replay
      ? {
          prompts: r.replay.replay.map((e) => ({ n: e.n, timestamp: e.timestamp, text: e.text })),
          edit: r.replay.edit ? { n: r.replay.edit.n, text: r.replay.edit.text } : null,
          trashed: r.replay.trash,
        }
      : null,
    cleanup: r.cleanup,
    ledger: r.ledger,
    rerun: r.rerun,
    ...(r.corrupt ? { corrupt: r.corrupt } : {}),
  };
}

/**
 * The one JSON object `restore --json` prints; `action` says what the skill does next:
 * - `restore`: `done` true means finished (sentinels moved to trash, ledger row written). With
 *   `done` false, ask about each of `needs` (`same-session`: proceed or open a fresh session;
 *   `replay`: show `pendingPrompts.menu`; `manual-recovery`: show `corrupt.raw` and `corrupt.hint`),
 *   then rerun with `rerun` plus `--proceed` / `--replay ANSWER`. Summary fields: task, branch,
 *   intent, resume, artifacts (re-read these), openQuestions, reconcile; `replay.prompts` are the
 *   prompts to submit, `replay.edit` the one to offer for editing.
 * - `choose`: show `menu` (or `candidates`); rerun with `--pick N`, or stop on skip.
 * - `synthesize`: show `warnings` and `menu`; on yes rerun with `--synthesize`, or `--pick N`.
 * - `none`: nothing to restore (`reason`). `invalid`: the answer could not be read (exit 2).
 */
export function restoreJson(o: RestoreOutcome, engine: string): unknown {
  // `show`: the lines to show the user (the text form); `next`: what to do with this answer.
  return { ...restoreFields(o), show: restoreText(o, engine).split("\n"), next: restoreNext(o) };
}

function restoreFields(o: RestoreOutcome): object {
  switch (o.action) {
    case "restore":
      return restoredJson(o);
    case "choose":
      return {
        action: o.action,
        reason: o.reason,
        warnings: o.warnings,
        candidates: o.list.slice(0, PICKER_LIST_CAP).map(candidateJson),
        more: o.more,
        menu: chooseLines(o),
      };
    case "synthesize":
      return {
        action: o.action,
        route: o.route,
        path: o.path,
        warnings: o.warnings,
        sessionState: o.synthesis,
        candidates: o.list.slice(0, PICKER_LIST_CAP).map(candidateJson),
        more: Math.max(0, o.list.length - PICKER_LIST_CAP),
        menu: synthesizeLines(o),
      };
    case "none":
      return { action: o.action, reason: o.reason, warnings: o.warnings };
    case "invalid":
      return { action: o.action, reason: o.reason };
  }
}

const sameSessionLines = (sid: string) => [
  `Same-session restore detected: this checkpoint was saved in your current session (ID: ${sid.slice(0, 8)}...).`,
  "Restoring here loads prior work into an already-used context window. For the cleanest restore,",
  "open a new Claude Code session (Cmd+N / Ctrl+N, or close this terminal and run: claude),",
  "then run /checkpoint --restore there. To proceed here anyway: rerun with --proceed.",
];

function restoredText(r: Restored, engine: string): string[] {
  const lines = [...r.warnings];
  if (r.corrupt) {
    lines.push(
      `[checkpoint] checkpoint ${r.corrupt.file} is corrupt (${r.corrupt.reason}); its sentinel is kept.`,
    );
    lines.push("----- raw content -----", r.corrupt.raw, "-----------------------", r.corrupt.hint);
    return lines;
  }
  const s = r.summary!;
  lines.push(`Resuming task: ${s.task}. Branch: ${s.branch}. Last intent: ${s.intent}.`);
  lines.push(`Session: ${s.resume}`);
  lines.push(`From: ${s.file}${s.savedAt ? ` (saved ${s.savedAt})` : ""}`);
  lines.push(
    s.artifacts.length
      ? `In-flight artifacts: ${s.artifacts.length} paths (re-read them now):`
      : "In-flight artifacts: none to re-read.",
  );
  for (const a of s.artifacts) lines.push(`  ${a}`);
  lines.push(`Open questions: ${s.openQuestions.length} items.`);
  for (const q of s.openQuestions) lines.push(`  - ${q}`);
  lines.push(...sessionLines(s));
  if (r.reconcile) lines.push(...reconcileLines(r.reconcile));
  if (r.needs.includes("same-session")) lines.push(...sameSessionLines(s.sessionId ?? ""));
  if (r.prompts.case !== "A") {
    if (!r.replay) lines.push(...replayMenu(r.prompts));
    else {
      for (const p of r.replay.replay)
        lines.push(`----- replay ${p.n} [${p.timestamp}] -----`, p.text);
      if (r.replay.edit)
        lines.push(
          `----- edit ${r.replay.edit.n} [${r.replay.edit.timestamp}] -----`,
          r.replay.edit.text,
          "Paste the edited prompt to submit it.",
        );
    }
  }
  if (r.cleanup)
    for (const t of r.cleanup.trashed) lines.push(`[checkpoint] moved to trash: ${t.from}`);
  if (!r.done && !r.corrupt)
    lines.push(
      `Answer, then rerun: ${engine} restore ${[...r.rerun, ...r.needs.map((n) => needFlag(r, n))].join(" ")}`,
    );
  return lines;
}

function needFlag(r: Restored, n: Restored["needs"][number]): string {
  if (n === "same-session") return "--proceed";
  if (n === "replay")
    return `--replay all|N,M|none|edit N${r.prompts.case === "C" ? "|delete" : ""}`;
  return "";
}

type Choose = Extract<RestoreOutcome, { action: "choose" }>;
type Synthesize = Extract<RestoreOutcome, { action: "synthesize" }>;

function chooseLines(o: Choose): string[] {
  const head =
    o.reason === "multiple"
      ? "Multiple recent checkpoints found. Which session do you want to restore?"
      : "Auto-pick suppressed and no recent session-state to synthesize from. Pick one explicitly, or skip:";
  return [
    head,
    ...pickerLines(o.list),
    "Enter a number (rerun with --pick N), or 'skip'. The notes in [ ] do not stop an explicit choice.",
  ];
}

function synthesizeLines(o: Synthesize): string[] {
  return [
    "Synthesize from the session-state: rerun with --synthesize.",
    ...(o.list.length
      ? ["Or restore a checkpoint explicitly (rerun with --pick N):", ...pickerLines(o.list)]
      : []),
  ];
}

/** Readable text for a person at a terminal; `engine` is how to run the engine as printed (engineInvocation). */
export function restoreText(o: RestoreOutcome, engine: string): string {
  switch (o.action) {
    case "restore":
      return restoredText(o, engine).join("\n");
    case "choose":
      return [...o.warnings, ...chooseLines(o)].join("\n");
    case "synthesize":
      return [...o.warnings, ...synthesizeLines(o)].join("\n");
    case "none":
      return [...o.warnings, `[checkpoint] ${o.reason}.`].join("\n");
    case "invalid":
      return o.reason;
  }
}
