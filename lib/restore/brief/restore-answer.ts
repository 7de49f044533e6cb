import { restoredLines } from "./restored-lines.ts";
import { fitShow, type BriefLine } from "./brief-fit.ts";
import { PICKER_LIST_CAP } from "../picker-decision.ts";
import type {
  OfferedShared,
  RestoreDecision,
  RestoreOutcome,
  Restored,
  ResumeSummary,
} from "../restore-outcome.ts";
import { restoreNext } from "./restore-next.ts";
import { handoffLine } from "../../store/mid-agent-handoff.ts";
import {
  candidateJson,
  pickerLines,
  SHARED_ROWS_CAP,
  sharedJson,
  sharedLines,
} from "./picker-rows.ts";

/**
 * The summary fields beside `show`: the kind (a flag), the file the skill reads whole when asked or
 * cut, the files `next` says to Read and their sizes. Task, branch, intent, session, saved time and
 * open questions are said once, in `show`.
 */
function summaryJson(s: ResumeSummary | null) {
  if (!s) return {};
  return { kind: s.kind, file: s.file, reread: s.reread, rereadBytes: s.rereadBytes };
}

/** The held prompts beside the menu: what its lines (in `show`, never cut) do not say. */
function promptsJson(r: Restored) {
  if (r.prompts.case === "A") return { case: "A" as const };
  return {
    case: r.prompts.case,
    // the session the prompts were held in is in the file's name
    file: r.prompts.source.file,
    legacy: r.prompts.legacy,
    others: r.prompts.others,
    entries: r.prompts.entries.map((e) => ({
      n: e.n,
      timestamp: e.timestamp,
      nonReplayable: e.nonReplayable,
    })),
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
    pendingPrompts: promptsJson(r),
    replay: r.replay
      ? {
          prompts: r.replay.replay.map((e) => ({ n: e.n, timestamp: e.timestamp, text: e.text })),
          edit: r.replay.edit ? { n: r.replay.edit.n, text: r.replay.edit.text } : null,
          trashed: r.replay.trash,
        }
      : null,
    ledger: r.ledger,
    rerun: r.rerun,
    // the raw text, the reason and the hint are in `show` (the text must not be lost), once
    ...(r.corrupt ? { file: r.corrupt.file, corrupt: { reason: r.corrupt.reason } } : {}),
  };
}

/**
 * The one JSON object `restore --json` prints; `action` says what the skill does next.
 * Each fact once: `show` says the checkpoint for the person and the model; a field is kept only
 * when `next`, a rerun or a program needs it and `show` does not say it (a test holds this: no
 * field's text of 24+ characters inside a `show` line, no `show` line twice). So the task, branch,
 * intent, session, saved time, open questions, warnings, git's findings (reconcile), the trashed
 * sentinel and a picker's rows are lines of `show`, not fields.
 * - `restore`: `done` true means finished (sentinels moved to trash, ledger row written). With
 *   `done` false, ask about each of `needs` (`same-session`: proceed or open a fresh session;
 *   `replay`: the menu, in `show`; `manual-recovery`: the raw text and
 *   the hint in `show`, `corrupt.reason`), then rerun with `rerun` plus `--proceed` / `--replay
 *   ANSWER`. Fields: `kind`, `file` (the checkpoint, or the damaged file: Read whole when asked or
 *   when `show` says the brief was cut), `reread` and `rereadBytes` (the files `next` says to
 *   Read), `sameSession`, `path` (the contract path taken), `ledger`; `show` is at most 8 KB with
 *   the rest, held prompts and a corrupt checkpoint's raw text excepted; `replay.prompts` are the
 *   prompts to submit, `replay.edit` the one to offer for editing.
 * - `choose`: `show` is the menu; `candidates` hold what its rows do not say (file, session,
 *   sentinel, the gate's flags); rerun with `--pick N`, or stop on skip.
 * - `synthesize`: `show` is the warnings, the offer and the menu; `sessionState` the file offered
 *   and what the offer does not say (its intent); on yes rerun with `--synthesize`, or `--pick N`.
 * - `none`: nothing to restore (`show` says why). `invalid`: the answer could not be read
 *   (`reason`, exit 2; `show` is empty).
 */
export function restoreJson(o: RestoreOutcome, engine: string): unknown {
  // ok false only for an invalid answer (--pick out of range, a bad --replay): exit 2; it goes in
  // with the other fields so the 8 KB fit counts it, and leads, as in every engine answer.
  const hint = sharedHintLine(o, engine);
  return fitted(
    {
      ok: o.action !== "invalid",
      ...restoreFields(o, o.offeredShared),
      midAgentHandoff: o.midAgentHandoff,
      ...(hint ? { sharedHint: hint } : {}),
      ...(o.adoptedShared ? { adoptedShared: o.adoptedShared } : {}),
      next: restoreNext(o),
    },
    o,
    engine,
    o.offeredShared,
  );
}

/** `show` fitted to what the other fields leave; `show` is the lines to show the user, `next` what to do. */
function fitted(
  fields: { next: string[] } & Record<string, unknown>,
  o: RestoreDecision,
  engine: string,
  shared: readonly OfferedShared[],
): unknown {
  // an invalid answer's one fact is its `reason`, as in every engine refusal
  const lines =
    o.action === "restore"
      ? restoredLines(o, engine)
      : o.action === "invalid"
        ? []
        : plain(decisionText(o, engine, shared));
  const file = o.action === "restore" ? (o.summary?.file ?? o.corrupt?.file ?? null) : null;
  const { next, ...rest } = fields;
  return { ...rest, show: fitShow(lines, fields, file), next };
}

/** The fields a refused restore (a bad --pick, --shared or session) carries beside its reason. */
export function refusedRestoreJson(reason: string, engine: string): unknown {
  const o = { action: "invalid" as const, reason };
  return fitted({ ...restoreFields(o, []), next: restoreNext(o) }, o, engine, []);
}

/** What restore says about shared checkpoints when it has nothing to pick. */
function sharedHintLine(o: RestoreOutcome, engine: string): string | null {
  const h = o.sharedHint;
  if (!h) return null;
  if ("fetched" in h)
    return `[checkpoint] ${h.fetched} shared checkpoint(s) from other clones are fetched here: ${engine} list shows them, ${engine} restore --shared s1 resumes one`;
  return `[checkpoint] ${h.remote} holds shared checkpoints of other clones: ${engine} fetch brings them`;
}

const plain = (text: string): BriefLine[] => text.split("\n").map((t) => ({ text: t }));

function restoreFields(o: RestoreDecision, shared: readonly OfferedShared[]): object {
  const numbered =
    "numbered" in o && o.numbered !== undefined ? o.numbered : "list" in o ? o.list.length : 0;
  const offered = shared.slice(0, SHARED_ROWS_CAP).map((c, i) => sharedJson(c, numbered + i + 1));
  switch (o.action) {
    case "restore":
      return restoredJson(o);
    case "choose":
      return {
        action: o.action,
        reason: o.reason,
        candidates: [...o.list.slice(0, PICKER_LIST_CAP).map(candidateJson), ...offered],
        more: o.more,
      };
    case "synthesize":
      return {
        action: o.action,
        route: o.route,
        path: o.path,
        // the name, time, task and stage are in the offer's lines (show), once
        sessionState: {
          file: o.synthesis.file,
          intent: o.synthesis.intent,
          ...(o.synthesis.openQuestions ? { openQuestions: o.synthesis.openQuestions } : {}),
        },
        candidates: [...o.list.slice(0, PICKER_LIST_CAP).map(candidateJson), ...offered],
        more: Math.max(0, o.list.length - PICKER_LIST_CAP),
      };
    case "none":
      return { action: o.action };
    case "invalid":
      return { action: o.action, reason: o.reason };
  }
}

type Choose = Extract<RestoreDecision, { action: "choose" }>;
type Synthesize = Extract<RestoreDecision, { action: "synthesize" }>;

function chooseLines(o: Choose, shared: readonly OfferedShared[]): string[] {
  const head =
    o.reason === "multiple"
      ? "Several recent checkpoints. Which one do you want to restore?"
      : "None of these is restored by itself, and no recent session notes to start from. Pick one, or skip:";
  return [
    head,
    ...pickerLines(o.list),
    ...sharedLines(o.numbered ?? o.list.length, shared),
    o.list.slice(0, PICKER_LIST_CAP).some((c) => c.note)
      ? "Enter a number (rerun with --pick N), or 'skip'. A note in ( ) does not stop you picking that row."
      : "Enter a number (rerun with --pick N), or 'skip'.",
  ];
}

function synthesizeLines(o: Synthesize, shared: readonly OfferedShared[]): string[] {
  return [
    "Synthesize from the session-state: rerun with --synthesize.",
    ...(o.list.length || shared.length
      ? [
          "Or restore a checkpoint explicitly (rerun with --pick N):",
          ...pickerLines(o.list),
          ...sharedLines(o.numbered ?? o.list.length, shared),
        ]
      : []),
  ];
}

/** Readable text for a person at a terminal; `engine` is how to run the engine as printed (engineInvocation). */
export function restoreText(o: RestoreOutcome, engine: string): string {
  const hint = sharedHintLine(o, engine);
  return [
    decisionText(o, engine, o.offeredShared),
    ...(o.midAgentHandoff ? [handoffLine(o.midAgentHandoff)] : []),
    ...(hint ? [hint] : []),
  ].join("\n");
}

function decisionText(
  o: RestoreDecision,
  engine: string,
  shared: readonly OfferedShared[],
): string {
  switch (o.action) {
    case "restore":
      return restoredLines(o, engine)
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
