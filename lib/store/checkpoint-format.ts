import { renderSections, sanitizeBody, type Section } from "../core/markdown-sections.ts";
import { utcIso } from "../core/time-format.ts";
import {
  CHECKPOINT_HARD_CAP_BYTES,
  CHECKPOINT_SOFT_CAP_BYTES,
  fitModelFields,
  type Cuts,
  type ModelField,
  type ModelFields,
} from "./checkpoint-budget.ts";
import { digestFit, digestValues, type CheckpointDigest } from "./checkpoint-digest.ts";
import {
  completedValue,
  plainCommitsValue,
  uncommittedValue,
  type Handover,
} from "./checkpoint-handover.ts";
import { SECTIONS, SECTION_KEYS } from "./checkpoint-sections.ts";
import type {
  CheckpointValues,
  CommitRef,
  CutText,
  InFlightArtifacts,
} from "./checkpoint-values.ts";

// The checkpoint file: what a writer knows (CheckpointData) becomes section values, fitted to the
// cap, and is written through the section table; a file is read back through the same table into
// ParsedCheckpoint (checkpoint-parse.ts), the one reader of a checkpoint file.

export interface CheckpointData extends ModelFields {
  status: string;
  currentStage: string;
  task: string;
  branch: string;
  /**
   * The commit HEAD pointed at (lib/core/git.ts readHeadCheap); null: not a repository or no
   * commit yet, written `(none)`. Every writer sets it; undefined leaves the section out.
   */
  head?: string | null;
  /** null when no usable session id was known at save time */
  sessionId: string | null;
  /** Claude Code's transcript folder name for the launch cwd */
  projectHash: string;
  savedAt: Date;
  intent?: string;
  planFile?: string | null;
  artifacts: InFlightArtifacts;
  commits?: readonly CommitRef[];
  /** finished items in words (the model's `done`); commits stay in `commits` */
  done?: readonly string[];
  notes?: readonly string[];
  /** the transcript digest; its floor is always kept, the rest fitted under the cap */
  digest?: CheckpointDigest | null;
  /** this session's commits checked against git, and its uncommitted files */
  handover?: Handover | null;
  /** the model's own document came with this save (/checkpoint --stdin-json): the 6 KB hard cap */
  modelDocument?: boolean;
  /**
   * the transcript path a save looked at and did not find: the sections from the transcript say
   * `(unknown: no transcript at <path>)`, the uncommitted files are git status's
   */
  transcriptMissing?: string | null;
}

/** The cap a checkpoint aims at: 6 KB when it holds the model's document, else the 4 KB soft cap. */
export function capOf(d: CheckpointData): number {
  return d.modelDocument ? CHECKPOINT_HARD_CAP_BYTES : CHECKPOINT_SOFT_CAP_BYTES;
}

/** How free text becomes section text: asciiBody (lib/core/ascii-text.ts) for a full save, sanitizeBody for quoin's own text. */
export type Clean = (text: string) => string;

const textOrNull = (value: string | undefined, clean: Clean) =>
  value && value.trim() !== "" ? clean(value) : null;

/** Values as text, in the table's order: a section for each key present. */
export function renderValues(v: CheckpointValues): string {
  const sections: Section[] = [];
  for (const k of SECTION_KEYS) {
    const value = v[k];
    if (value === undefined) continue;
    const render = SECTIONS[k].render as (x: typeof value) => string;
    sections.push({ title: SECTIONS[k].title, body: render(value) });
  }
  return renderSections(sections);
}

/**
 * The sections every checkpoint starts with: who, what, where, when. `clean` is asciiBody for a
 * full save; the skeleton (prompt hook, precompact) passes sanitizeBody: its text is quoin's own,
 * and any-ascii's tables stay out of those bundles.
 */
function headValues(d: CheckpointData, clean: Clean): CheckpointValues {
  return {
    status: clean(d.status),
    currentStage: textOrNull(d.currentStage, clean),
    task: clean(d.task),
    branch: d.branch,
    ...(d.head !== undefined ? { head: d.head } : {}),
    sessionId: d.sessionId,
    savedAt: utcIso(d.savedAt),
    sessionLink: {
      sessionId: d.sessionId,
      projectHash: d.projectHash,
      ...(d.transcriptMissing ? { missing: d.transcriptMissing } : {}),
    },
  };
}

/** Notes (when any) and the restore hint close every checkpoint. */
function tailValues(d: CheckpointData, clean: Clean): CheckpointValues {
  return {
    ...(d.notes?.length ? { notes: d.notes.map(clean) } : {}),
    restoreHint: { task: clean(d.task), branch: d.branch },
  };
}

/** The completed section (always) and, when git was asked, the uncommitted one. */
function handoverValues(d: CheckpointData, clean: Clean): CheckpointValues {
  const closed = d.digest?.closedItems ?? 0;
  const missing = {
    ...(d.transcriptMissing ? { unknown: d.transcriptMissing } : {}),
    ...(closed > 0 ? { closedItems: closed } : {}),
  };
  if (!d.handover) return { completed: { ...plainCommitsValue(d.commits, clean), ...missing } };
  return {
    completed: { ...completedValue(d.handover, clean), ...missing },
    ...(d.handover.uncommitted
      ? {
          uncommitted: {
            ...uncommittedValue(d.handover.uncommitted),
            ...(d.transcriptMissing ? { notKnown: true as const } : {}),
          },
        }
      : {}),
  };
}

/** The model's sections of a full save, each with its cut count. */
function modelValues(d: CheckpointData, clean: Clean, cuts: Cuts): CheckpointValues {
  const cut = (f: ModelField) => cuts[f] ?? 0;
  const text = (f: "inProgress" | "openQuestions" | "decisions" | "unfinished"): CutText => ({
    text: textOrNull(d[f], clean),
    cut: cut(f),
  });
  return {
    ...(d.done?.length || cuts.done
      ? {
          done: {
            items: (d.done ?? []).map((i) => clean(i).replace(/\n/g, " ")),
            cut: cut("done"),
          },
        }
      : {}),
    inProgress: text("inProgress"),
    nextUp: {
      items: (d.nextUp ?? []).map((n) => ({
        item: clean(n.item),
        prerequisitesMet: n.prerequisitesMet,
      })),
      cut: cut("nextUp"),
    },
    blockers: { items: (d.blockers ?? []).map(clean), cut: cut("blockers") },
    openQuestions: text("openQuestions"),
    decisions: text("decisions"),
    unfinished: text("unfinished"),
  };
}

const bytes = (s: string) => Buffer.byteLength(s);

/**
 * The body, then the digest, then notes and the hint: the digest's floor always, the model's
 * fields cut to fit the cap around it, then the rest of the digest in what is left. The handover's
 * own lines (work items, what closed items did, the files of the work in progress, the fixes) may
 * take a checkpoint past the 4 KB soft cap up to the 6 KB hard cap; `limit` is the cap that
 * applies to this text: the soft cap plus what they took, or the hard cap.
 */
function withDigest(
  d0: CheckpointData,
  bodyOf: (d: CheckpointData, cuts: Cuts) => CheckpointValues,
  clean: Clean,
): { text: string; cuts: Cuts; limit: number } {
  const cap = capOf(d0);
  let extra = CHECKPOINT_HARD_CAP_BYTES - cap;
  const tail = tailValues(d0, clean);
  const floor = digestValues(d0.digest, 0);
  // The model's fields (or a session-state file's) are cut only past the hard cap; the rest of
  // the digest fills up to the checkpoint's own cap.
  const { data: d, cuts } = fitModelFields(
    d0,
    (x, c) =>
      bytes(renderValues({ ...bodyOf(x, c), ...floor, ...tail })) <= CHECKPOINT_HARD_CAP_BYTES,
  );
  const body = bodyOf(d, cuts);
  let room = cap - bytes(renderValues({ ...body, ...tail }));
  // The digest's headings and count lines are estimated; a second fit takes off what the first
  // overshot: from the general room, or from the handover's when the general room gave up nothing.
  let before = -1;
  for (let pass = 0; pass < 4; pass += 1) {
    const fit = digestFit(d.digest, room, extra);
    const text = renderValues({ ...body, ...fit.values, ...tail });
    const limit = Math.min(CHECKPOINT_HARD_CAP_BYTES, cap + fit.extraUsed);
    const over = bytes(text) - limit;
    if (over <= 0 || !d.digest) return { text, cuts, limit };
    if (bytes(text) === before && extra > 0) extra = Math.max(0, extra - over);
    else room -= over;
    before = bytes(text);
  }
  // Still over after three fits (the floor alone passes the soft cap): the floor, and the
  // handover's lines in what the hard cap leaves beside it.
  const alone = renderValues({ ...body, ...floor, ...tail });
  // (a quarter of the room left is kept for the handover sections' headings and counts)
  const left = ((CHECKPOINT_HARD_CAP_BYTES - bytes(alone)) * 3) >> 2;
  const text = renderValues({ ...body, ...digestFit(d.digest, -Infinity, left).values, ...tail });
  return bytes(text) <= CHECKPOINT_HARD_CAP_BYTES
    ? { text, cuts, limit: CHECKPOINT_HARD_CAP_BYTES }
    : { text: alone, cuts, limit: cap };
}

/**
 * The seed's full checkpoint format, with seed 001's plan, commits, next-up and blockers, and the
 * digest; `cuts`: the lines of the model's fields the 6 KB fit took (each also counted in the file).
 */
export function renderCheckpoint(
  d: CheckpointData,
  clean: Clean,
): { text: string; cuts: Cuts; limit: number } {
  return withDigest(
    d,
    (x, cuts) => ({
      ...headValues(x, clean),
      intent:
        textOrNull(x.intent, clean) ??
        (x.transcriptMissing ? `(unknown: no transcript at ${x.transcriptMissing})` : null),
      planFile: x.planFile ?? null,
      artifacts: x.artifacts,
      ...handoverValues(x, clean),
      ...modelValues(x, clean, cuts),
    }),
    clean,
  );
}

/**
 * The skeleton of the panic tier, the forced save and precompact: cheap fields, and the digest
 * when the writer read one (the intent section then holds the newest request, so a picker row can
 * show it). Commits when the writer has them: from the transcript (checked against git or marked
 * unchecked), or from git alone; the plain skeleton has none.
 */
export function renderSkeletonCheckpoint(d: CheckpointData): string {
  const body: CheckpointValues = {
    ...headValues(d, sanitizeBody),
    ...(d.intent ? { intent: textOrNull(d.intent, sanitizeBody) } : {}),
    artifacts: d.artifacts,
    ...(d.handover || d.commits ? handoverValues(d, sanitizeBody) : {}),
  };
  return withDigest(d, () => body, sanitizeBody).text;
}
