// The character and item limits of the texts this tool writes for a person or the model, in one
// table every caller reads, so a limit is changed in one place and two texts never disagree on it.
// The checkpoint's own budget (6 KB and its floors) stays with the format (lib/store/
// checkpoint-budget.ts); the brief's per-section limits with the brief. No imports: the prompt
// hook's plain path reads it.

export const TEXT_LIMITS = {
  /** a line the person sees (a hook's systemMessage): the model's text says the rest */
  personLine: 200,
  /** a hook's additionalContext for the model (hook-io's capText cuts beyond it) */
  hookContext: 2000,
  /** what PreCompact prints to steer the summary (Claude Code takes up to 10,000) */
  steering: 2000,
  /** the re-entry note's digest part, within the hookContext budget */
  reentryDigest: 1200,
  /** the model's last words: how many replies, each cut to, and all of them together */
  lastWords: 5,
  lastWordChars: 300,
  lastWordsChars: 1200,
  /** the last words a checkpoint and the restore brief keep: a reply laying out a plan keeps its tail */
  savedWordChars: 800,
  savedWordsChars: 1600,
} as const;
