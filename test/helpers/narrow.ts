// Narrowing helpers for assertions: a wrong variant fails naming what it was, instead of
// `expect(r.ok && r.x)` comparing `false` with the expected value.

/** The success variant of an `{ ok }` result; throws showing the whole result otherwise. */
export function okValue<T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok: true, got ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: true }>;
}

/** The refusal variant of an `{ ok }` result; throws showing the whole result otherwise. */
export function refusal<T extends { ok: boolean }>(r: T): Extract<T, { ok: false }> {
  if (r.ok) throw new Error(`expected ok: false, got ${JSON.stringify(r)}`);
  return r as Extract<T, { ok: false }>;
}

/** The members of union T whose tag K admits V (a member tagged "B" | "C" admits "C"). */
export type Narrowed<T, K extends keyof T, V> = T extends unknown
  ? V extends T[K]
    ? T
    : never
  : never;

/** The variant of a tagged union with this tag value; throws naming the tag it had. */
export function variant<T, K extends keyof T, const V extends T[K]>(
  value: T,
  key: K,
  tag: V,
): Narrowed<T, K, V> {
  if (value[key] !== tag)
    throw new Error(
      `expected ${String(key)} ${JSON.stringify(tag)}, got ${JSON.stringify(value[key])}`,
    );
  return value as Narrowed<T, K, V>;
}
