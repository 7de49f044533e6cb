import { describe, expect, it } from "vitest";
import { chooseBanner } from "../../../lib/hooks/restore-banner.ts";
import { listCheckpoints } from "../../../lib/restore/checkpoint-list.ts";
import { pickRestore } from "../../../lib/restore/restore-picker.ts";
import { MemoryFixture, SETTINGS } from "../../helpers/memory-fixture.ts";
import { variant } from "../../helpers/narrow.ts";

const A = "aaaa0000-0000-0000-0000-00000000000a";
const B = "bbbb0000-0000-0000-0000-00000000000b";
const CUR = "cccc0000-0000-0000-0000-000000000001";
const HOUR = 1 / 24;

describe("the banner offers a session's newest checkpoint", () => {
  it("names the 10:30 session-end snapshot, not the 10:00 forced save its sentinel names", () => {
    const f = new MemoryFixture();
    const forced = f.checkpoint("2026-11-29T1000-4242-alpha-blocksave.md", {
      task: "alpha",
      sessionId: A,
      ageDays: 2 * HOUR,
      extra: { status: "forced at the limit" },
    });
    const snapshot = f.checkpoint("2026-11-29T1030-alpha.md", {
      task: "alpha",
      sessionId: A,
      ageDays: 1.5 * HOUR,
      extra: { status: "session end" },
    });
    f.sentinel(A, forced, 2 * HOUR);
    const b = chooseBanner(f.deps(), f.paths, CUR);
    expect(b?.checkpoint).toBe(snapshot);
    expect(b?.text).toContain("2026-11-29T1030-alpha.md");
  });

  it("keeps the checkpoint the sentinel names when it is the session's newest", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0930-alpha.md", { task: "alpha", sessionId: A, ageDays: 2.5 * HOUR });
    const named = f.checkpoint("2026-11-29T1000-alpha.md", {
      task: "alpha",
      sessionId: A,
      ageDays: 2 * HOUR,
    });
    f.checkpoint("2026-11-29T1100-beta.md", { task: "beta", sessionId: B, ageDays: HOUR });
    f.sentinel(A, named, 2 * HOUR);
    expect(chooseBanner(f.deps(), f.paths, CUR)?.checkpoint).toBe(named);
  });
});

describe("picker and list rows grouped by session, newest first", () => {
  function interleaved(): MemoryFixture {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0800-alpha.md", { task: "alpha", sessionId: A, ageDays: 4 * HOUR });
    f.checkpoint("2026-11-29T0900-beta.md", { task: "beta", sessionId: B, ageDays: 3 * HOUR });
    f.checkpoint("2026-11-29T1000-alpha.md", { task: "alpha", sessionId: A, ageDays: 2 * HOUR });
    f.checkpoint("2026-11-29T1100-beta.md", { task: "beta", sessionId: B, ageDays: HOUR });
    return f;
  }
  const grouped = [
    "2026-11-29T1100-beta.md",
    "2026-11-29T0900-beta.md",
    "2026-11-29T1000-alpha.md",
    "2026-11-29T0800-alpha.md",
  ];

  it("the picker's menu", () => {
    const d = pickRestore(interleaved().listing(CUR), { ...SETTINGS, staleDays: 30 });
    const list = variant(d, "action", "choose").list;
    expect(list.map((c) => c.name)).toEqual(grouped);
    expect(list.map((c) => c.n)).toEqual([1, 2, 3, 4]);
  });

  it("list, numbered as --pick takes them", () => {
    const f = interleaved();
    const rows = listCheckpoints(f.listing(CUR), SETTINGS);
    expect(rows.map((r) => [r.n, r.name])).toEqual(grouped.map((name, i) => [i + 1, name]));
    const d = pickRestore(f.listing(CUR), SETTINGS, { pick: 2 });
    expect(variant(d, "action", "restore").candidate.name).toBe(grouped[1]);
  });
});
