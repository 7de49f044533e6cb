import { promptPreview, replayMenu } from "./prompt-replay.ts";
import { driftLines, reconcileLines, workingTreeLine } from "./reconcile.ts";
import { PICKER_LIST_CAP, type ListedCandidate } from "./restore-picker.ts";
import type { RestoreOutcome, Restored, ResumeSummary } from "./restore-run.ts";
import {
  BRIEF_LIMITS,
  cut,
  digestNotes,
  notesLines,
  restoreNext,
  whereLines,
} from "./restore-guide.ts";

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
export function candidateRow(c: ListedCandidate): string {
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

/** At most this many bytes of `restore --json`, held prompts and a corrupt checkpoint's raw text excepted. */
export const BRIEF_MAX_BYTES = 8192;
const WARNINGS = 6;
const TRASHED_SHOWN = 5;

const warningsOf = (r: { warnings: readonly string[] }) => {
  const w = r.warnings.slice(0, WARNINGS).map((l) => cut(l, 300));
  if (r.warnings.length > WARNINGS)
    w.push(`[checkpoint] +${r.warnings.length - WARNINGS} more warnings`);
  return w;
};

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

const OPEN_QUESTIONS = 5;

/** Open questions: in the text form listed; under --json the field holds them, said once. */
function openQuestionLines(qs: readonly string[], json: boolean): string[] {
  if (qs.length === 0) return [];
  if (json)
    return [
      `Open questions: ${qs.length} (in openQuestions${qs.length > OPEN_QUESTIONS ? `, the first ${OPEN_QUESTIONS}` : ""}).`,
    ];
  return [
    `Open questions: ${qs.length} items.`,
    ...qs.slice(0, BRIEF_LIMITS.items).map((q) => `  - ${cut(q, BRIEF_LIMITS.itemChars)}`),
    ...(qs.length > BRIEF_LIMITS.items
      ? [`  +${qs.length - BRIEF_LIMITS.items} more open questions`]
      : []),
  ];
}

/** A line of the brief: `held` lines (prompts for replay, a corrupt checkpoint's text) are never cut, `keep` lines neither. */
interface BriefLine {
  text: string;
  held?: true;
  keep?: true;
}

const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/**
 * Fit `show` so that the whole answer stays under BRIEF_MAX_BYTES, held text excepted: lines are
 * dropped from the end of the cuttable ones (the git and session detail), and one line says how
 * many and where the rest is.
 */
function fitShow(lines: readonly BriefLine[], others: object, file: string | null): string[] {
  // the held prompts' fields count as their empty forms
  const o = others as Record<string, unknown>;
  const bare = {
    ...o,
    ...("pendingPrompts" in o ? { pendingPrompts: { case: "A" } } : {}),
    ...("replay" in o ? { replay: null } : {}),
    show: [],
  };
  // one byte for the newline printJson adds
  const budget = BRIEF_MAX_BYTES - 1 - jsonBytes(bare);
  const total = lines.filter((l) => !l.held).reduce((n, l) => n + jsonBytes(l.text) + 1, 0);
  if (total <= budget) return lines.map((l) => l.text);
  const note = (n: number) =>
    `[checkpoint] brief cut to ${BRIEF_MAX_BYTES} bytes: ${n} more line(s)${file ? `; read ${file} for the rest` : ""}`;
  let over = total - budget + jsonBytes(note(lines.length)) + 1;
  const drop = new Set<number>();
  for (let i = lines.length - 1; i >= 0 && over > 0; i -= 1) {
    const l = lines[i]!;
    if (l.held || l.keep) continue;
    drop.add(i);
    over -= jsonBytes(l.text) + 1;
  }
  const out: string[] = [];
  let noted = false;
  lines.forEach((l, i) => {
    if (!drop.has(i)) out.push(l.text);
    else if (!noted) {
      out.push(note(drop.size));
      noted = true;
    }
  });
  return out;
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
export function restoreJson(o: RestoreOutcome, engine: string, extra: object = {}): unknown {
  // `show`: the lines to show the user (the text form); `next`: what to do with this answer.
  // `extra`: the command's own fields (the mid-agent handoff), inside the same 8 KB.
  const fields = { ...restoreFields(o), ...extra, next: restoreNext(o) };
  const lines =
    o.action === "restore" ? restoredLines(o, engine, true) : plain(restoreText(o, engine));
  const file = o.action === "restore" ? (o.summary?.file ?? o.corrupt?.file ?? null) : null;
  const { next, ...rest } = fields;
  return { ...rest, show: fitShow(lines, fields, file), next };
}

const plain = (text: string): BriefLine[] => text.split("\n").map((t) => ({ text: t }));

function restoreFields(o: RestoreOutcome): object {
  switch (o.action) {
    case "restore":
      return restoredJson(o);
    case "choose":
      return {
        action: o.action,
        reason: o.reason,
        warnings: warningsOf(o),
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

function restoredLines(r: Restored, engine: string, json: boolean): BriefLine[] {
  const keep = (text: string): BriefLine => ({ text, keep: true });
  const lines: BriefLine[] = warningsOf(r).map(keep);
  if (r.corrupt) {
    lines.push(
      keep(
        `[checkpoint] checkpoint ${r.corrupt.file} is corrupt (${r.corrupt.reason}); its sentinel is kept.`,
      ),
      keep("----- raw content -----"),
      { text: r.corrupt.raw, held: true },
      keep("-----------------------"),
      keep(r.corrupt.hint),
    );
    return lines;
  }
  const s = r.summary!;
  lines.push(keep(s.kindLine));
  lines.push(
    keep(`Resuming task: ${s.task}. Branch: ${s.branch}. Last intent: ${cut(s.intent, 300)}.`),
  );
  lines.push(keep(`Session: ${s.resume}`));
  lines.push(
    keep(
      `From: ${s.file}${s.savedAt ? ` (saved ${s.savedAt})` : ""}; read it for more than this brief.`,
    ),
  );
  if (r.reconcile) {
    lines.push(...driftLines(r.reconcile).map(keep));
    if (r.reconcile.git) lines.push(keep(workingTreeLine(r.reconcile)));
  }
  // The rest in the order it is kept: what fits least is cut first, from the end.
  const rest: string[] = [];
  rest.push(
    s.artifacts.length
      ? `In-flight artifacts: ${s.artifacts.length} paths (re-read them now):`
      : "In-flight artifacts: none to re-read.",
  );
  for (const a of s.artifacts) rest.push(`  ${a}`);
  rest.push(...whereLines(s.session));
  if (r.reconcile) rest.push(...reconcileLines(r.reconcile, { drift: false, tree: false }));
  rest.push(...notesLines(s.session), ...digestNotes(s.session));
  rest.push(...openQuestionLines(s.openQuestions, json));
  lines.push(...rest.map((text) => ({ text })));
  if (r.needs.includes("same-session"))
    lines.push(...sameSessionLines(s.sessionId ?? "").map(keep));
  if (r.prompts.case !== "A") {
    if (!r.replay)
      lines.push(...replayMenu(r.prompts).map((text) => ({ text, held: true as const })));
    else {
      for (const p of r.replay.replay)
        lines.push(keep(`----- replay ${p.n} [${p.timestamp}] -----`), {
          text: p.text,
          held: true,
        });
      if (r.replay.edit)
        lines.push(
          keep(`----- edit ${r.replay.edit.n} [${r.replay.edit.timestamp}] -----`),
          { text: r.replay.edit.text, held: true },
          keep("Paste the edited prompt to submit it."),
        );
    }
  }
  if (r.cleanup) {
    const t = r.cleanup.trashed;
    for (const x of t.slice(0, TRASHED_SHOWN))
      lines.push({ text: `[checkpoint] moved to trash: ${x.from}` });
    if (t.length > TRASHED_SHOWN)
      lines.push({ text: `[checkpoint] +${t.length - TRASHED_SHOWN} more moved to trash` });
  }
  if (!r.done && !r.corrupt)
    lines.push(
      keep(
        `Answer, then rerun: ${engine} restore ${[...r.rerun, ...r.needs.map((n) => needFlag(r, n))].join(" ")}`,
      ),
    );
  return lines;
}

function restoredText(r: Restored, engine: string): string[] {
  return restoredLines(r, engine, false).map((l) => l.text);
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
