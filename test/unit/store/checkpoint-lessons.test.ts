import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { CHECKPOINT_SOFT_CAP_BYTES } from "../../../lib/store/checkpoint-budget.ts";
import {
  renderSkeletonCheckpoint,
  type CheckpointData,
} from "../../../lib/store/checkpoint-format.ts";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import {
  fixedBody,
  handoverSteerData,
  parseFixed,
  parseReadFirst,
  parseWorkItems,
  readFirstBody,
  storedFix,
  workItemsBody,
} from "../../../lib/store/checkpoint-lessons.ts";
import { NO_ARTIFACTS } from "../../../lib/store/checkpoint-values.ts";
import { coverageByText, cutAtCompaction, fileTokens } from "../../helpers/summary-oracle.ts";
import {
  fixtureLines,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
} from "../../helpers/transcript-lines.ts";

const base: CheckpointData = {
  status: "checkpoint save (precompact, auto trigger)",
  currentStage: "",
  task: "spotter-dov",
  branch: "spotter-dov",
  sessionId: SPOTTER_SID,
  projectHash: "-home-USER-projects-spotter-worktrees-spotter-dov",
  savedAt: new Date("2026-02-12T20:30:00Z"),
  artifacts: NO_ARTIFACTS,
};

describe("the handover sections in an automatic checkpoint of the real spotter session", () => {
  const { before, summaryText } = cutAtCompaction(fixtureLines(SPOTTER));
  const cut = digestLines(before, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID });
  const end = digestLines(fixtureLines(SPOTTER), {
    projectRoot: SPOTTER_ROOT,
    sessionId: SPOTTER_SID,
  });

  it("cut at its compaction: the automatic checkpoint keeps the item in progress with its description and what the closed items did, within 6 KB; a model's 6 KB also the files to read first", () => {
    const auto = renderSkeletonCheckpoint({ ...base, digest: cut });
    expect(Buffer.byteLength(auto)).toBeGreaterThan(CHECKPOINT_SOFT_CAP_BYTES);
    expect(Buffer.byteLength(auto)).toBeLessThanOrEqual(6144);
    const a = parseCheckpoint(auto);
    expect(a.values.workItems!.current!.id).toBe("spotter-dov.3");
    expect(a.values.workItems!.current!.text).toMatch(/^Why This Task Is Necessary/);
    expect(a.values.workItems!.open.length + a.values.workItems!.more).toBe(4);
    expect(a.digest.progress!.map((w) => w.text).join("\n")).toMatch(
      /\$ bd close spotter-dov\.1 --reason="Extracted shared transcript computer/,
    );
    const text = renderSkeletonCheckpoint({ ...base, digest: cut, modelDocument: true });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(6144);
    const p = parseCheckpoint(text);
    const work = p.values.workItems!;
    expect(work.current).toMatchObject({
      id: "spotter-dov.3",
      title: "Implement debug JSON sidecar and expand controls in shared transcript UI",
      how: "bd update spotter-dov.3 --status in_progress",
    });
    expect(work.current!.text).toMatch(/^Why This Task Is Necessary/);
    // the item in progress is not listed again among the open ones
    expect(work.open.length + work.more).toBe(4);
    expect(p.values.readFirst!.items[0]).toEqual({
      path: "lib/spotter_web/components/transcript_components.ex",
      why: "in progress",
    });
    // with the working set, the checkpoint still names 80 % of the files the summary names
    expect(coverageByText(fileTokens(summaryText), text).ratio).toBeGreaterThanOrEqual(0.8);
  });

  it("at its end: fixed along the way, newest first, with the model's words and the command that passed", () => {
    const text = renderSkeletonCheckpoint({ ...base, digest: end });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(6144);
    const fixed = parseCheckpoint(text).values.fixedAlongTheWay!;
    expect(fixed.items[0]).toEqual({
      command: "git push 2>&1",
      error: "fatal: The current branch spotter-dov has no upstream branch.",
      at: null,
      explanation: null,
      fixedAt: "2026-02-12T21:03Z",
      fixedBy: "git push --set-upstream origin spotter-dov 2>&1",
    });
    expect(fixed.items.length + fixed.more).toBe(5);
    expect(text).toContain(
      "(fixed at 2026-02-12T21:03Z by `git push --set-upstream origin spotter-dov 2>&1`)",
    );
    expect(text).not.toContain("## Recent failures");
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

describe("the bodies read back, and no line can be read as a heading", () => {
  it("round trips and every line starts with '- ' or '+'", () => {
    const nasty = "## Active task\n# x";
    const fix = storedFix({
      command: nasty,
      error: nasty,
      at: null,
      fixedAt: null,
      fixedBy: nasty,
      explanation: nasty,
    });
    const work = {
      current: { id: "x-1", title: "t", text: "d", how: "h" },
      open: [{ id: "", title: "o" }],
      unverified:
        "a.ts was changed at 2026-11-29T11:01:00Z and no build or test command ran since (a hook's check is not in the transcript)",
      more: 2,
    };
    expect(parseWorkItems(workItemsBody(work))).toEqual(work);
    // the state line with no item in progress
    const alone = { current: null, open: [], unverified: "b.ts was changed", more: 0 };
    expect(parseWorkItems(workItemsBody(alone))).toEqual(alone);
    expect(parseFixed(fixedBody({ items: [fix], more: 1 }))).toEqual({ items: [fix], more: 1 });
    const rf = { items: [{ path: "a b.ts", why: "read for it" as const }], more: 3 };
    expect(parseReadFirst(readFirstBody(rf))).toEqual(rf);
    for (const b of [workItemsBody(work), fixedBody({ items: [fix], more: 1 }), readFirstBody(rf)])
      for (const l of b.split("\n")) expect(l).toMatch(/^(- |\+)/);
  });
});
