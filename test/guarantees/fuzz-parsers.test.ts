import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { count, params, report } from "./fuzz-seed.ts";
import { PARSERS } from "./parser-table.ts";

// Fuzzing the parsers: every row of the parser table (checkpoint files and their round
// trip, session-state files, each sentinel family, pending-prompt files, settings.json, transcript
// lines, the save --stdin-json document, hook payloads) gets its generated cases; no exception
// may escape a parser, and each row's own invariant must hold.

afterAll(() => console.log(report("test/guarantees/fuzz-parsers.test.ts")));

describe.each(PARSERS.map((p) => ({ ...p })))("$name", (row) => {
  it(`${row.cases} generated inputs: no exception escapes, the invariant holds`, () => {
    const p = params<[never]>(row.cases);
    fc.assert(
      fc.property(row.input, (x) => row.check(x)),
      p,
    );
    count(row.name, p.numRuns ?? 0);
  }, 180_000);
});
