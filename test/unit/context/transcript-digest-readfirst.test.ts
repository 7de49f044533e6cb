import { describe, expect, it } from "vitest";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import { readFirstOf } from "../../../lib/context/transcript-digest-readfirst.ts";
import { coverageByPaths, cutAtCompaction, fileTokens } from "../../helpers/summary-oracle.ts";
import {
  fixtureLines,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
} from "../../helpers/transcript-lines.ts";

const f = (path: string, lastAt: string) => ({ path, count: 1, lastAt });

describe("files to read first", () => {
  it("the work in progress first, then what was read for it, then committed work, then other reads", () => {
    const list = readFirstOf(
      [f("src/new.ts", "2026-12-01T10:30:00Z"), f("src/done.ts", "2026-12-01T09:00:00Z")],
      [f("src/model.ts", "2026-12-01T10:10:00Z"), f("README.md", "2026-12-01T08:00:00Z")],
      ["src/new.ts"],
      "2026-12-01T10:00:00Z",
    );
    expect(list).toEqual([
      { path: "src/new.ts", why: "in progress" },
      { path: "src/model.ts", why: "read for it" },
      { path: "src/done.ts", why: "committed" },
      { path: "README.md", why: "read" },
    ]);
  });

  it("spotter-4d5611e5 cut at its compaction: the item's files first, and 80 % of the files the summary names", () => {
    const { before, summaryText } = cutAtCompaction(fixtureLines(SPOTTER));
    const d = digestLines(before, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID });
    // spotter-dov.3 was claimed after the last commit-free stretch: its edits lead
    expect(d.readFirst[0]).toEqual({
      path: "lib/spotter_web/components/transcript_components.ex",
      why: "in progress",
    });
    expect(d.readFirst.length).toBeLessThanOrEqual(30);
    const cov = coverageByPaths(
      fileTokens(summaryText),
      d.readFirst.map((r) => r.path),
    );
    expect(cov.ratio).toBeGreaterThanOrEqual(0.8);
  });

  it("spotter-4d5611e5: only dov.3's files are in progress; the uncommitted files of the closed dov.2 were edited earlier", () => {
    const { before } = cutAtCompaction(fixtureLines(SPOTTER));
    const d = digestLines(before, { projectRoot: SPOTTER_ROOT, sessionId: SPOTTER_SID });
    const why = (p: string) => d.readFirst.find((r) => r.path === p)?.why;
    expect(d.readFirst.filter((r) => r.why === "in progress").map((r) => r.path)).toEqual([
      "lib/spotter_web/components/transcript_components.ex",
      "lib/spotter_web/live/transcript_computers.ex",
    ]);
    // the renderer and its test were dov.2's, closed with `bd close` before dov.3 was taken up
    expect(why("lib/spotter/services/transcript_renderer.ex")).toBe("edited earlier this session");
    expect(why("test/spotter/services/transcript_renderer_test.exs")).toBe(
      "edited earlier this session",
    );
    expect(d.closedItems).toBe(2);
  });

  it("a file left uncommitted but edited before the item was claimed is not in progress", () => {
    const list = readFirstOf(
      [f("src/new.ts", "2026-12-01T10:30:00Z"), f("src/old.ts", "2026-12-01T09:00:00Z")],
      [],
      ["src/old.ts", "src/new.ts"],
      "2026-12-01T10:00:00Z",
    );
    expect(list).toEqual([
      { path: "src/new.ts", why: "in progress" },
      { path: "src/old.ts", why: "edited earlier this session" },
    ]);
  });
});
