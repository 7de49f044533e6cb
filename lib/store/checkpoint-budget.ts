// The checkpoint's budget in one place (docs/checkpoint-format.md says what fills it): the seed's
// 4 KB soft cap is the aim of every automatic checkpoint; a checkpoint that holds the model's own
// document may use up to 6 KB. A floor the model's fields can never push out: each part of it has
// its own limit below. The model's fields share what is left, cut in MODEL_CUT_ORDER.

/** The seed's soft cap: automatic checkpoints (precompact, forced save, session end) aim at it. */
export const CHECKPOINT_SOFT_CAP_BYTES = 4096;
/** A checkpoint with the model's document (/checkpoint) may use this much, never more. */
export const CHECKPOINT_HARD_CAP_BYTES = 6144;

/** The floor: what every checkpoint keeps whatever the model wrote. */
export const FLOOR = {
  /** the first and the newest typed request, each cut to this many characters */
  requestChars: 200,
  lastWordsChars: 1200,
  commitLines: 10,
  todos: 12,
  changedFiles: 8,
  readFiles: 5,
  failures: 3,
  uncommittedFiles: 8,
} as const;

/** The model's fields, cut first to last when the checkpoint would pass the hard cap. */
export const MODEL_CUT_ORDER = [
  "unfinished",
  "openQuestions",
  "decisions",
  "blockers",
  "done",
  "nextUp",
  "inProgress",
] as const;
export type ModelField = (typeof MODEL_CUT_ORDER)[number];

/** The words a cut count uses ("+3 more decisions (cut to fit 6 KB)"). */
export const MODEL_FIELD_NOUN: Record<ModelField, string> = {
  unfinished: "unfinished-work lines",
  openQuestions: "open questions",
  decisions: "decisions",
  blockers: "blockers",
  done: "done items",
  nextUp: "next-up items",
  inProgress: "in-progress lines",
};
