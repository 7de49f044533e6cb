// "a, b, +N more": a list shown in part says how many it left out, by count or by characters.
// One spelling everywhere (`+N more`, then the noun when the line does not say what it lists), so a
// reader (and moreCount, which reads a checkpoint's lines back) meets one form.

/** `+N more` or `+N more <noun>`; "" when nothing was left out. */
export function moreText(n: number, noun?: string): string {
  if (n <= 0) return "";
  return noun ? `+${n} more ${noun}` : `+${n} more`;
}

/** `+N more[ noun]` as a line (or list item) of its own, or none: a checkpoint's and a brief's lists. */
export const moreLines = (n: number, noun?: string): string[] => (n > 0 ? [moreText(n, noun)] : []);

/** The first `max` items joined by `sep`, then `<sep>+N more[ noun]` when some were left out. */
export function firstOf(items: readonly string[], max: number, sep = ", ", noun?: string): string {
  const rest = items.length - max;
  const shown = items.slice(0, Math.max(0, max)).join(sep);
  return rest > 0 ? `${shown}${shown ? sep : ""}${moreText(rest, noun)}` : shown;
}

/** Room kept for the `+N more` that may follow the last item shown (up to 9,999 left out). */
const MORE_ROOM = 12;

/**
 * Items joined by `sep` while they fit in `max` characters with room for the `+N more` after them,
 * then `<sep>+N more` (the first item always, however long).
 */
export function listWithin(items: readonly string[], max: number, sep = ", "): string {
  const shown: string[] = [];
  let used = 0;
  for (const item of items) {
    if (shown.length && used + item.length + sep.length + MORE_ROOM > max) break;
    shown.push(item);
    used += item.length + sep.length;
  }
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(sep)}${sep}${moreText(rest)}` : shown.join(sep);
}

/** The first `max` of a list, each shown by `show`, then `<indent>+N more <noun>` as its own line. */
export function boundedLines<T>(
  list: readonly T[],
  max: number,
  noun: string,
  show: (t: T) => string,
  indent = "",
): string[] {
  const more = moreLines(list.length - max, noun).map((l) => `${indent}${l}`);
  return [...list.slice(0, max).map(show), ...more];
}
