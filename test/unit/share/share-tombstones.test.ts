import { describe, expect, it } from "vitest";
import {
  formatTombstones,
  parseTombstones,
  TOMBSTONE_DAYS,
  TOMBSTONE_PATH,
  unionTombstones,
  withoutTombstoned,
  type Tombstone,
} from "../../../lib/share/share-tombstones.ts";

const NOW = Date.parse("2026-12-02T12:00:00Z");
const t = (path: string, blob: string, prunedAt = "2026-12-01T08:00:00Z"): Tombstone => ({
  prunedAt,
  blob,
  path,
});
const OLD = "payments/aaaa/2026-10-01T0800-payments.md";

describe("tombstones of the shared ref", () => {
  it("round-trip through the .pruned text, lines of another shape skipped", () => {
    const list = [
      t(OLD, "a".repeat(40)),
      t("billing/bbbb/2026-10-02T0900-billing.md", "b".repeat(40)),
    ];
    const text = formatTombstones(list);
    expect(text).toBe(
      `2026-12-01T08:00:00Z ${"a".repeat(40)} ${OLD}\n2026-12-01T08:00:00Z ${"b".repeat(40)} billing/bbbb/2026-10-02T0900-billing.md\n`,
    );
    expect(parseTombstones(`${text}not a tombstone\n\n`)).toEqual(list);
  });

  it("union keeps one per blob and path, the earliest prune date, sorted by path", () => {
    const u = unionTombstones([
      [t(OLD, "a".repeat(40), "2026-12-01T08:00:00Z")],
      [t(OLD, "a".repeat(40), "2026-11-30T08:00:00Z"), t("a/b/c.md", "c".repeat(40))],
    ]);
    expect(u.map((x) => [x.path, x.prunedAt])).toEqual([
      ["a/b/c.md", "2026-12-01T08:00:00Z"],
      [OLD, "2026-11-30T08:00:00Z"],
    ]);
  });

  it(`with a clock, tombstones older than ${TOMBSTONE_DAYS} days go; without one, none`, () => {
    const old = t(OLD, "a".repeat(40), "2026-05-01T00:00:00Z");
    const fresh = t("a/b/c.md", "c".repeat(40), "2026-11-01T00:00:00Z");
    expect(unionTombstones([[old, fresh]], NOW)).toEqual([fresh]);
    expect(unionTombstones([[old, fresh]])).toHaveLength(2);
  });

  it("drop the tombstoned blob at its path and the tombstone file; the same path with a new blob stays", () => {
    const tree = new Map([
      [OLD, "a".repeat(40)],
      ["a/b/c.md", "d".repeat(40)],
      [TOMBSTONE_PATH, "e".repeat(40)],
    ]);
    const kept = withoutTombstoned(tree, [t(OLD, "a".repeat(40)), t("a/b/c.md", "c".repeat(40))]);
    expect([...kept.keys()]).toEqual(["a/b/c.md"]);
  });
});
