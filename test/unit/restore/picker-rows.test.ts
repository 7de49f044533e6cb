import { describe, expect, it } from "vitest";
import {
  headFields,
  readCheckpointHead,
  ROW_HEAD_BYTES,
} from "../../../lib/restore/checkpoint-heads.ts";
import { buildMemoryListing } from "../../../lib/restore/memory-listing.ts";
import { listCheckpoints } from "../../../lib/restore/checkpoint-list.ts";
import { defaultPickerSettings } from "../../../lib/restore/picker-decision.ts";
import { checkpointRowText, rowDoing } from "../../../lib/restore/brief/picker-rows.ts";
import { renderValues } from "../../../lib/store/checkpoint-format.ts";
import { memoryPaths } from "../../../lib/store/memory-paths.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";
import { savedByPreCompact, SPOTTER, spotterDeps } from "../../helpers/spotter-compaction.ts";

/** A checkpoint's first sections, then the model's words, written by the format's own table. */
const checkpointText = (more: Parameters<typeof renderValues>[0]) =>
  renderValues({
    status: "checkpoint save (precompact, auto trigger)",
    task: "csv",
    branch: "main",
    sessionId: SPOTTER.sid,
    intent: "(newest request) continue",
    ...more,
  });

describe("a picker row says what the session was doing in the model's words", () => {
  it("on a real session (spotter-4d5611e5's PreCompact save): its newest last words, not the request 'continue'", () => {
    const deps = spotterDeps();
    const file = savedByPreCompact(deps).result.checkpoint;
    const size = Number(deps.fs.statSync(file).size);
    const head = readCheckpointHead(deps.fs, { path: file, size }) ?? "";
    expect(headFields(head).intent).toBe("(newest request) continue");
    const snap = buildMemoryListing(deps.fs, memoryPaths(SPOTTER.root), "", deps.now(), {
      checkpointWindowDays: Number.POSITIVE_INFINITY,
    });
    const [row] = listCheckpoints(snap, defaultPickerSettings()).map(checkpointRowText);
    expect(row).not.toContain("last asked");
    expect(row).toMatch(
      /before compaction: .*"Background task completed successfully - all 15 SessionLive tests\.\.\."$/,
    );
  });

  it("takes the in-progress line first, else the work item in progress, and the newest last words", () => {
    const words = [
      { at: "2026-11-29T10:00Z", text: "Reading the export code." },
      { at: "2026-11-29T10:05Z", text: "Now wiring the button to the export." },
    ];
    const item = {
      current: { id: "csv.3", title: "Export button", text: null, how: "bd update csv.3" },
      open: [],
      more: 0,
    };
    const full = checkpointText({
      inProgress: { text: "- wiring the CSV button\n- then the docs", cut: 0 },
      lastWords: words,
      workItems: item,
    });
    expect(headFields(full).working).toBe("wiring the CSV button");
    expect(headFields(checkpointText({ lastWords: words })).lastWord).toBe(
      "Now wiring the button to the export.",
    );
    const none = checkpointText({ inProgress: { text: null, cut: 0 }, workItems: item });
    expect(headFields(none).working).toBe("[csv.3] Export button");
    expect(headFields(checkpointText({})).working).toBeUndefined();
  });

  it("never takes a section the head read cut: the newest words may be past its end", () => {
    const words = Array.from({ length: 40 }, (_, i) => ({ at: null, text: `step ${i} done` }));
    const text = checkpointText({
      decisions: { text: "d".repeat(3600), cut: 0 },
      lastWords: words,
    });
    const head = readCheckpointHead(fakeDeps({ files: { "/c.md": text } }).fs, {
      path: "/c.md",
      size: Buffer.byteLength(text),
    });
    expect(text.indexOf("## Last words")).toBeLessThan(ROW_HEAD_BYTES);
    expect(Buffer.byteLength(text)).toBeGreaterThan(ROW_HEAD_BYTES);
    expect(headFields(head ?? "").lastWord).toBeUndefined();
    expect(headFields(text).lastWord).toBe("step 39 done");
  });

  it.each([
    [{ working: "wiring the button", intent: "ship csv", lastWord: "ok" }, '"wiring the button"'],
    [{ intent: "ship csv", lastWord: "Saving a checkpoint now." }, '"ship csv"'],
    [{ intent: "(newest request) continue", lastWord: "Tests pass." }, '"Tests pass."'],
    [{ intent: "(newest request) continue" }, 'last asked "continue"'],
    [{}, ""],
  ])(
    "in this order: in progress, the model's intent, its last words, the request (%j)",
    (c, row) => {
      expect(rowDoing(c)).toBe(row);
    },
  );

  it("cuts between words", () => {
    const long =
      "Background task completed successfully - all 15 SessionLive tests pass. This was from a previous run";
    expect(rowDoing({ lastWord: long })).toBe(
      '"Background task completed successfully - all 15 SessionLive tests..."',
    );
    expect(rowDoing({ intent: `(newest request) ${long}` })).toBe(
      'last asked "Background task completed successfully - all 15 SessionLive tests..."',
    );
  });
});
