import { DISPATCH_SETTING_PATTERN, MODEL_TIERS } from "./model-tiers.ts";
import { coercedNumber, lowerCaseMatching, oneOf } from "./value-checks.ts";

// One parse function per knob: a bad value costs one stderr line naming the knob, and the default
// is used. NOTE: no zod here: this file is in every hook bundle (see value-checks.ts, load cost).
const bps = coercedNumber({ int: true, min: 0, max: 100_000 });
const tokens = coercedNumber({ int: true, min: 1000, max: 100_000_000 });
const days = coercedNumber({ min: 0, max: 3650 });
const count = coercedNumber({ int: true, min: 0, max: 1_000_000 });
const hours = coercedNumber({ min: 0, max: 24 * 365 });

const KNOB_SPECS = {
  QUOIN_STOP_BPS: {
    parse: bps,
    fallback: 7000,
    expected: "an integer of basis points, 0-100000 (7000 = 70%)",
  },
  QUOIN_COMPACT_FIRST_BPS: {
    parse: bps,
    fallback: 9000,
    expected: "an integer of basis points, 0-100000",
  },
  QUOIN_BLOCK_BPS: { parse: bps, fallback: 9500, expected: "an integer of basis points, 0-100000" },
  QUOIN_PANIC_BPS: {
    parse: bps,
    fallback: 10000,
    expected: "an integer of basis points, 0-100000",
  },
  QUOIN_BLOCK_MODE: {
    parse: oneOf(["block", "advise"]),
    fallback: "block",
    expected: "'block' or 'advise'",
  },
  QUOIN_CONTEXT_WINDOW: {
    parse: tokens,
    fallback: undefined,
    expected: "a whole number of tokens, e.g. 200000",
  },
  QUOIN_EFFECTIVE_CONTEXT_LIMIT: {
    parse: tokens,
    fallback: undefined,
    expected: "a whole number of tokens",
  },
  QUOIN_AUTOCOMPACT_BUFFER: {
    parse: coercedNumber({ int: true, min: 0, max: 10_000_000 }),
    fallback: 33000,
    expected: "a whole number of tokens, e.g. 33000",
  },
  QUOIN_BYTES_PER_TOKEN: {
    parse: coercedNumber({ gt: 0, max: 1000 }),
    fallback: 8,
    expected: "a positive number, e.g. 8.0",
  },
  QUOIN_RESTORE_SENTINEL_WINDOW: { parse: days, fallback: 7, expected: "a number of days, e.g. 7" },
  QUOIN_RESTORE_STALE_DAYS: { parse: days, fallback: 1, expected: "a number of days, e.g. 1" },
  QUOIN_SESSION_FALLBACK_WINDOW: { parse: days, fallback: 7, expected: "a number of days, e.g. 7" },
  QUOIN_PICKER_DEDUP_WINDOW: { parse: days, fallback: 7, expected: "a number of days, e.g. 7" },
  QUOIN_CLEANUP_SENTINEL_WINDOW: { parse: days, fallback: 1, expected: "a number of days, e.g. 1" },
  QUOIN_CLEANUP_CKPT_WINDOW: { parse: days, fallback: 30, expected: "a number of days, e.g. 30" },
  QUOIN_ROTATE_OBSERVATIONS: {
    parse: count,
    fallback: 0,
    expected: "a whole number of prompts, 0 = off",
  },
  QUOIN_ROTATE_HOURS: { parse: hours, fallback: 0, expected: "a number of hours, 0 = off" },
  QUOIN_TRASH_DAYS: {
    parse: days,
    fallback: 30,
    expected: "a number of days, e.g. 30; 0 keeps everything",
  },
  QUOIN_SESSIONEND_DEADLINE_MS: {
    parse: coercedNumber({ int: true, min: 0, max: 600_000 }),
    fallback: 1200,
    expected: "a whole number of milliseconds, e.g. 1200",
  },
  QUOIN_SHARE: {
    // Case does not matter (AUTO is auto); anything else shares nothing by itself.
    parse: lowerCaseMatching(/^(?:auto|off)$/),
    fallback: "off",
    expected: "'auto' (every /checkpoint save is shared) or 'off'",
  },
  QUOIN_STEER_COMPACTION: {
    parse: oneOf(["0", "1"]),
    fallback: "1",
    expected: "'1' (PreCompact tells the summary what to keep) or '0' (off)",
  },
  QUOIN_1M_DISPATCH: {
    // Case does not matter (ON is on); the value is kept lower-cased, in the grammar dispatch reads.
    parse: lowerCaseMatching(DISPATCH_SETTING_PATTERN),
    fallback: undefined,
    expected: `'on', 'off', or a list of ${MODEL_TIERS.join(", ")} like 'sonnet,haiku'`,
  },
} as const;

type Specs = typeof KNOB_SPECS;
export type KnobName = keyof Specs;
export type Knobs = {
  [K in KnobName]: Exclude<ReturnType<Specs[K]["parse"]>, undefined> | Specs[K]["fallback"];
};

export const KNOB_NAMES = Object.keys(KNOB_SPECS) as KnobName[];

export function knobDefault(name: KnobName): Knobs[KnobName] {
  return KNOB_SPECS[name].fallback;
}

/** Read every knob from the environment once. Unset or empty: the default. Invalid: warn, default. */
export function readKnobs(
  env: Readonly<Record<string, string | undefined>>,
  warn: (line: string) => void,
): Knobs {
  const out: Record<string, unknown> = {};
  for (const name of KNOB_NAMES) {
    const spec = KNOB_SPECS[name];
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") {
      out[name] = spec.fallback;
      continue;
    }
    const parsed = spec.parse(raw.trim());
    if (parsed !== undefined) {
      out[name] = parsed;
    } else {
      const fallback = spec.fallback === undefined ? "none (auto-detect)" : String(spec.fallback);
      warn(
        `[quoin] ${name}=${JSON.stringify(raw)} is not valid: expected ${spec.expected}; using the default ${fallback}`,
      );
      out[name] = spec.fallback;
    }
  }
  return out as Knobs;
}

/** One knob, silently: for a library step the entry point did not hand it to (readKnobs warned there). */
export function readKnob<K extends KnobName>(
  env: Readonly<Record<string, string | undefined>>,
  name: K,
): Knobs[K] {
  const spec = KNOB_SPECS[name];
  const raw = env[name]?.trim();
  const parsed = raw ? spec.parse(raw) : undefined;
  return (parsed ?? spec.fallback) as Knobs[K];
}
