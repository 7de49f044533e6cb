import { describe, expect, it } from "vitest";
import { fc, test as fcTest } from "@fast-check/vitest";
import * as path from "node:path";
import { buildMemoryListing, type MemoryListing } from "../../../lib/restore/memory-listing.ts";
import {
  cachedFields,
  HEAD_CACHE_FILE,
  HEAD_CACHE_SETTLE_MS,
  openHeadCache,
  rememberFields,
  saveHeadCache,
} from "../../../lib/restore/head-cache.ts";
import type { HeadFields } from "../../../lib/restore/checkpoint-heads.ts";
import { MemoryFixture } from "../../helpers/memory-fixture.ts";

const SID = "aaaa0000-0000-4000-8000-000000000001";

/** A restore's full listing that writes the cache back after every miss (batch 1). */
function snap(f: MemoryFixture, batch = 1): MemoryListing {
  return buildMemoryListing(f.fs, f.paths, SID, f.now, {
    checkpointWindowDays: 30,
    headCachePid: 4242,
    headCacheBatch: batch,
  });
}

const fieldsByName = (s: MemoryListing) =>
  Object.fromEntries(s.checkpoints.map((c) => [c.name, c.fields]));
const cacheFile = (f: MemoryFixture) => path.join(f.paths.memory, HEAD_CACHE_FILE);

/** Rewrite a file in place (same inode) with the same size and mtime: only the cache can tell the old head. */
function rewriteInPlace(f: MemoryFixture, file: string, from: string, to: string): void {
  const st = f.fs.statSync(file);
  const text = (f.fs.readFileSync(file, "utf8") as string).replace(from, to);
  expect(text.length).toBe(Number(st.size));
  f.fs.writeFileSync(file, text);
  (f.fs as unknown as { utimesSync: (p: string, a: number, m: number) => void }).utimesSync(
    file,
    Number(st.mtimeMs) / 1000,
    Number(st.mtimeMs) / 1000,
  );
}

describe("checkpoint head cache", () => {
  it("gives the same fields as reading the heads, and is then used instead of them", () => {
    const f = new MemoryFixture();
    const a = f.checkpoint("2026-11-28T1100-alpha.md", {
      task: "alpha",
      ageDays: 1,
      extra: { inProgress: "wiring the CSV button" },
    });
    f.checkpoint("2026-11-27T1100-beta.md", { task: "beta", sessionId: null, ageDays: 2 });
    f.checkpoint("2026-11-26T1100-gamma.md", {
      task: "gamma",
      sessionId: "legacy",
      ageDays: 3,
      extra: { status: "precompact" },
    });
    f.checkpoint("2026-11-25T1100-delta.md", { task: "delta", skeleton: true, ageDays: 4 });
    const read = snap(f);
    expect(f.exists(cacheFile(f))).toBe(true);
    const cached = snap(f);
    expect(fieldsByName(cached)).toEqual(fieldsByName(read));
    expect(fieldsByName(cached)["2026-11-28T1100-alpha.md"]?.working).toBe("wiring the CSV button");
    expect(fieldsByName(read)["2026-11-26T1100-gamma.md"]).toMatchObject({
      task: "gamma",
      sessionId: undefined,
      status: "precompact",
    });
    // Proof the second read came from the cache: a same-size, same-mtime, same-inode edit is not seen.
    rewriteInPlace(f, a, "alpha\n", "ALPHA\n");
    expect(fieldsByName(snap(f))["2026-11-28T1100-alpha.md"]?.task).toBe("alpha");
  });

  it("misses when the size, the mtime or the inode differ (a rewrite by rename is a new inode)", () => {
    const f = new MemoryFixture();
    const a = f.checkpoint("2026-11-28T1100-alpha.md", { task: "alpha", ageDays: 1 });
    snap(f);
    // same size and mtime, new inode: written beside, renamed over
    const st = f.fs.statSync(a);
    const text = (f.fs.readFileSync(a, "utf8") as string).replace("alpha\n", "omega\n");
    f.write(`${a}.new`, text, 1);
    (f.fs as unknown as { utimesSync: (p: string, a: number, m: number) => void }).utimesSync(
      `${a}.new`,
      Number(st.mtimeMs) / 1000,
      Number(st.mtimeMs) / 1000,
    );
    f.fs.renameSync(`${a}.new`, a);
    expect(fieldsByName(snap(f))["2026-11-28T1100-alpha.md"]?.task).toBe("omega");
    // other size
    f.checkpoint("2026-11-28T1100-alpha.md", { task: "alphabet", ageDays: 1 });
    expect(fieldsByName(snap(f))["2026-11-28T1100-alpha.md"]?.task).toBe("alphabet");
    // other mtime, same size
    rewriteInPlace(f, a, "alphabet\n", "alphabit\n");
    (f.fs as unknown as { utimesSync: (p: string, a: number, m: number) => void }).utimesSync(
      a,
      f.now.getTime() / 1000 - 3600,
      f.now.getTime() / 1000 - 3600,
    );
    expect(fieldsByName(snap(f))["2026-11-28T1100-alpha.md"]?.task).toBe("alphabit");
  });

  it("does not cache a head younger than the settle time, so an edit within one mtime tick is seen", () => {
    const f = new MemoryFixture();
    const a = f.checkpoint("2026-11-29T1159-alpha.md", {
      task: "alpha",
      ageDays: HEAD_CACHE_SETTLE_MS / 2 / 86_400_000,
    });
    snap(f);
    rewriteInPlace(f, a, "alpha\n", "ALPHA\n");
    expect(fieldsByName(snap(f))["2026-11-29T1159-alpha.md"]?.task).toBe("ALPHA");
  });

  it("is written only for a batch of new heads or of gone entries, and drops the gone ones", () => {
    const f = new MemoryFixture();
    const files = Array.from({ length: 20 }, (_, i) =>
      f.checkpoint(`2026-11-28T11${String(i).padStart(2, "0")}-t${i}.md`, {
        task: `t${i}`,
        ageDays: 1,
      }),
    );
    f.checkpoint("2026-11-28T1000-small.md", { task: "small", ageDays: 1 });
    expect(f.exists(cacheFile(f))).toBe(false);
    snap(f, 100);
    expect(f.exists(cacheFile(f))).toBe(false);
    snap(f, 16);
    const written = JSON.parse(f.fs.readFileSync(cacheFile(f), "utf8") as string) as {
      entries: Record<string, unknown>;
    };
    expect(Object.keys(written.entries)).toHaveLength(21);
    expect((f.fs.statSync(cacheFile(f)).mode as number) & 0o777).toBe(0o600);
    // 5 of 21 gone: under a batch of 16, the file stays as it is
    for (const file of files.slice(0, 5)) f.fs.unlinkSync(file);
    snap(f, 16);
    expect(
      Object.keys(
        (JSON.parse(f.fs.readFileSync(cacheFile(f), "utf8") as string) as typeof written).entries,
      ),
    ).toHaveLength(21);
    // 16 of 21 gone: rewritten with the 5 that are left
    for (const file of files.slice(5, 16)) f.fs.unlinkSync(file);
    snap(f, 16);
    expect(
      Object.keys(
        (JSON.parse(f.fs.readFileSync(cacheFile(f), "utf8") as string) as typeof written).entries,
      ).sort(),
    ).toEqual(["2026-11-28T1000-small.md", ...files.slice(16).map((x) => path.basename(x))].sort());
  });

  it("Tier 1's own-sentinel read does not parse the cache (one head is cheaper than 1,000 entries); the full read uses it", () => {
    const f = new MemoryFixture();
    const a = f.checkpoint("2026-11-28T1100-alpha.md", { task: "alpha", ageDays: 1 });
    f.sentinel(SID, a);
    const st = f.fs.lstatSync(a);
    f.write(
      cacheFile(f),
      JSON.stringify({
        version: 2,
        entries: {
          "2026-11-28T1100-alpha.md": [
            Number(st.mtimeMs),
            Number(st.size),
            Number(st.ino),
            null,
            "from-cache",
            "main",
            SID,
            null,
            null,
            null,
          ],
        },
      }),
    );
    const own = buildMemoryListing(f.fs, f.paths, SID, f.now, {
      checkpointWindowDays: 0,
      ownSentinelOnly: true,
    });
    expect(own.checkpoints[0]?.fields?.task).toBe("alpha");
    expect(fieldsByName(f.listing(SID))["2026-11-28T1100-alpha.md"]?.task).toBe("from-cache");
  });

  it("a listing without a pid (or Tier 1's own-sentinel read) never writes it", () => {
    const f = new MemoryFixture();
    const a = f.checkpoint("2026-11-28T1100-alpha.md", { task: "alpha", ageDays: 1 });
    f.sentinel(SID, a);
    f.listing(SID);
    buildMemoryListing(f.fs, f.paths, SID, f.now, {
      checkpointWindowDays: 0,
      ownSentinelOnly: true,
      headCachePid: 1,
      headCacheBatch: 1,
    });
    expect(f.exists(cacheFile(f))).toBe(false);
  });

  it.each([
    ["not JSON", "{"],
    ["another version (1: before the model's words)", JSON.stringify({ version: 1, entries: {} })],
    ["an array", "[]"],
    [
      "entries of the wrong shape",
      JSON.stringify({
        version: 2,
        entries: {
          "2026-11-28T1100-alpha.md": [1, 2, 3, null, 7, null, false, null, null, null],
        },
      }),
    ],
  ])("a cache file that is %s is ignored and the heads are read", (_what, text) => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-28T1100-alpha.md", { task: "alpha", ageDays: 1 });
    f.write(cacheFile(f), text);
    expect(fieldsByName(snap(f, 1000))["2026-11-28T1100-alpha.md"]?.task).toBe("alpha");
  });

  it("a forged entry with the file's real stat key is what a cache is for, but a symlinked cache file is not read", () => {
    const f = new MemoryFixture();
    const a = f.checkpoint("2026-11-28T1100-alpha.md", { task: "alpha", ageDays: 1 });
    const st = f.fs.lstatSync(a);
    const forged = JSON.stringify({
      version: 2,
      entries: {
        "2026-11-28T1100-alpha.md": [
          Number(st.mtimeMs),
          Number(st.size),
          Number(st.ino),
          null,
          "forged",
          null,
          false,
          null,
          null,
          null,
        ],
      },
    });
    f.write("/home/dev/elsewhere.json", forged);
    (f.fs as unknown as { symlinkSync: (t: string, p: string) => void }).symlinkSync(
      "/home/dev/elsewhere.json",
      cacheFile(f),
    );
    expect(fieldsByName(snap(f, 1000))["2026-11-28T1100-alpha.md"]?.task).toBe("alpha");
  });

  it("is not written through a symlinked memory folder", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-28T1100-alpha.md", { task: "alpha", ageDays: 1 });
    const cache = openHeadCache(f.fs, "/home/dev/proj/.workflow_artifacts/linked");
    (f.fs as unknown as { symlinkSync: (t: string, p: string) => void }).symlinkSync(
      "/tmp",
      "/home/dev/proj/.workflow_artifacts/linked",
    );
    rememberFields(
      cache,
      { name: "x.md", mtimeMs: 0, size: 200, ino: 7 },
      { task: "x" },
      f.now.getTime(),
    );
    expect(saveHeadCache(f.fs, cache, { pid: 1, listed: new Set(["x.md"]), batch: 1 })).toBe(false);
    expect(f.exists(`/tmp/${HEAD_CACHE_FILE}`)).toBe(false);
  });
});

const field = fc.option(fc.string({ maxLength: 80 }), { nil: undefined });

describe("head cache round trip", () => {
  fcTest.prop([
    field,
    field,
    field,
    fc.oneof(fc.constant(undefined), fc.constant(null), fc.string({ maxLength: 40 })),
    field,
  ])("fields written to the cache come back equal", (status, task, branch, sessionId, intent) => {
    const f = new MemoryFixture();
    const fields: HeadFields = {
      ...(status === undefined ? {} : { status }),
      task,
      branch,
      sessionId,
      ...(intent === undefined ? {} : { intent }),
    };
    const key = { name: "2026-11-28T1100-x.md", mtimeMs: 1_000, size: 300, ino: 9 };
    const cache = openHeadCache(f.fs, f.paths.memory);
    rememberFields(cache, key, fields, f.now.getTime());
    expect(saveHeadCache(f.fs, cache, { pid: 1, listed: new Set([key.name]), batch: 1 })).toBe(
      true,
    );
    expect(cachedFields(openHeadCache(f.fs, f.paths.memory), key)).toEqual(fields);
  });
});
