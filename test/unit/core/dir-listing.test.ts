import { describe, expect, it } from "vitest";
import { createFsFromVolume, Volume } from "memfs";
import type { FsApi } from "../../../lib/core/deps.ts";
import { compareNames, listByMtime, regularFileStat } from "../../../lib/core/dir-listing.ts";
import { MODEL_TIERS, dispatchSettingTiers } from "../../../lib/core/model-tiers.ts";
import { describeZodError } from "../../../lib/core/zod-error.ts";
import * as z from "zod/mini";

describe("listings: the one symlink rule", () => {
  it("listByMtime and regularFileStat pass over a symlink, even one naming a regular file", () => {
    const vol = Volume.fromJSON({ "/m/a.txt": "a", "/etc/secret": "s" });
    vol.symlinkSync("/etc/secret", "/m/b.txt");
    const fs = createFsFromVolume(vol) as unknown as FsApi;
    expect(listByMtime(fs, "/m", () => true).map((f) => f.path)).toEqual(["/m/a.txt"]);
    expect(regularFileStat(fs, "/m/b.txt")).toBeNull();
    expect(regularFileStat(fs, "/m/a.txt")).toMatchObject({ size: 1 });
  });
});

describe("dispatch setting grammar", () => {
  it.each([
    ["on", MODEL_TIERS],
    ["ON", MODEL_TIERS],
    [" Off ", []],
    ["sonnet, haiku", ["sonnet", "haiku"]],
    ["sometimes", null],
    ["sonnet,", null],
  ] as const)("%j gives %j", (setting, tiers) => {
    expect(dispatchSettingTiers(setting)).toEqual(tiers);
  });
});

describe("describeZodError", () => {
  it("names each failing path, and (root) for the value itself", () => {
    const r = z
      .object({ a: z.string(), b: z.object({ c: z.number() }) })
      .safeParse({ a: 1, b: { c: "x" } });
    if (r.success) throw new Error("expected a failure");
    expect(describeZodError(r.error)).toMatch(/^a: .+; b\.c: .+$/);
    const root = z.string().safeParse(3);
    if (root.success) throw new Error("expected a failure");
    expect(describeZodError(root.error)).toMatch(/^\(root\): /);
  });
});

describe("compareNames", () => {
  it("orders as sortedNames does (code units), not by locale", () => {
    const names = ["b.md", "B.md", "a-2.md", "a.md", "a_1.md", "Z.md", "ä.md"];
    expect([...names].sort(compareNames)).toEqual([...names].sort());
    expect(compareNames("x", "x")).toBe(0);
  });
});
