// The one-line cut every restore text uses (the brief, the drift lines reconcile records).

/** One line, at most `max` characters, `...` where it was cut. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 3)).trimEnd()}...`;
}

/**
 * One line of at most about `max` characters, cut only between words: an option offered to a
 * person never ends in half a word or half a path (a first word longer than `max` is kept whole).
 */
export function cutAtWord(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(" ", max - 3);
  if (space > 0) return `${flat.slice(0, space).replace(/[\s,;:]+$/, "")}...`;
  const first = flat.indexOf(" ");
  return first < 0 ? flat : `${flat.slice(0, first)}...`;
}
