import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  mergeShareTrees,
  originLabel,
  safeSegment,
  sharePath,
  splitOriginHeader,
  withOriginHeader,
} from "../../../lib/share/share-tree.ts";

const m = (o: Record<string, string>) => new Map(Object.entries(o));

describe("mergeShareTrees", () => {
  it("keeps both sides' additions", () => {
    expect(mergeShareTrees(m({ x: "1" }), m({ x: "1", a: "2" }), m({ x: "1", b: "3" }))).toEqual(
      m({ x: "1", a: "2", b: "3" }),
    );
  });

  it("keeps a deletion made on either side since the base (a prune is never undone)", () => {
    expect(
      mergeShareTrees(m({ x: "1", y: "2" }), m({ y: "2" }), m({ x: "1", y: "2", z: "4" })),
    ).toEqual(m({ y: "2", z: "4" }));
    expect(mergeShareTrees(m({ x: "1" }), m({ x: "1" }), m({}))).toEqual(m({}));
  });

  it("with no common base (two first shares) is the union, ours winning a same path", () => {
    expect(mergeShareTrees(m({}), m({ p: "ours" }), m({ p: "theirs", q: "5" }))).toEqual(
      m({ p: "ours", q: "5" }),
    );
  });

  test.prop([
    fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), fc.constantFrom("1", "2")),
    fc.subarray(["a", "b", "c", "d", "e"]),
    fc.subarray(["f", "g"]),
  ])("nothing the base held and one side removed comes back", (baseObj, removed, added) => {
    const base = m(baseObj);
    const ours = new Map([...base].filter(([k]) => !removed.includes(k)));
    const theirs = new Map([...base, ...added.map((k) => [k, "9"] as [string, string])]);
    const merged = mergeShareTrees(base, ours, theirs);
    for (const k of removed) if (base.has(k)) expect(merged.has(k)).toBe(false);
    for (const k of added) expect(merged.get(k)).toBe("9");
  });
});

describe("share paths and origin headers", () => {
  it("builds <task>/<session>/<file> from safe segments only", () => {
    expect(sharePath("payments", "7f3e9a10-5b2c", "2026-12-02T0912-payments.md")).toBe(
      "payments/7f3e9a10-5b2c/2026-12-02T0912-payments.md",
    );
    expect(sharePath("../etc/passwd", null, "x.md")).toBe("etc-passwd/unknown-session/x.md");
    expect(safeSegment("..", "f")).toBe("f");
  });

  it("round-trips the origin header, and a blob without one has an unknown origin", () => {
    const origin = {
      user: "dev-a",
      host: "laptop",
      branch: "main",
      sharedAt: "2026-12-02T18:00:00Z",
    };
    const blob = withOriginHeader(origin, "## Status\nx\n");
    expect(splitOriginHeader(blob)).toEqual({ origin, text: "## Status\nx\n" });
    expect(originLabel(origin)).toBe("dev-a@laptop, branch main, 2026-12-02T18:00:00Z");
    expect(splitOriginHeader("## Status\nx\n").origin).toBeNull();
  });

  it("a header value cannot close the comment early", () => {
    const blob = withOriginHeader({ user: "a-->b", host: "", branch: "", sharedAt: "" }, "body");
    expect(blob.split("-->")).toHaveLength(2);
    expect(splitOriginHeader(blob).origin?.user).toBe("a-->b");
  });
});

describe("QUOIN_SHARE", () => {
  it("is on for auto only (any case); another value costs one line naming the knob and shares nothing", async () => {
    const { autoShareOn } = await import("../../../lib/share/share-auto.ts");
    const { readKnobs } = await import("../../../lib/core/knobs.ts");
    const lines: string[] = [];
    const on = (env: Record<string, string>) => autoShareOn(readKnobs(env, (l) => lines.push(l)));
    expect(on({ QUOIN_SHARE: "auto" })).toBe(true);
    expect(on({ QUOIN_SHARE: " AUTO " })).toBe(true);
    expect(on({})).toBe(false);
    expect(on({ QUOIN_SHARE: "off" })).toBe(false);
    expect(lines).toEqual([]);
    expect(on({ QUOIN_SHARE: "yes" })).toBe(false);
    expect(lines).toEqual([
      `[quoin] QUOIN_SHARE="yes" is not valid: expected 'auto' (every /checkpoint save is shared) or 'off'; using the default off`,
    ]);
  });
});
