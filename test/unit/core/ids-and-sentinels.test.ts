import { describe, expect, it } from "vitest";
import { checkSessionId, reduceTaskName } from "../../../lib/core/ids.ts";
import {
  parseKeyValues,
  parseSentinelName,
  renderKeyValues,
  SENTINEL_FAMILIES,
  sentinelPath,
} from "../../../lib/store/sentinels.ts";

describe("session ids", () => {
  it.each(["5f0c2d9e-1111-4a2b-9c3d-000000000001", "ABC-123", "a"])("accepts %s", (id) => {
    expect(checkSessionId(id)).toEqual({ ok: true, id });
  });
  it.each(["", "unknown", "../../etc/x", "a/b", "a b", "x".repeat(129), "id.txt"])(
    "refuses %j with a reason",
    (id) => {
      const r = checkSessionId(id);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/session id/);
    },
  );
});

describe("task names", () => {
  it.each([
    ["Parser Rewrite", "parser-rewrite"],
    ["../../etc/passwd", "etc-passwd"],
    ["feat/x_y", "feat-x-y"],
    ["", "untitled"],
    ["---", "untitled"],
    ["a".repeat(100), "a".repeat(64)],
  ])("%j -> %j", (raw, reduced) => {
    expect(reduceTaskName(raw)).toBe(reduced);
  });
});

describe("sentinel registry", () => {
  it("builds every family's path and parses it back", () => {
    for (const family of SENTINEL_FAMILIES) {
      const p = sentinelPath("/m", family, "sid-1");
      expect(p).toBe(`/m/${family}-sid-1.txt`);
      expect(parseSentinelName(`${family}-sid-1.txt`)).toEqual({ family, sid: "sid-1" });
    }
  });
  it("tells pending-resume-ref from pending-restore, and keeps empty-sid orphans", () => {
    expect(parseSentinelName("pending-resume-ref-abc.txt")).toEqual({
      family: "pending-resume-ref",
      sid: "abc",
    });
    expect(parseSentinelName("pending-restore-.txt")).toEqual({
      family: "pending-restore",
      sid: "",
    });
    expect(parseSentinelName("notes.txt")).toBeNull();
  });
  it("refuses to build a name from an unusable id", () => {
    expect(() => sentinelPath("/m", "pending-restore", "../x")).toThrow(/refusing/);
    expect(() => sentinelPath("/m", "pending-restore", "unknown")).toThrow(/refusing/);
  });
  it("round-trips key=value contents, newlines flattened", () => {
    const text = renderKeyValues({
      prior_session_uuid: "abc",
      checkpoint_path: "/p/x.md",
      note: "a\nb",
    });
    expect(parseKeyValues(text)).toEqual({
      prior_session_uuid: "abc",
      checkpoint_path: "/p/x.md",
      note: "a b",
    });
    expect(parseKeyValues("a=1\r\nb = 2\r\njunk\n")).toEqual({ a: "1", b: "2" });
  });
});
