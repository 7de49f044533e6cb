import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { DISPATCH_SETTING_PATTERN } from "../../../lib/core/model-tiers.ts";
import { KNOB_NAMES, knobDefault, readKnobs, type KnobName } from "../../../lib/core/knobs.ts";
import {
  coercedNumber,
  firstBadField,
  isFiniteNumber,
  isRecord,
  literal,
  lowerCaseMatching,
  oneOf,
  optionalNullableString,
  optionalString,
  requiredString,
  type NumberRule,
} from "../../../lib/core/value-checks.ts";

// The hand-written checks replaced zod schemas on the hook path. Each row below says what the old
// schema answered (a number, or undefined for "not valid"); the zod schema itself is kept here as
// the reference, and every row and a random search compare the two: loosening or tightening a check
// fails this file.

/** What a zod schema answered for a text: its value, or undefined when it refused it. */
function viaZod(schema: z.ZodMiniType, input: unknown): unknown {
  const r = schema.safeParse(input);
  return r.success ? r.data : undefined;
}

interface NumberCase {
  name: string;
  rule: NumberRule;
  zod: () => z.ZodMiniType;
  rows: [string, number | undefined][];
}

// Rows every rule answers alike: how Number() reads text, and what z.coerce.number() refused.
const COMMON: [string, number | undefined][] = [
  ["Infinity", undefined],
  ["-Infinity", undefined],
  ["+Infinity", undefined],
  ["1e400", undefined],
  ["NaN", undefined],
  ["abc", undefined],
  ["70%", undefined],
  ["1_000", undefined],
  ["1,000", undefined],
  ["7 7", undefined],
  ["0x", undefined],
  ["--1", undefined],
];

const NUMBER_CASES: NumberCase[] = [
  {
    name: "no bounds (only the coercion: NaN and +-Infinity refused)",
    rule: {},
    zod: () => z.coerce.number(),
    rows: [
      ["-1e308", -1e308],
      ["1.7976931348623157e308", Number.MAX_VALUE],
      ["", 0],
      ["1e-400", 0],
    ],
  },
  {
    name: "basis points (int, 0-100000)",
    rule: { int: true, min: 0, max: 100_000 },
    zod: () => z.coerce.number().check(z.int(), z.gte(0), z.lte(100_000)),
    rows: [
      ["0", 0],
      ["100000", 100_000],
      ["-1", undefined],
      ["100001", undefined],
      ["7000.5", undefined],
      ["99999.999", undefined],
      ["7000.0", 7000],
      ["1e3", 1000],
      ["1e5", 100_000],
      ["1e-400", 0],
      [" 7 ", 7],
      ["\t12\n", 12],
      ["", 0],
      ["0x10", 16],
      ["0b11", 3],
      ["0o17", 15],
      ["+5", 5],
      ["-0", -0],
      [".5", undefined],
    ],
  },
  {
    name: "tokens (int, 1000-100000000)",
    rule: { int: true, min: 1000, max: 100_000_000 },
    zod: () => z.coerce.number().check(z.int(), z.gte(1000), z.lte(100_000_000)),
    rows: [
      ["999", undefined],
      ["1000", 1000],
      ["100000000", 100_000_000],
      ["100000001", undefined],
      ["200000.5", undefined],
      ["2e5", 200_000],
      ["0x3e8", 1000],
      ["-5", undefined],
      ["", undefined],
    ],
  },
  {
    name: "days (0-3650, fractions allowed)",
    rule: { min: 0, max: 3650 },
    zod: () => z.coerce.number().check(z.gte(0), z.lte(3650)),
    rows: [
      ["0", 0],
      ["3650", 3650],
      ["3650.0001", undefined],
      ["-0.0001", undefined],
      ["0.5", 0.5],
      [".5", 0.5],
      ["1e3", 1000],
      ["1e4", undefined],
      ["", 0],
      [" 7 ", 7],
      ["0x10", 16],
    ],
  },
  {
    name: "a count (int, 0-1000000)",
    rule: { int: true, min: 0, max: 1_000_000 },
    zod: () => z.coerce.number().check(z.int(), z.gte(0), z.lte(1_000_000)),
    rows: [
      ["1000000", 1_000_000],
      ["1000001", undefined],
      ["1.5", undefined],
      ["1e6", 1_000_000],
    ],
  },
  {
    name: "hours (0-8760)",
    rule: { min: 0, max: 24 * 365 },
    zod: () => z.coerce.number().check(z.gte(0), z.lte(24 * 365)),
    rows: [
      ["8760", 8760],
      ["8760.5", undefined],
      ["1.5", 1.5],
      ["-1", undefined],
    ],
  },
  {
    name: "the autocompact buffer (int, 0-10000000)",
    rule: { int: true, min: 0, max: 10_000_000 },
    zod: () => z.coerce.number().check(z.int(), z.gte(0), z.lte(10_000_000)),
    rows: [
      ["10000000", 10_000_000],
      ["10000001", undefined],
      ["33000", 33000],
    ],
  },
  {
    name: "bytes per token (> 0, <= 1000)",
    rule: { gt: 0, max: 1000 },
    zod: () => z.coerce.number().check(z.gt(0), z.lte(1000)),
    rows: [
      ["0", undefined],
      ["-0", undefined],
      ["", undefined],
      ["5e-324", 5e-324],
      ["0.001", 0.001],
      ["4.5", 4.5],
      ["1000", 1000],
      ["1000.0000001", undefined],
      ["1e3", 1000],
    ],
  },
  {
    name: "the SessionEnd deadline (int, 0-600000)",
    rule: { int: true, min: 0, max: 600_000 },
    zod: () => z.coerce.number().check(z.int(), z.gte(0), z.lte(600_000)),
    rows: [
      ["600000", 600_000],
      ["600001", undefined],
      ["1200.5", undefined],
    ],
  },
];

/** Number-like texts: numbers as JS prints them, with signs, exponents, radix prefixes, blanks. */
const numberish = fc.oneof(
  fc.double().map(String),
  fc.integer({ min: -2_000_000, max: 200_000_000 }).map(String),
  fc
    .tuple(
      fc.constantFrom("", " ", "\t", "\u00a0", "+", "-", "0x", "0b", "0o", "."),
      fc.stringMatching(/^[0-9a-fA-F._eE+-]{0,8}$/),
      fc.constantFrom("", " ", "\n", "e3", "e-3", ".0", ".5", "n"),
    )
    .map(([a, b, c]) => a + b + c),
  fc.string({ maxLength: 8 }),
);

describe("coercedNumber: z.coerce.number() with int/min/gt/max, exactly", () => {
  for (const c of NUMBER_CASES) {
    it.each([...c.rows, ...COMMON])(`${c.name}: %j -> %s`, (text, want) => {
      const parse = coercedNumber(c.rule);
      expect(parse(text)).toBe(want);
      expect(viaZod(c.zod(), text)).toBe(want);
    });

    it(`${c.name}: answers as zod did for any number-like text`, () => {
      const parse = coercedNumber(c.rule);
      const schema = c.zod();
      fc.assert(
        fc.property(numberish, (text) => Object.is(parse(text), viaZod(schema, text))),
        { numRuns: 3000 },
      );
    });
  }

  it("refuses beyond the safe integers, as z.int() did", () => {
    const parse = coercedNumber({ int: true, min: 0, max: Number.MAX_VALUE });
    expect(parse("9007199254740991")).toBe(9007199254740991);
    expect(parse("9007199254740992")).toBeUndefined();
    expect(
      viaZod(
        z.coerce.number().check(z.int(), z.gte(0), z.lte(Number.MAX_VALUE)),
        "9007199254740992",
      ),
    ).toBeUndefined();
  });
});

describe("oneOf: z.enum, exactly", () => {
  const parse = oneOf(["block", "advise"]);
  const schema = z.enum(["block", "advise"]);
  it.each([
    ["block", "block"],
    ["advise", "advise"],
    ["Block", undefined],
    ["ADVISE", undefined],
    ["block ", undefined],
    ["", undefined],
    ["blockadvise", undefined],
    ["toString", undefined],
    ["__proto__", undefined],
  ])("%j -> %s", (text, want) => {
    expect(parse(text)).toBe(want);
    expect(viaZod(schema, text)).toBe(want);
  });
});

describe("lowerCaseMatching: z.string().check(z.toLowerCase(), z.regex(p)), exactly", () => {
  const parse = lowerCaseMatching(DISPATCH_SETTING_PATTERN);
  const schema = z.string().check(z.toLowerCase(), z.regex(DISPATCH_SETTING_PATTERN));
  it.each([
    ["on", "on"],
    ["ON", "on"],
    ["Off", "off"],
    ["Sonnet,HAIKU", "sonnet,haiku"],
    ["opus , sonnet", "opus , sonnet"],
    ["haiku", "haiku"],
    ["maybe", undefined],
    ["on,off", undefined],
    ["sonnet,", undefined],
    ["", undefined],
    [" on", undefined],
    ["gpt", undefined],
  ])("%j -> %s", (text, want) => {
    expect(parse(text)).toBe(want);
    expect(viaZod(schema, text)).toBe(want);
  });
  it("answers as zod did for any text", () => {
    const texts = fc.oneof(
      fc
        .array(
          fc.constantFrom(
            "on",
            "OFF",
            "Sonnet",
            "haiku",
            "opus",
            ",",
            " , ",
            " ",
            "x",
            "\u0130",
            "K",
          ),
          { maxLength: 6 },
        )
        .map((p) => p.join("")),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(texts, (text) => parse(text) === viaZod(schema, text)),
      { numRuns: 3000 },
    );
  });
  it("a global pattern answers the same every time (lastIndex is reset, as zod did)", () => {
    const again = lowerCaseMatching(/^a+$/g);
    expect([again("AA"), again("AA"), again("AA")]).toEqual(["aa", "aa", "aa"]);
  });
});

const JSON_VALUES: unknown[] = [
  undefined,
  null,
  "",
  "x",
  "UserPromptSubmit",
  "userpromptsubmit",
  0,
  -0,
  1.5,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  {},
  [],
  ["x"],
  { a: 1 },
];

describe("payload fields: z.string(), z.literal(), z.nullable(z.string()), exactly", () => {
  it.each(JSON_VALUES.map((v) => [v]))("%j", (value) => {
    expect(requiredString.test(value)).toBe(z.string().safeParse(value).success);
    expect(optionalString.test(value)).toBe(z.string().safeParse(value).success);
    expect(literal("UserPromptSubmit").test(value)).toBe(
      z.literal("UserPromptSubmit").safeParse(value).success,
    );
    expect(optionalNullableString.test(value)).toBe(
      z.nullable(z.string()).safeParse(value).success,
    );
    expect(isFiniteNumber(value)).toBe(z.number().safeParse(value).success);
    expect(isRecord(value)).toBe(z.object({}).safeParse(value).success);
  });
  it("says what each field should be, in hook-io's words", () => {
    expect(
      [requiredString, optionalString, optionalNullableString, literal("SessionEnd")].map((f) => [
        f.optional,
        f.expected,
      ]),
    ).toEqual([
      [false, "string"],
      [true, "string"],
      [true, "string or null"],
      [false, '"SessionEnd"'],
    ]);
  });
  it("names the first bad field in the order given; absent optional fields pass, null ones do not", () => {
    const fields = {
      session_id: requiredString,
      hook_event_name: literal("PreCompact"),
      custom_instructions: optionalNullableString,
      trigger: optionalString,
    };
    expect(
      firstBadField({ session_id: "s", hook_event_name: "PreCompact" }, fields),
    ).toBeUndefined();
    expect(
      firstBadField(
        { session_id: "s", hook_event_name: "PreCompact", custom_instructions: null },
        fields,
      ),
    ).toBeUndefined();
    expect(
      firstBadField({ session_id: "s", hook_event_name: "PreCompact", trigger: null }, fields),
    ).toEqual({ name: "trigger", expected: "string" });
    expect(firstBadField({ session_id: 5, hook_event_name: "Stop" }, fields)).toEqual({
      name: "session_id",
      expected: "string",
    });
    expect(firstBadField({ session_id: "s" }, fields)).toEqual({
      name: "hook_event_name",
      expected: '"PreCompact"',
    });
  });
});

describe("readKnobs on the new checks", () => {
  it("trims, then reads the number as z.coerce.number() did", () => {
    const k = readKnobs(
      {
        QUOIN_STOP_BPS: " 7 ",
        QUOIN_BLOCK_BPS: "1e3",
        QUOIN_PANIC_BPS: "0x10",
        QUOIN_BYTES_PER_TOKEN: "\t4.5\n",
        QUOIN_1M_DISPATCH: " Sonnet,Haiku ",
      },
      () => {},
    );
    expect(k).toMatchObject({
      QUOIN_STOP_BPS: 7,
      QUOIN_BLOCK_BPS: 1000,
      QUOIN_PANIC_BPS: 16,
      QUOIN_BYTES_PER_TOKEN: 4.5,
      QUOIN_1M_DISPATCH: "sonnet,haiku",
    });
  });
  it.each([
    ["QUOIN_STOP_BPS", "Infinity", "an integer of basis points, 0-100000 (7000 = 70%)", "7000"],
    [
      "QUOIN_CONTEXT_WINDOW",
      "200000.5",
      "a whole number of tokens, e.g. 200000",
      "none (auto-detect)",
    ],
    ["QUOIN_BYTES_PER_TOKEN", " 0 ", "a positive number, e.g. 8.0", "8"],
    ["QUOIN_BLOCK_MODE", "Advise", "'block' or 'advise'", "block"],
    [
      "QUOIN_1M_DISPATCH",
      "maybe",
      "'on', 'off', or a list of haiku, sonnet, opus like 'sonnet,haiku'",
      "none (auto-detect)",
    ],
  ])("%s=%j: the exact warning line", (name, raw, expected, fallback) => {
    const warnings: string[] = [];
    readKnobs({ [name]: raw }, (l) => warnings.push(l));
    expect(warnings).toEqual([
      `[quoin] ${name}=${JSON.stringify(raw)} is not valid: expected ${expected}; using the default ${fallback}`,
    ]);
  });

  // Each knob's schema as knobs.ts had it: the wiring (which knob reads which rule) must not move.
  const bps = () => z.coerce.number().check(z.int(), z.gte(0), z.lte(100_000));
  const tokens = () => z.coerce.number().check(z.int(), z.gte(1000), z.lte(100_000_000));
  const days = () => z.coerce.number().check(z.gte(0), z.lte(3650));
  const ZOD_KNOBS: Record<KnobName, () => z.ZodMiniType> = {
    QUOIN_STOP_BPS: bps,
    QUOIN_COMPACT_FIRST_BPS: bps,
    QUOIN_BLOCK_BPS: bps,
    QUOIN_PANIC_BPS: bps,
    QUOIN_BLOCK_MODE: () => z.enum(["block", "advise"]),
    QUOIN_CONTEXT_WINDOW: tokens,
    QUOIN_EFFECTIVE_CONTEXT_LIMIT: tokens,
    QUOIN_AUTOCOMPACT_BUFFER: () => z.coerce.number().check(z.int(), z.gte(0), z.lte(10_000_000)),
    QUOIN_BYTES_PER_TOKEN: () => z.coerce.number().check(z.gt(0), z.lte(1000)),
    QUOIN_RESTORE_SENTINEL_WINDOW: days,
    QUOIN_RESTORE_STALE_DAYS: days,
    QUOIN_SESSION_FALLBACK_WINDOW: days,
    QUOIN_PICKER_DEDUP_WINDOW: days,
    QUOIN_CLEANUP_SENTINEL_WINDOW: days,
    QUOIN_CLEANUP_CKPT_WINDOW: days,
    QUOIN_ROTATE_OBSERVATIONS: () => z.coerce.number().check(z.int(), z.gte(0), z.lte(1_000_000)),
    QUOIN_ROTATE_HOURS: () => z.coerce.number().check(z.gte(0), z.lte(24 * 365)),
    QUOIN_TRASH_DAYS: days,
    QUOIN_SESSIONEND_DEADLINE_MS: () => z.coerce.number().check(z.int(), z.gte(0), z.lte(600_000)),
    QUOIN_SHARE: () => z.string().check(z.toLowerCase(), z.regex(/^(?:auto|off)$/)),
    QUOIN_STEER_COMPACTION: () => z.enum(["0", "1"]),
    QUOIN_1M_DISPATCH: () => z.string().check(z.toLowerCase(), z.regex(DISPATCH_SETTING_PATTERN)),
  };
  const PROBES = [
    ...new Set([
      ...NUMBER_CASES.flatMap((c) => c.rows.map(([t]) => t)),
      ...COMMON.map(([t]) => t),
      "block",
      "advise",
      "on",
      "ON",
      "sonnet,haiku",
      "auto",
      "AUTO",
      "off",
      "3651",
      "8761",
      "1e7",
      "1e8",
      "600000.5",
    ]),
  ];

  it.each(KNOB_NAMES.map((n) => [n]))("%s answers every probe as its zod schema did", (name) => {
    for (const text of PROBES) {
      const got = readKnobs({ [name]: text }, () => {})[name];
      const want =
        text.trim() === ""
          ? knobDefault(name)
          : (viaZod(ZOD_KNOBS[name](), text.trim()) ?? knobDefault(name));
      expect(
        Object.is(got, want),
        `${name}=${JSON.stringify(text)}: got ${String(got)}, want ${String(want)}`,
      ).toBe(true);
    }
  });
});
