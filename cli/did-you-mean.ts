// A mistyped command or flag is answered with the word as typed and the nearest one the engine has
// (`unknown option --jsno; did you mean --json?`), never with node's parser text.

/** Edit distance (insert, delete, replace, swap of two neighbours), stopped early past `cap`. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j += 1) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const same = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + same);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate nearest to `word`: within 2 edits (1 for words of 4 letters or fewer), or the one
 * candidate `word` is the start of; null when none is near enough or two are equally near.
 */
export function nearest(word: string, candidates: readonly string[]): string | null {
  const w = word.toLowerCase();
  const starts = candidates.filter((c) => w.length >= 2 && c.startsWith(w));
  if (starts.length === 1) return starts[0]!;
  const limit = w.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestD = limit + 1;
  let tie = false;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase(), limit);
    if (d < bestD) [best, bestD, tie] = [c, d, false];
    else if (d === bestD) tie = true;
  }
  return best !== null && !tie ? best : null;
}

/** ` did you mean X?` (with its `;`), or "" when nothing is near. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const hit = nearest(word, candidates);
  return hit === null ? "" : `; did you mean ${hit}?`;
}
