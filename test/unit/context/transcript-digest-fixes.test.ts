import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { segmentsOf, settles } from "../../../lib/context/transcript-digest-fixes.ts";
import {
  bash,
  fixtureLines,
  sayLine,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
} from "../../helpers/transcript-lines.ts";

// A failure is settled by a later success of the same program and subcommand on the same target.
// Each row: the failed command and its output, the later passing command and its output, settled?
// Rows marked "real" are commands (and outputs) of the fixture transcripts; the rest are hand-made.
const CASES: Array<[string, string, string, string, string, boolean]> = [
  // [name, failed, its output, passed, its output, settles]
  [
    "real: git push with no upstream, then --set-upstream",
    "git push 2>&1",
    "fatal: The current branch spotter-dov has no upstream branch.",
    "git push --set-upstream origin spotter-dov 2>&1",
    "branch 'spotter-dov' set up to track 'origin/spotter-dov'.",
    true,
  ],
  [
    "git push settled by a commit and push in one compound command",
    "git push",
    "error: failed to push some refs",
    'git add -A && git commit -m "x" && git push',
    "[main 1a2b3c4] x\n",
    true,
  ],
  [
    "near miss: git push to another remote",
    "git push",
    "fatal: no upstream",
    "git push upstream main",
    "",
    false,
  ],
  [
    "near miss: git push after || (it may not have run)",
    "git push",
    "fatal: no upstream",
    "git push || true",
    "",
    false,
  ],
  [
    "near miss: a pushed branch other than the failed one",
    "git push origin feature-a",
    "rejected",
    "git push origin feature-b",
    "",
    false,
  ],
  [
    "mix test path settled by a later whole mix test",
    "mix test test/a_test.exs:12 2>&1 | tail -20",
    "1 test, 1 failure",
    "mix test 2>&1 | tail -5",
    "14 doctests, 410 tests, 0 failures",
    true,
  ],
  [
    "mix test path settled by a run of its folder",
    "mix test test/spotter_web/live/session_live_test.exs",
    "1 failure",
    "mix test test/spotter_web/live",
    "12 tests, 0 failures",
    true,
  ],
  [
    "near miss: a later run of a different test file",
    "mix test test/a_test.exs",
    "1 failure",
    "mix test test/b_test.exs",
    "3 tests, 0 failures",
    false,
  ],
  [
    "near miss: the whole suite ran but shows failures (piped, so the exit is tail's)",
    "mix test test/a_test.exs",
    "1 failure",
    "mix test 2>&1 | tail -3",
    "410 tests, 2 failures",
    false,
  ],
  [
    "npm test settled by npm test -t x when the output shows the failing test passing",
    "npm test",
    " FAIL  test/parser.test.ts > parses dates\n",
    "npm test -- -t 'parses dates'",
    " ✓ test/parser.test.ts > parses dates 3ms\n Test Files  1 passed (1)",
    true,
  ],
  [
    "near miss: npm test -t for another test",
    "npm test",
    " FAIL  test/parser.test.ts > parses dates\n",
    "npm test -- -t 'parses times'",
    " ✓ test/parser.test.ts > parses times 3ms\n",
    false,
  ],
  [
    "near miss: npm run lint does not settle npm test",
    "npm test",
    "FAIL x",
    "npm run lint",
    "",
    false,
  ],
  [
    "cd before the command changes nothing",
    "cd /repo && cargo build",
    "error[E0308]: mismatched types",
    "cargo build --release",
    "Finished",
    true,
  ],
  [
    "near miss: another subcommand of the same program",
    "cargo build",
    "error",
    "cargo check",
    "Finished",
    false,
  ],
];

describe("settles: the same program, subcommand and target", () => {
  it.each(CASES)("%s", (_name, failed, failedOut, passed, passedOut, expected) => {
    const f = segmentsOf(failed).all.at(-1)!;
    const ok = segmentsOf(passed).passedWithWhole.some((p) =>
      settles({ segment: f, output: failedOut }, { segment: p, output: passedOut }),
    );
    expect(ok).toBe(expected);
  });

  it.each(CASES)("in a transcript: %s", (_name, failed, failedOut, passed, passedOut, expected) => {
    const d = digestLines(
      [
        ...bash("f", failed, failedOut, true, "2026-11-29T12:01:00.000Z"),
        sayLine("The branch has no upstream; I will set it.", "2026-11-29T12:01:30.000Z"),
        ...bash("p", passed, passedOut, false, "2026-11-29T12:02:00.000Z"),
      ],
      { projectRoot: "/repo" },
    );
    expect(d.failures.length).toBe(expected ? 0 : 1);
    expect(d.fixed.length).toBe(expected ? 1 : 0);
    if (expected)
      expect(d.fixed[0]).toMatchObject({
        fixedAt: "2026-11-29T12:02:00.000Z",
        fixedBy: passed,
        explanation: "The branch has no upstream; I will set it.",
      });
  });

  it("a heredoc's body is not read as commands", () => {
    const cmd = "git commit -m \"$(cat <<'EOF'\nfix: x && git push\nEOF\n)\"";
    expect(segmentsOf(cmd).all.map((s) => `${s.program} ${s.sub}`)).toEqual(["git commit"]);
  });
});

describe("the real spotter session", () => {
  const d = digestLines(fixtureLines(SPOTTER), {
    projectRoot: SPOTTER_ROOT,
    sessionId: SPOTTER_SID,
  });

  it("no failure stands at its end: the push, the ignored add and the refused commits were settled", () => {
    expect(d.failures).toEqual([]);
  });

  it("the fixes, newest first, with the model's first words after each failure", () => {
    expect(d.fixed.map((f) => [f.command.slice(0, 20), f.fixedBy.slice(0, 24)])).toEqual([
      ["git push 2>&1", "git push --set-upstream "],
      ["git add .beads/issue", "git add lib/spotter/serv"],
      ["git add .beads/issue", "git add lib/spotter/serv"],
      ['git commit -m "$(cat', "git add lib/spotter/serv"],
      ['git commit -m "$(cat', "git add lib/spotter/serv"],
    ]);
    expect(d.fixed[0]!.explanation).toBeNull();
    expect(d.fixed.find((f) => f.explanation?.startsWith("Dialyzer says"))).toBeDefined();
  });
});
