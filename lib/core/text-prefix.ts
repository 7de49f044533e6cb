// Who speaks, by the prefix of the line: one prefix per speaker. A scan test
// (test/unit/core/text-prefix.test.ts) fails on any other bracketed prefix in lib/, cli/, hooks/.

export const PREFIX = {
  /** a line the person sees: a hook's systemMessage, the installer's output, a bad knob value */
  person: "[quoin]",
  /** a hook's text for the model: additionalContext, the PreCompact steering */
  model: "[quoin-checkpoint]",
  /** the engine's warnings and notes in its answers (save, restore, cleanup, status, pidfile) */
  engine: "[checkpoint]",
  /** a command-line error on stderr */
  cliError: "quoin-checkpoint:",
} as const;

/** Seed 001's literal size warning, kept as the seed spells it (a reader may match it). */
export const SEED_WARNING = "[quoin checkpoint] WARNING:";
