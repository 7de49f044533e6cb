import { TEXT_LIMITS } from "../core/text-limits.ts";
import { SECTIONS, SECTION_KEYS } from "./checkpoint-sections.ts";
import type { NextUp, SectionValues } from "./checkpoint-values.ts";

// The checkpoint's budget in one place: the seed's 4 KB soft cap is the aim of every automatic
// checkpoint; a checkpoint that holds the model's own document may use up to 6 KB. A floor the
// model's fields can never push out: each part of it has its own limit below. The model's fields
// share what is left, cut in the order the section table gives them (the fit below).

/** The seed's soft cap: automatic checkpoints (precompact, forced save, session end) aim at it. */
export const CHECKPOINT_SOFT_CAP_BYTES = 4096;
/** A checkpoint with the model's document (/checkpoint) may use this much, never more. */
export const CHECKPOINT_HARD_CAP_BYTES = 6144;

/** The floor: what every checkpoint keeps whatever the model wrote. */
export const FLOOR = {
  /** the first and the newest typed request, each cut to this many characters */
  requestChars: 200,
  lastWordsChars: TEXT_LIMITS.savedWordsChars,
  commitLines: 10,
  todos: 12,
  changedFiles: 8,
  readFiles: 5,
  failures: 3,
  uncommittedFiles: 8,
  /** fixes along the way and files to read first have no floor: they share the room left (the item in progress, at most 3 lines, is always kept) */
  fixes: 0,
  readFirst: 0,
} as const;

/** The model's fields: the sections whose value carries a cut count. */
export type ModelField = {
  [K in keyof SectionValues]: SectionValues[K] extends { cut: number } ? K : never;
}[keyof SectionValues];

/** The model's fields, cut first to last when the checkpoint would pass the hard cap (the table's cut ranks). */
export const MODEL_CUT_ORDER: readonly ModelField[] = SECTION_KEYS.flatMap((k) => {
  const cut = SECTIONS[k].cut;
  return cut ? [{ k: k as ModelField, rank: cut.rank }] : [];
})
  .sort((a, b) => a.rank - b.rank)
  .map((x) => x.k);

export type Cuts = Partial<Record<ModelField, number>>;

/** The model's fields as a writer holds them: free text, or a list. */
export type ModelFields = {
  inProgress?: string;
  openQuestions?: string;
  decisions?: string;
  unfinished?: string;
  done?: readonly string[];
  nextUp?: readonly NextUp[];
  blockers?: readonly string[];
};

const LONG_LINE = 400;

/** A model field as the lines the fit removes from its end. */
function modelLines<T extends ModelFields>(d: T, f: ModelField): unknown[] {
  const v = d[f];
  if (v === undefined) return [];
  if (typeof v === "string") return v.trim() === "" ? [] : v.split("\n");
  return [...v];
}

function withModelLines<T extends ModelFields>(d: T, f: ModelField, lines: unknown[]): T {
  return { ...d, [f]: typeof d[f] === "string" ? lines.join("\n") : lines };
}

const isLong = (line: unknown) => typeof line === "string" && line.length > LONG_LINE;

/**
 * One step of the fit on field `f`: a long last line is halved, else the last line goes (counted
 * in `cuts`). Returns null when the field has no line left to cut.
 */
function cutOnce<T extends ModelFields>(x: T, f: ModelField, cuts: Cuts): T | null {
  const lines = modelLines(x, f);
  const last = lines.at(-1);
  if (last === undefined) return null;
  if (typeof last === "string" && isLong(last))
    return withModelLines(x, f, [
      ...lines.slice(0, -1),
      `${last.slice(0, Math.floor(last.length / 2))}...`,
    ]);
  cuts[f] = (cuts[f] ?? 0) + 1;
  return withModelLines(x, f, lines.slice(0, -1));
}

/**
 * The model's fields cut until `fits`, with the count of lines each lost (a cut field then ends
 * with "+3 more decisions (cut to fit 6 KB)"). First in rounds, one line from the end of each
 * field that has more than one, in MODEL_CUT_ORDER: every field keeps its first line (the first
 * decision, the first open question) while a long list gives up its tail. Only then are whole
 * fields emptied, in the same order. The floor is outside these fields.
 */
export function fitModelFields<T extends ModelFields>(
  d: T,
  fits: (x: T, cuts: Cuts) => boolean,
): { data: T; cuts: Cuts } {
  let x = d;
  const cuts: Cuts = {};
  const ok = () => fits(x, cuts);
  for (let trimmed = true; trimmed && !ok(); ) {
    trimmed = false;
    for (const f of MODEL_CUT_ORDER) {
      if (ok()) break;
      const lines = modelLines(x, f);
      if (lines.length < 2 && !(lines.length === 1 && isLong(lines[0]))) continue;
      const next = cutOnce(x, f, cuts);
      if (next) [x, trimmed] = [next, true];
    }
  }
  for (const f of MODEL_CUT_ORDER) {
    while (!ok()) {
      const next = cutOnce(x, f, cuts);
      if (!next) break;
      x = next;
    }
    if (ok()) break;
  }
  return { data: x, cuts };
}

/** "2 done items, 1 decisions": what the fit cut, in the checkpoint's order; null when nothing. */
export function describeCuts(cuts: Cuts): string | null {
  const parts = SECTION_KEYS.flatMap((k) => {
    const n = cuts[k as ModelField];
    return n ? [`${n} ${SECTIONS[k].cut?.noun}`] : [];
  });
  return parts.length ? parts.join(", ") : null;
}
