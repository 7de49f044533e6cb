import { describe, expect, it } from "vitest";
import {
  applyReplaySelection,
  classifyPendingPrompts,
  parseReplaySelection,
  replayMenu,
  type PendingPromptSource,
  type ReplayCase,
} from "../../../lib/restore/prompt-replay.ts";
import { appendBlockedPrompt } from "../../../lib/store/pending-prompts.ts";
import { okValue, refusal } from "../../helpers/narrow.ts";

const CUR = "cur-1";
const src = (sid: string, text: string, mtimeMs = 1): PendingPromptSource => ({
  file: `/m/pending-prompt-${sid}.txt`,
  sid,
  mtimeMs,
  text,
});

let multi = appendBlockedPrompt(null, "first prompt", "2026-11-29T10:00:00Z");
multi = appendBlockedPrompt(
  multi,
  "<task-notification>bg agent finished</task-notification>",
  "2026-11-29T10:01:00Z",
);
multi = appendBlockedPrompt(multi, "third prompt\nwith two lines", "2026-11-29T10:02:00Z");

function active(c: ReplayCase) {
  if (c.case === "A") throw new Error("expected case B or C");
  return c;
}

describe("parseReplaySelection", () => {
  const table: Array<[string, unknown]> = [
    ["all", { kind: "all" }],
    ["y", { kind: "all" }],
    ["none", { kind: "none" }],
    ["n", { kind: "none" }],
    ["delete", { kind: "delete" }],
    ["2", { kind: "numbers", numbers: [2] }],
    ["3,1", { kind: "numbers", numbers: [1, 3] }],
    ["1, 3, 3", { kind: "numbers", numbers: [1, 3] }],
    ["edit 2", { kind: "edit", n: 2 }],
    ["edit", { kind: "edit", n: 1 }],
  ];
  for (const [raw, selection] of table)
    it(`reads ${JSON.stringify(raw)}`, () =>
      expect(parseReplaySelection(raw)).toEqual({ ok: true, selection }));
  for (const raw of ["", "some", "1-3", "edit x"])
    it(`refuses ${JSON.stringify(raw)} with the forms it accepts`, () => {
      const r = parseReplaySelection(raw);
      expect(r.ok).toBe(false);
      expect(refusal(r).reason).toContain("expected all, none");
    });
});

describe("classifyPendingPrompts: cases A, B, C", () => {
  it("CASE A when there is no file (or only empty ones)", () => {
    expect(classifyPendingPrompts([], CUR).case).toBe("A");
    expect(classifyPendingPrompts([src("x", "  \n")], CUR).case).toBe("A");
  });
  it("CASE B for this session's file, multi-entry with the non-replayable tag", () => {
    const c = active(classifyPendingPrompts([src("other", "old", 5), src(CUR, multi, 1)], CUR));
    expect(c.case).toBe("B");
    expect(c.legacy).toBe(false);
    expect(c.entries.map((e) => [e.n, e.timestamp, e.nonReplayable])).toEqual([
      [1, "2026-11-29T10:00:00Z", false],
      [2, "2026-11-29T10:01:00Z", true],
      [3, "2026-11-29T10:02:00Z", false],
    ]);
  });
  it("CASE B for a legacy headerless file: one entry", () => {
    const c = active(classifyPendingPrompts([src(CUR, "please refactor the parser\n")], CUR));
    expect(c.legacy).toBe(true);
    expect(c.entries).toEqual([
      { n: 1, timestamp: "legacy", nonReplayable: false, text: "please refactor the parser" },
    ]);
    expect(replayMenu(c)).toEqual([
      "Your previous prompt was: please refactor the parser",
      "Run it now? [y / n / edit]",
    ]);
  });
  it("CASE C: only other sessions' files; newest shown, with the mismatch warning", () => {
    const c = active(
      classifyPendingPrompts([src("old-1", "older", 1), src("old-2", "newer", 2)], CUR),
    );
    expect(c.case).toBe("C");
    expect(c.source.sid).toBe("old-2");
    expect(c.others).toBe(1);
    expect(c.warning).toBe(
      "Stale pending-prompt sentinel detected (session-id MISMATCH: was old-2, current cur-1).",
    );
    expect(replayMenu(c)).toContain("Run it now? [y / n / delete]");
  });
  it("CASE C prefers the file of the session the checkpoint came from", () => {
    const c = active(
      classifyPendingPrompts([src("old-1", "older", 1), src("old-2", "newer", 2)], CUR, "old-1"),
    );
    expect(c.source.sid).toBe("old-1");
  });
  it("an unknown current session never claims CASE B", () => {
    expect(classifyPendingPrompts([src("unknown", "x")], "unknown").case).toBe("C");
  });
  it("keeps text that precedes the first header as an implicit legacy entry", () => {
    const c = active(classifyPendingPrompts([src(CUR, `left over\n\n${multi}`)], CUR));
    expect(c.entries[0]).toMatchObject({ n: 1, timestamp: "legacy", text: "left over" });
    expect(c.entries).toHaveLength(4);
  });
});

describe("applyReplaySelection", () => {
  const b = active(classifyPendingPrompts([src(CUR, multi)], CUR));
  const cC = active(classifyPendingPrompts([src("old", multi)], CUR));
  const table: Array<[string, string, number[], boolean]> = [
    ["B", "all", [1, 3], true],
    ["B", "2", [2], true],
    ["B", "1,3", [1, 3], true],
    ["B", "3,2", [2, 3], true],
    ["B", "none", [], true],
    ["C", "all", [1, 3], false],
    ["C", "2", [2], false],
    ["C", "none", [], false],
    ["C", "delete", [], true],
  ];
  for (const [which, answer, replayed, trash] of table) {
    it(`CASE ${which} ${answer}: replays [${replayed.join(",")}]${trash ? ", trashes the file" : ", keeps the file"}`, () => {
      const sel = parseReplaySelection(answer);
      if (!sel.ok) throw new Error(sel.reason);
      const r = applyReplaySelection(which === "B" ? b : cC, sel.selection);
      expect(okValue(r).replay.map((e) => e.n)).toEqual(replayed);
      expect(okValue(r).trash).toBe(trash);
    });
  }
  it("all skips non-replayable entries; an explicit number replays one", () => {
    const all = applyReplaySelection(b, { kind: "all" });
    expect(okValue(all).replay.some((e) => e.nonReplayable)).toBe(false);
    const two = applyReplaySelection(b, { kind: "numbers", numbers: [2] });
    expect(okValue(two).replay[0]?.text).toBe(
      "<task-notification>bg agent finished</task-notification>",
    );
  });
  it("edit N gives the whole entry", () => {
    const r = applyReplaySelection(b, { kind: "edit", n: 3 });
    expect(okValue(r).edit?.text).toBe("third prompt\nwith two lines");
  });
  it("refuses numbers outside the list", () => {
    expect(applyReplaySelection(b, { kind: "numbers", numbers: [1, 4] })).toEqual({
      ok: false,
      reason: "4: expected numbers from 1 to 3",
    });
    expect(applyReplaySelection(b, { kind: "edit", n: 0 }).ok).toBe(false);
  });
  it("the menu numbers entries, tags non-replayable ones and explains 'all'", () => {
    expect(replayMenu(b)).toEqual([
      "3 blocked prompt(s) were saved while context was overloaded:",
      "  1. [2026-11-29T10:00:00Z] first prompt",
      "  2. [2026-11-29T10:01:00Z] [non-replayable] <task-notification>bg agent finished</task-notification>",
      "  3. [2026-11-29T10:02:00Z] third prompt with two lines",
      "Replay which? [all / 1 / 1,3 / edit 1 / none]",
      "(Note: 'all' skips non-replayable entries; select by number to replay them individually.)",
    ]);
  });
});
