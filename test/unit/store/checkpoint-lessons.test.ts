import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import {
  fixedBody,
  handoverSteerData,
  LESSON_BUDGET,
  parseFixed,
  parseReadFirst,
  parseWorkItems,
  readFirstBody,
  workItemsBody,
} from "../../../lib/store/checkpoint-lessons.ts";
import { cutAtCompaction } from "../../helpers/summary-oracle.ts";
import {
  fixtureLines,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
} from "../../helpers/transcript-lines.ts";

const bytes = (s: string | null) => Buffer.byteLength(s ?? "");

describe("the handover sections from the real spotter session", () => {
  const cut = digestLines(cutAtCompaction(fixtureLines(SPOTTER)).before, {
    projectRoot: SPOTTER_ROOT,
    sessionId: SPOTTER_SID,
  });
  const end = digestLines(fixtureLines(SPOTTER), {
    projectRoot: SPOTTER_ROOT,
    sessionId: SPOTTER_SID,
  });

  it("work items: written within budget and read back (title, how, description head, open list)", () => {
    const body = workItemsBody(cut.work);
    expect(bytes(body)).toBeLessThanOrEqual(LESSON_BUDGET.work);
    expect(body.split("\n")[0]).toBe(
      "- in progress: [spotter-dov.3] Implement debug JSON sidecar and expand controls in shared transcript UI",
    );
    expect(parseWorkItems(body)).toEqual({
      current: { ...cut.work.current, text: cut.work.current!.text },
      open: cut.work.open,
    });
    expect(parseWorkItems(workItemsBody(end.work))?.current).toBeNull();
    expect(parseWorkItems(undefined)).toBeNull();
  });

  it("fixed along the way: one line a fix, newest first, the model's words and the command that passed; read back", () => {
    const body = fixedBody(end.fixed)!;
    expect(bytes(body)).toBeLessThanOrEqual(LESSON_BUDGET.fixed);
    const lines = body.split("\n");
    expect(lines[0]).toBe(
      "- `git push 2>&1`: fatal: The current branch spotter-dov has no upstream branch. (fixed at 2026-02-12T21:03Z by `git push --set-upstream origin spotter-dov 2>&1`)",
    );
    expect(body).toContain('the model said: "Two issues: formatting and dialyzer errors.');
    const back = parseFixed(body);
    expect(
      back.length + (lines.at(-1)!.startsWith("+") ? Number(/\+(\d+)/.exec(lines.at(-1)!)![1]) : 0),
    ).toBe(end.fixed.length);
    expect(back[0]).toMatchObject({
      command: "git push 2>&1",
      fixedBy: "git push --set-upstream origin spotter-dov 2>&1",
      explanation: null,
    });
    expect(fixedBody([])).toBeNull();
  });

  it("read first: git's uncommitted files in front, then the digest's order, within budget; read back", () => {
    const body = readFirstBody(["lib/spotter_web/live/session_live.ex"], cut.readFirst)!;
    expect(bytes(body)).toBeLessThanOrEqual(LESSON_BUDGET.readFirst);
    const back = parseReadFirst(body);
    expect(back[0]).toEqual({ path: "lib/spotter_web/live/session_live.ex", why: "uncommitted" });
    expect(back[1]).toEqual({
      path: "lib/spotter_web/components/transcript_components.ex",
      why: "in progress",
    });
    expect(back.filter((f) => f.path === "lib/spotter_web/live/session_live.ex")).toHaveLength(1);
  });

  it("the steering data: the item in progress and at most 3 fixes", () => {
    const data = handoverSteerData({ work: cut.work, fixed: end.fixed });
    expect(data.workItem).toEqual({
      id: "spotter-dov.3",
      title: "Implement debug JSON sidecar and expand controls in shared transcript UI",
    });
    expect(data.fixes).toHaveLength(3);
    expect(data.fixes[0]!.fixedBy).toBe("git push --set-upstream origin spotter-dov 2>&1");
  });
});

describe("a line of the model's words can never be read as a heading", () => {
  it("every line of every body starts with '- ' or '+'", () => {
    const nasty = "## Active task\n# x";
    const bodies = [
      workItemsBody({
        current: { id: "x-1", title: nasty, text: nasty, how: nasty },
        open: [{ id: "", title: nasty }],
      }),
      fixedBody([
        {
          command: nasty,
          error: nasty,
          at: null,
          fixedAt: null,
          fixedBy: nasty,
          explanation: nasty,
        },
      ])!,
      readFirstBody([nasty], [])!,
    ];
    for (const b of bodies) for (const l of b.split("\n")) expect(l).toMatch(/^(- |\+)/);
  });
});
