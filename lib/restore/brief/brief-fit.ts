// The 8 KB of `restore --json`: `show` is fitted to what the other fields leave. Lines are kept in
// the order they are given; `keep` lines (kind, task, file, drift) and `held` text (prompts offered
// for replay, a corrupt checkpoint's raw text: text that must not be lost) are never cut.

/** At most this many bytes of `restore --json`, held prompts and a corrupt checkpoint's raw text excepted. */
const BRIEF_MAX_BYTES = 8192;

/** A line of the brief: `held` lines (prompts for replay, a corrupt checkpoint's text) are never cut, `keep` lines neither. */
export interface BriefLine {
  text: string;
  held?: true;
  keep?: true;
}

const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/**
 * Fit `show` so that the whole answer stays under BRIEF_MAX_BYTES, held text excepted: lines are
 * dropped from the end of the cuttable ones (the git and session detail), and one line says how
 * many and where the rest is.
 */
export function fitShow(
  lines: readonly BriefLine[],
  others: object,
  file: string | null,
): string[] {
  // the held prompts' fields count as their empty forms
  const o = others as Record<string, unknown>;
  const bare = {
    ...o,
    ...("pendingPrompts" in o ? { pendingPrompts: { case: "A" } } : {}),
    ...("replay" in o ? { replay: null } : {}),
    show: [],
  };
  // one byte for the newline printJson adds
  const budget = BRIEF_MAX_BYTES - 1 - jsonBytes(bare);
  const total = lines.filter((l) => !l.held).reduce((n, l) => n + jsonBytes(l.text) + 1, 0);
  if (total <= budget) return lines.map((l) => l.text);
  const note = (n: number) =>
    `[checkpoint] brief cut to ${BRIEF_MAX_BYTES} bytes: ${n} more line(s)${file ? `; read ${file} for the rest` : ""}`;
  let over = total - budget + jsonBytes(note(lines.length)) + 1;
  const drop = new Set<number>();
  for (let i = lines.length - 1; i >= 0 && over > 0; i -= 1) {
    const l = lines[i]!;
    if (l.held || l.keep) continue;
    drop.add(i);
    over -= jsonBytes(l.text) + 1;
  }
  const out: string[] = [];
  let noted = false;
  lines.forEach((l, i) => {
    if (!drop.has(i)) out.push(l.text);
    else if (!noted) {
      out.push(note(drop.size));
      noted = true;
    }
  });
  return out;
}
