// Each fact of a restore answer once: `show` says the checkpoint for the person and the model; the
// other fields hold only what `next`, a rerun or a program needs and `show` does not say.

/** The fields whose text is meant to sit beside `show`: the lines, the steps, the files to Read. */
const BESIDE_SHOW = new Set(["show", "next", "file", "reread"]);

/** A string this long said twice is a repeated fact, not a shared word or a flag. */
const FACT_CHARS = 24;

function strings(v: unknown, at: string, out: Array<{ at: string; text: string }>): void {
  if (typeof v === "string") out.push({ at, text: v });
  else if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) strings(x, `${at}[${i}]`, out);
  } else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) strings(x, at ? `${at}.${k}` : k, out);
}

/** What a restore answer says twice: a field's string inside a `show` line, or a `show` line repeated. */
export function briefRepeats(j: Record<string, unknown>): string[] {
  const show = (j["show"] as string[] | undefined) ?? [];
  const found: string[] = [];
  const values: Array<{ at: string; text: string }> = [];
  for (const [k, v] of Object.entries(j)) if (!BESIDE_SHOW.has(k)) strings(v, k, values);
  for (const { at, text } of values) {
    if (text.trim().length < FACT_CHARS) continue;
    const line = show.find((l) => l.includes(text.trim()));
    if (line) found.push(`${at} is in show: ${JSON.stringify(line.slice(0, 100))}`);
  }
  const seen = new Set<string>();
  for (const l of show) {
    if (l.trim() !== "" && seen.has(l)) found.push(`show line twice: ${JSON.stringify(l)}`);
    seen.add(l);
  }
  return found;
}
