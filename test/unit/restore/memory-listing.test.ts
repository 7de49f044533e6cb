import { describe, expect, it } from "vitest";
import {
  ROW_HEAD_BYTES,
  headFields,
  readCheckpointHead,
} from "../../../lib/restore/checkpoint-heads.ts";
import { MemoryFixture } from "../../helpers/memory-fixture.ts";
import { buildMemoryListing } from "../../../lib/restore/memory-listing.ts";

describe("buildMemoryListing", () => {
  it("reads heads only of checkpoints a tier needs: in the 30-day window, or named by a sentinel", () => {
    const f = new MemoryFixture();
    const fresh = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 1 });
    const old = f.checkpoint("2026-09-01T1100-alpha.md", { task: "alpha", ageDays: 90 });
    const oldNamed = f.checkpoint("2026-09-02T1100-beta.md", { task: "beta", ageDays: 89 });
    f.sentinel("s-1", oldNamed, 89);
    const snap = f.listing("cur");
    const byPath = new Map(snap.checkpoints.map((c) => [c.path, c]));
    expect(byPath.get(fresh)?.fields?.task).toBe("alpha");
    expect(byPath.get(old)?.fields).toBeUndefined();
    expect(byPath.get(oldNamed)?.fields?.task).toBe("beta");
  });

  it("reads a prefix of a large checkpoint, cut back to whole sections", () => {
    const f = new MemoryFixture();
    const big = f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      extra: { decisions: "d".repeat(20_000) },
    });
    const size = f.fs.statSync(big).size as number;
    const head = readCheckpointHead(f.fs, { path: big, size }) ?? "";
    expect(size).toBeGreaterThan(ROW_HEAD_BYTES);
    expect(head.length).toBeLessThanOrEqual(ROW_HEAD_BYTES);
    expect(head.endsWith("\n\n")).toBe(true);
    expect(f.listing("cur").checkpoints.find((c) => c.path === big)?.fields).toMatchObject({
      task: "alpha",
      branch: "main",
    });
    expect(headFields(head)).toMatchObject({
      task: "alpha",
      branch: "main",
      sessionId: "ffff0000-0000-0000-0000-000000000000",
    });
  });

  it("reads the whole file when the prefix lacks a section the picker needs", () => {
    const f = new MemoryFixture();
    const text = `## Notes\n${"n".repeat(6000)}\n\n## Active task\nlate\n\n## Branch\ndev\n`;
    const file = f.checkpoint("2026-11-29T1100-late.md", { task: "late", raw: text });
    const fields = f.listing("cur").checkpoints.find((c) => c.path === file)?.fields;
    expect(fields).toMatchObject({ task: "late", branch: "dev", sessionId: undefined });
  });

  it("skips temp files and keeps sentinel line 1 and the compact-happened exemption", () => {
    const f = new MemoryFixture();
    f.write(`${f.paths.checkpoints}/.2026-11-29T1100-alpha.md.1.1.abc.tmp`, "x".repeat(200));
    f.sentinel("s-1", "/somewhere/else.md\r");
    f.compactHappened("cur");
    const snap = f.listing("cur");
    expect(snap.checkpoints).toHaveLength(0);
    expect(snap.pendingRestores[0]?.firstLine).toBe("/somewhere/else.md");
    expect(snap.compactHappened).toBe(true);
    expect(f.listing("other").compactHappened).toBe(false);
  });
});

describe("symlinks", () => {
  it("never reads a symlink in checkpoints/, even when a sentinel names it", () => {
    const f = new MemoryFixture();
    f.write(
      "/home/dev/.ssh/id_rsa.md",
      "## Active task\nsecret\n\n## Branch\nmain\n".padEnd(300, "k"),
    );
    const link = `${f.paths.checkpoints}/2026-11-29T1100-alpha.md`;
    (f.fs as unknown as { symlinkSync: (t: string, p: string) => void }).symlinkSync(
      "/home/dev/.ssh/id_rsa.md",
      link,
    );
    f.sentinel("cur", link);
    const snap = f.listing("cur");
    expect(snap.checkpoints).toEqual([]);
  });
});

describe("headFields", () => {
  it("reads the value on the line after the heading, CR stripped", () => {
    expect(
      headFields(
        "## Active task\r\nalpha\r\n\r\n## Branch\r\nmain\r\n\r\n## Session ID\r\nunknown\r\n",
      ),
    ).toEqual({ task: "alpha", branch: "main", sessionId: null });
  });
});

describe("headFields agrees with the full parser", () => {
  const variants = [
    "## Active task\nalpha\n\n## Branch\nmain\n\n## Session ID\nabc-1\n",
    "## Status\nx\n\n## Active task\r\nalpha\r\n## Branch:\r\n\r\n  feat/y  \r\n## Session ID\r\nunknown\r\n",
    "## Active task\n\n## Branch\n## Session ID\n",
    "## branch\ndev\n### not a heading\n## Active task\nlate\n",
    "no headings at all\n",
    "## Session ID\n\n\nlast-one",
  ];
  for (const text of variants) {
    it(`for ${JSON.stringify(text.slice(0, 40))}`, async () => {
      const { parseCheckpoint } = await import("../../../lib/store/checkpoint-parse.ts");
      const full = parseCheckpoint(text);
      const status = full.status?.split("\n")[0]?.trim();
      expect(headFields(text)).toEqual({
        ...(status ? { status } : {}),
        task: full.task,
        branch: full.branch,
        sessionId: full.sessionId,
      });
    });
  }
});

describe("sentinel window", () => {
  it("reads line 1 of a stale pending-restore only for this session or a session with a held prompt", () => {
    const f = new MemoryFixture();
    const target = f.checkpoint("2026-11-19T1100-alpha.md", { task: "alpha", ageDays: 10 });
    f.sentinel("aaaa0000-0000-4000-8000-000000000001", target, 10);
    f.sentinel("aaaa0000-0000-4000-8000-000000000002", target, 10);
    f.sentinel("aaaa0000-0000-4000-8000-000000000003", target, 10);
    f.sentinel("aaaa0000-0000-4000-8000-000000000004", target, 1);
    f.prompt("aaaa0000-0000-4000-8000-000000000003", "held\n", 1);
    const snap = buildMemoryListing(f.fs, f.paths, "aaaa0000-0000-4000-8000-000000000001", f.now, {
      checkpointWindowDays: 30,
      sentinelWindowDays: 7,
    });
    const lines = Object.fromEntries(
      snap.pendingRestores.map((s) => [s.sid.slice(-1), s.firstLine]),
    );
    expect(lines).toEqual({ "1": target, "2": "", "3": target, "4": target });
    // without a window every sentinel is read (list, successor)
    const all = f.listing("other");
    expect(all.pendingRestores.every((s) => s.firstLine === target)).toBe(true);
  });
});
