import { describe, expect, it } from "vitest";
import { TEXT_LIMITS } from "../../../lib/core/text-limits.ts";
import { progressOf, trackerClose } from "../../../lib/context/transcript-handover.ts";

const at = (m: number) => `2026-12-01T10:${String(m).padStart(2, "0")}:00Z`;

describe("trackerClose: a tracker item closed or a change merged by the model", () => {
  it.each([
    ["bd close spotter-dov.2 --reason=done", "$ bd close spotter-dov.2 --reason=done"],
    ["gh issue close 12 -c 'fixed'", "$ gh issue close 12 -c 'fixed'"],
    ["gh pr merge 40 --squash", "$ gh pr merge 40 --squash"],
    ["git add . && bd close x-1", "$ bd close x-1"],
    ["bd list", null],
    ["gh issue view 12", null],
    ["echo bd close x", null],
  ])("%s", (command, expected) => expect(trackerClose(command)).toBe(expected));
});

describe("progressOf: what the model said it finished", () => {
  const words = [
    { text: "Let me read the tests first.", at: at(1) },
    { text: "All 397 tests pass and no new credo issues.", at: at(2) },
    { text: "Task `a.1` is done and unblocked `a.2`.", at: at(3) },
    { text: "Now I will edit the renderer.", at: at(4) },
    { text: "All 410 tests pass. Let me also check credo:", at: at(5) },
  ];
  it("keeps replies that report an outcome, not narration, oldest first", () => {
    const out = progressOf(words, [], []);
    expect(out.map((w) => w.at)).toEqual([at(2), at(3), at(5)]);
  });
  it("leaves out what the last words already say and merges tracker closes in time order", () => {
    const out = progressOf(words, [{ text: "$ bd close a.1", at: at(3) }], [words[4]!]);
    expect(out.map((w) => w.text)).toEqual([
      "All 397 tests pass and no new credo issues.",
      "Task `a.1` is done and unblocked `a.2`.",
      "$ bd close a.1",
    ]);
  });
  it("keeps the report, not the next step said after it", () => {
    const out = progressOf(
      [
        {
          text: "All 59 existing tests pass. Now let me add the new tests for the new features, then run the full suite:",
          at: at(1),
        },
        { text: "All 410 tests pass. Let me also check credo:", at: at(2) },
        // what comes before the report stays; each next step after it goes
        { text: "Good. All 72 tests pass. Next, the CSS.", at: at(3) },
        { text: "Fixed the guard. I'll run mix compile next. Then the tests.", at: at(4) },
      ],
      [],
      [],
    );
    expect(out.map((w) => w.text)).toEqual([
      "All 59 existing tests pass.",
      "All 410 tests pass.",
      "Good. All 72 tests pass.",
      "Fixed the guard.",
    ]);
  });
  it("is bounded: at most 5 items, 800 characters, the newest kept", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      text: `Step ${i} is done. ${"x".repeat(150)}`,
      at: at(i),
    }));
    const out = progressOf(many, [], []);
    expect(out.length).toBeLessThanOrEqual(TEXT_LIMITS.progress.reports);
    expect(out.reduce((n, w) => n + w.text.length, 0)).toBeLessThanOrEqual(
      TEXT_LIMITS.progress.totalChars,
    );
    expect(out.at(-1)!.at).toBe(at(29));
  });
});
