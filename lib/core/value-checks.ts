// The checks the hooks and the status line run on what reaches them: QUOIN_* knobs, the fields of
// a hook payload, a pidfile's JSON. NOTE: hand-written on purpose, not zod. Merely loading zod/mini
// in a hook bundle costs 3-4 ms, 3-4 % of a bare `node -e 0`, even when no schema is built, and
// UserPromptSubmit pays it before every prompt. zod stays where only the engine (cli/) validates a
// document: save's --stdin-json, a skill's front matter, dispatch's config and cache, the
// installer. Each check keeps the exact semantics of the zod schema it replaced;
// test/unit/core/value-checks.test.ts holds them side by side with zod.

/** A parser of one trimmed text (a knob's value): the value it means, or undefined when not valid. */
export type TextParse<T> = (text: string) => T | undefined;

export interface NumberRule {
  /** a safe integer (z.int()) */
  int?: boolean;
  /** value >= min (z.gte) */
  min?: number;
  /** value > gt (z.gt) */
  gt?: number;
  /** value <= max (z.lte) */
  max?: number;
}

/**
 * A number as z.coerce.number() read it: `Number(text)` ("1e3" is 1000, "0x10" is 16, "" is 0),
 * never NaN or +-Infinity, then the rule's checks.
 */
export function coercedNumber(rule: NumberRule): TextParse<number> {
  return (text) => {
    const n = Number(text);
    if (!Number.isFinite(n)) return undefined;
    if (rule.int && !Number.isSafeInteger(n)) return undefined;
    if (rule.min !== undefined && !(n >= rule.min)) return undefined;
    if (rule.gt !== undefined && !(n > rule.gt)) return undefined;
    if (rule.max !== undefined && !(n <= rule.max)) return undefined;
    return n;
  };
}

/** One of a fixed set of strings, exactly (z.enum): no case folding. */
export function oneOf<const V extends string>(values: readonly V[]): TextParse<V> {
  return (text) => ((values as readonly string[]).includes(text) ? (text as V) : undefined);
}

/** The text lower-cased, when it then matches `pattern` (z.string().check(z.toLowerCase(), z.regex(pattern))). */
export function lowerCaseMatching(pattern: RegExp): TextParse<string> {
  return (text) => {
    const value = text.toLowerCase();
    pattern.lastIndex = 0;
    return pattern.test(value) ? value : undefined;
  };
}

export function isString(value: unknown): value is string {
  return typeof value === "string";
}

/** A number JSON can hold that is not NaN or +-Infinity (z.number(); JSON.parse reads 1e999 as Infinity). */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** A JSON object: not null, not an array (what z.object accepts). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One field of a payload: its check, whether it may be absent (undefined), and what it should be. */
export interface FieldCheck {
  test: (value: unknown) => boolean;
  optional: boolean;
  expected: string;
}

export const requiredString: FieldCheck = { test: isString, optional: false, expected: "string" };
export const optionalString: FieldCheck = { test: isString, optional: true, expected: "string" };
export const optionalNullableString: FieldCheck = {
  test: (v) => v === null || isString(v),
  optional: true,
  expected: "string or null",
};

/** Exactly this string (z.literal). */
export function literal(value: string): FieldCheck {
  return { test: (v) => v === value, optional: false, expected: JSON.stringify(value) };
}

/** The first field, in the order given, whose value does not pass; undefined when all do. */
export function firstBadField(
  record: Record<string, unknown>,
  fields: Record<string, FieldCheck>,
): { name: string; expected: string } | undefined {
  for (const [name, field] of Object.entries(fields)) {
    const value = record[name];
    if (value === undefined && field.optional) continue;
    if (!field.test(value)) return { name, expected: field.expected };
  }
  return undefined;
}
