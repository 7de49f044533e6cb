import { replayMenu } from "../prompt-replay.ts";
import { blockerLines, driftLines, reconcileLines, workingTreeLine } from "./reconcile-lines.ts";
import type { Restored } from "../restore-outcome.ts";
import { cut } from "../../core/text-cut.ts";
import { moreLines } from "../../core/text-list.ts";
import {
  BRIEF_LIMITS,
  digestNotes,
  doneLines,
  fixedLines,
  modelLines,
  whereLines,
  workItemLines,
} from "./brief-sections.ts";
import type { BriefLine } from "./brief-fit.ts";
import { pickerLines } from "./picker-rows.ts";

// The lines of a restore's brief (`show`), in the order they are kept: what fits least is cut
// first, from the end; `keep` lines and `held` text are never cut (brief-fit.ts).

export const WARNINGS = 6;
const TRASHED_SHOWN = 5;

export const warningsOf = (r: { warnings: readonly string[] }) => {
  const w = r.warnings.slice(0, WARNINGS).map((l) => cut(l, 300));
  return [
    ...w,
    ...moreLines(r.warnings.length - WARNINGS, "warnings").map((l) => `[checkpoint] ${l}`),
  ];
};

/** Open questions, listed: said once, here (the JSON has no field for them). */
function openQuestionLines(qs: readonly string[]): string[] {
  if (qs.length === 0) return [];
  return [
    `Open questions: ${qs.length} items.`,
    ...qs.slice(0, BRIEF_LIMITS.items).map((q) => `  - ${cut(q, BRIEF_LIMITS.itemChars)}`),
    ...moreLines(qs.length - BRIEF_LIMITS.items, "open questions").map((l) => `  ${l}`),
  ];
}

const sameSessionLines = (sid: string) => [
  `Same-session restore detected: this checkpoint was saved in your current session (ID: ${sid.slice(0, 8)}...).`,
  "Restoring here loads prior work into an already-used context window. For the cleanest restore,",
  "open a new Claude Code session (Cmd+N / Ctrl+N, or close this terminal and run: claude),",
  "then run /checkpoint --restore there. To proceed here anyway: rerun with --proceed.",
];

const keep = (text: string): BriefLine => ({ text, keep: true });

/** A damaged checkpoint: what is wrong, its first bytes as held text, the hint, the others to pick. */
function damagedLines(c: NonNullable<Restored["corrupt"]>, engine: string): BriefLine[] {
  return [
    keep(
      `[checkpoint] ${c.file} is damaged: ${c.reason}; nothing was restored and its sentinel is kept.`,
    ),
    keep("----- its first 2 KB (non-printing bytes as ?) -----"),
    { text: c.raw, held: true },
    keep("-----------------------"),
    keep(c.hint),
    ...(c.others.length
      ? [
          keep(`Or restore another checkpoint (${engine} restore --pick N):`),
          ...pickerLines(c.others).map(keep),
        ]
      : []),
  ];
}

/** The head of a restored brief, never cut: the kind, the task, the session, the file, the drift. */
function headLines(r: Restored): BriefLine[] {
  const s = r.summary!;
  const lines = [
    s.kindLine,
    `Resuming task: ${s.task}. Branch: ${s.branch}. Last intent: ${cut(s.intent, 300)}.`,
    `Session: ${s.resume}`,
    `From: ${s.file}${s.savedAt ? ` (saved ${s.savedAt})` : ""}; read it for more than this brief.`,
  ];
  if (r.reconcile) {
    lines.push(...driftLines(r.reconcile));
    if (r.reconcile.git) lines.push(workingTreeLine(r.reconcile));
  }
  return lines.map(keep);
}

/**
 * The rest in the order it is kept: what fits least is cut first, from the end. The model's own
 * words (in progress, next up, decisions), then the tracker's work items, blockers and open
 * questions come first, so they are cut last; then what the transcript and git say.
 */
function restLines(r: Restored): string[] {
  const s = r.summary!;
  const x = s.session;
  const rest: string[] = [
    ...modelLines(x),
    ...workItemLines(x),
    ...(r.reconcile ? blockerLines(r.reconcile) : []),
    ...openQuestionLines(s.openQuestions),
  ];
  if (s.artifacts.length) {
    rest.push(`In-flight artifacts: ${s.artifacts.length} paths (re-read them now):`);
    for (const a of s.artifacts) rest.push(`  ${a}`);
  }
  rest.push(...whereLines(x), ...fixedLines(x), ...doneLines(x));
  // the working tree's entries the uncommitted list above already names are not listed again
  if (r.reconcile)
    rest.push(
      ...reconcileLines(r.reconcile, {
        drift: false,
        tree: false,
        blockers: false,
        known: x.uncommitted.map((u) => u.path),
      }),
    );
  rest.push(...digestNotes(x));
  // a line said twice (a todo listed twice) is said once
  return [...new Set(rest)];
}

/** The held prompts: the replay menu, or the prompts chosen to replay and the one to edit. */
function replayLines(r: Restored): BriefLine[] {
  if (r.prompts.case === "A") return [];
  if (!r.replay) return replayMenu(r.prompts).map((text) => ({ text, held: true as const }));
  const lines: BriefLine[] = [];
  for (const p of r.replay.replay)
    lines.push(keep(`----- replay ${p.n} [${p.timestamp}] -----`), { text: p.text, held: true });
  const e = r.replay.edit;
  if (e)
    lines.push(
      keep(`----- edit ${e.n} [${e.timestamp}] -----`),
      { text: e.text, held: true },
      keep("Paste the edited prompt to submit it."),
    );
  return lines;
}

/** The files the restore moved to trash, the first few and a count. */
function cleanupLines(r: Restored): BriefLine[] {
  if (!r.cleanup) return [];
  const t = r.cleanup.trashed;
  return [
    ...t.slice(0, TRASHED_SHOWN).map((x) => ({ text: `[checkpoint] moved to trash: ${x.from}` })),
    ...moreLines(t.length - TRASHED_SHOWN, "moved to trash").map((l) => ({
      text: `[checkpoint] ${l}`,
    })),
  ];
}

export function restoredLines(r: Restored, engine: string): BriefLine[] {
  const lines: BriefLine[] = warningsOf(r).map(keep);
  if (r.corrupt) return [...lines, ...damagedLines(r.corrupt, engine)];
  const s = r.summary!;
  lines.push(...headLines(r));
  lines.push(...restLines(r).map((text) => ({ text })));
  if (r.needs.includes("same-session"))
    lines.push(...sameSessionLines(s.sessionId ?? "").map(keep));
  lines.push(...replayLines(r), ...cleanupLines(r));
  if (!r.done)
    lines.push(
      keep(
        `Answer, then rerun: ${engine} restore ${[...r.rerun, ...r.needs.map((n) => needFlag(r, n))].join(" ")}`,
      ),
    );
  return lines;
}

function needFlag(r: Restored, n: Restored["needs"][number]): string {
  if (n === "same-session") return "--proceed";
  if (n === "replay")
    return `--replay all|N,M|none|edit N${r.prompts.case === "C" ? "|delete" : ""}`;
  return "";
}
