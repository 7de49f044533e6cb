import { describe, expect, it } from "vitest";
import { enumerateCandidates } from "../../../lib/restore/restore-candidates.ts";
import { pickRestore } from "../../../lib/restore/restore-picker.ts";
import { DAY, MemoryFixture, SETTINGS } from "../../helpers/memory-fixture.ts";

// A session-end snapshot (mechanical) against a curated /checkpoint of the same session: the curated
// one outranks it, as a checkpoint outranks its precompact twin.

const S = "aaaaaaaa-0000-0000-0000-000000000001";
const T = "bbbbbbbb-0000-0000-0000-000000000002";
const HOUR = DAY / 24;
const END = { status: "checkpoint save (session end, other)" };
const CURATED = { status: "checkpoint save (voluntary)" };

const names = (f: MemoryFixture, sid = "cur") =>
  enumerateCandidates(f.listing(sid), {
    sentinelWindowDays: 7,
    dedupWindowDays: 7,
  }).candidates.map((c) => c.name);

describe("session-end snapshot ranking", () => {
  it("a snapshot older than the curated checkpoint of its session is dropped", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0900-parser.md", {
      task: "parser",
      sessionId: S,
      ageDays: 3 / 24,
      extra: END,
    });
    f.checkpoint("2026-11-29T1000-parser-2.md", {
      task: "parser",
      sessionId: S,
      ageDays: 2 / 24,
      extra: CURATED,
    });
    expect(names(f)).toEqual(["2026-11-29T1000-parser-2.md"]);
    expect(pickRestore(f.listing("cur"), SETTINGS)).toMatchObject({
      action: "restore",
      path: "3a",
      candidate: { name: "2026-11-29T1000-parser-2.md" },
    });
  });

  it("a newer snapshot is kept, listed right after the curated checkpoint", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0800-other.md", {
      task: "other",
      sessionId: T,
      ageDays: 4 / 24,
      extra: CURATED,
    });
    f.checkpoint("2026-11-29T0900-parser.md", {
      task: "parser",
      sessionId: S,
      ageDays: 3 / 24,
      extra: CURATED,
    });
    f.checkpoint("2026-11-29T1100-parser-2.md", {
      task: "parser",
      sessionId: S,
      ageDays: 1 / 24,
      extra: END,
    });
    expect(names(f)).toEqual([
      "2026-11-29T0900-parser.md",
      "2026-11-29T1100-parser-2.md",
      "2026-11-29T0800-other.md",
    ]);
  });

  it("a snapshot alone is a disk-only candidate the picker restores (no sentinel)", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1100-parser.md", {
      task: "parser",
      sessionId: S,
      ageDays: HOUR / DAY,
      extra: END,
    });
    expect(pickRestore(f.listing("cur"), SETTINGS)).toMatchObject({
      action: "restore",
      path: "3a",
      candidate: { source: "disk-only", status: END.status },
    });
  });

  it("another session's curated checkpoint does not outrank it, nor does a precompact save of the same session", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0900-parser.md", {
      task: "parser",
      sessionId: T,
      ageDays: 3 / 24,
      extra: CURATED,
    });
    f.checkpoint("2026-11-29-parser-precompact.md", {
      task: "parser",
      sessionId: S,
      ageDays: 2 / 24,
      extra: { status: "checkpoint save (precompact, auto trigger)" },
    });
    f.checkpoint("2026-11-29T1100-parser-2.md", {
      task: "parser",
      sessionId: S,
      ageDays: 1 / 24,
      extra: END,
    });
    expect(names(f)).toEqual([
      "2026-11-29T1100-parser-2.md",
      "2026-11-29-parser-precompact.md",
      "2026-11-29T0900-parser.md",
    ]);
  });

  it("outside the window the two stay independent, newest first", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-10T0900-parser.md", {
      task: "parser",
      sessionId: S,
      ageDays: 19,
      extra: CURATED,
    });
    f.checkpoint("2026-11-29T1100-parser-2.md", {
      task: "parser",
      sessionId: S,
      ageDays: 1 / 24,
      extra: END,
    });
    f.checkpoint("2026-11-01T1100-parser-3.md", {
      task: "parser",
      sessionId: S,
      ageDays: 28,
      extra: END,
    });
    expect(names(f)).toEqual([
      "2026-11-29T1100-parser-2.md",
      "2026-11-10T0900-parser.md",
      "2026-11-01T1100-parser-3.md",
    ]);
  });
});
