import type fc from "fast-check";

// One seed per run of a fuzz file, printed with the counts, so any failure can be replayed:
//   QUOIN_FUZZ_SEED=<seed> npx vitest run <file>
// fast-check's own failure message adds the seed and the shrunk path as well.

const fromEnv = process.env["QUOIN_FUZZ_SEED"];
export const FUZZ_SEED: number =
  fromEnv !== undefined && fromEnv !== ""
    ? Number(fromEnv) | 0
    : (Date.now() ^ (process.pid << 10)) | 0;

/** QUOIN_FUZZ_SCALE=10 runs ten times the cases (a deeper local search); the default is what CI runs. */
const scale = Number(process.env["QUOIN_FUZZ_SCALE"] ?? "1");
export function runs(n: number): number {
  return Math.max(1, Math.round(n * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

export function params<T>(numRuns: number): fc.Parameters<T> {
  return { seed: FUZZ_SEED, numRuns: runs(numRuns), endOnFailure: true };
}

const counts = new Map<string, number>();
export function count(suite: string, n: number): void {
  counts.set(suite, (counts.get(suite) ?? 0) + n);
}

/** The line each fuzz file prints at its end: cases per suite, the total, and how to replay. */
export function report(file: string): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const parts = [...counts.entries()].map(([k, v]) => `${k} ${v}`).join(", ");
  return `[fuzz] ${file}: ${total} generated cases (${parts}); seed ${FUZZ_SEED}; replay: QUOIN_FUZZ_SEED=${FUZZ_SEED} npx vitest run ${file}`;
}
