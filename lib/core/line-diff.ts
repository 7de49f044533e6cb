/** A short diff for --dry-run: the changed middle of two texts, as -/+ lines. Empty when equal. */
export function changedLines(before: string, after: string, context = 2): string[] {
  if (before === after) return [];
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail += 1;
  const from = Math.max(0, head - context);
  return [
    `@@ line ${from + 1} @@`,
    ...a.slice(from, head).map((l) => `  ${l}`),
    ...a.slice(head, a.length - tail).map((l) => `- ${l}`),
    ...b.slice(head, b.length - tail).map((l) => `+ ${l}`),
    ...a.slice(a.length - tail, a.length - tail + context).map((l) => `  ${l}`),
  ];
}
