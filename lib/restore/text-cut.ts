// The one-line cut every restore text uses (the brief, the drift lines reconcile records).

/** One line, at most `max` characters, `...` where it was cut. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 3)).trimEnd()}...`;
}
