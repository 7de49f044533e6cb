import { describe, expect, it } from "vitest";
import { cleanupSummary, planCleanup, runCleanup } from "../../../lib/save/cleanup-sweep.ts";
import { SENTINEL_FAMILIES } from "../../../lib/store/sentinels.ts";
import { CKPTS, DAY, MEM, memWorld, NOW, OTHER, SID } from "../../helpers/save-deps.ts";

const opts = (over: Partial<Parameters<typeof runCleanup>[3]> = {}) => ({
  currentSessionId: SID,
  sentinelWindowDays: 1,
  checkpointWindowDays: 30,
  dryRun: false,
  ...over,
});

describe("cleanup core", () => {
  it("sweeps stale sentinels of every registered family but never the current session's, whatever their age", () => {
    const w = memWorld();
    for (const family of SENTINEL_FAMILIES) {
      w.write(`${MEM}/${family}-${OTHER}.txt`, "x", 3 * DAY);
      w.write(`${MEM}/${family}-${SID}.txt`, "x", 30 * DAY);
    }
    const r = runCleanup(w.fs, w.paths, NOW, opts());
    expect(r.sentinels.length).toBe(SENTINEL_FAMILIES.length);
    for (const family of SENTINEL_FAMILIES) {
      expect(w.fs.existsSync(`${MEM}/${family}-${SID}.txt`)).toBe(true);
      expect(w.fs.existsSync(`${MEM}/${family}-${OTHER}.txt`)).toBe(false);
      expect(w.fs.existsSync(`${MEM}/trash/2026-11-29/${family}-${OTHER}.txt`)).toBe(true);
    }
  });

  it("keeps sentinels younger than the window and files that are not sentinels", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-${OTHER}.txt`, "x", DAY / 2);
    w.write(`${MEM}/recent-sessions.md`, "x", 90 * DAY);
    w.write(`${MEM}/notes-${OTHER}.txt`, "x", 90 * DAY);
    expect(planCleanup(w.fs, w.paths, NOW, opts())).toEqual({ sentinels: [], checkpoints: [] });
  });

  it("sweeps an empty-id orphan once it is older than the window", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-.txt`, "x", 2 * DAY);
    expect(planCleanup(w.fs, w.paths, NOW, opts()).sentinels).toEqual([`${MEM}/pending-restore-.txt`]);
  });

  it("skips the sentinel sweep when the current session is unknown, and still sweeps checkpoints", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-${OTHER}.txt`, "x", 5 * DAY);
    w.write(`${CKPTS}/2026-10-01T1200-old.md`, "x", 40 * DAY);
    const plan = planCleanup(w.fs, w.paths, NOW, opts({ currentSessionId: null }));
    expect(plan).toEqual({ sentinels: [], checkpoints: [`${CKPTS}/2026-10-01T1200-old.md`] });
  });

  it("sweeps checkpoints older than QUOIN_CLEANUP_CKPT_WINDOW and never a save's temp file", () => {
    const w = memWorld();
    w.write(`${CKPTS}/2026-10-01T1200-old.md`, "x", 31 * DAY);
    w.write(`${CKPTS}/2026-11-20T1200-new.md`, "x", 9 * DAY);
    w.write(`${CKPTS}/.2026-10-01T1200-x.md.1.1.abc.tmp`, "x", 31 * DAY);
    w.write(`${CKPTS}/.hidden.md`, "x", 31 * DAY);
    expect(planCleanup(w.fs, w.paths, NOW, opts()).checkpoints).toEqual([`${CKPTS}/2026-10-01T1200-old.md`]);
    expect(planCleanup(w.fs, w.paths, NOW, opts({ checkpointWindowDays: 5 })).checkpoints).toHaveLength(2);
    expect(planCleanup(w.fs, w.paths, NOW, opts({ checkpointWindowDays: null })).checkpoints).toEqual([]);
  });

  it("moves nothing on a dry run and reports what it would move", () => {
    const w = memWorld();
    w.write(`${MEM}/checkpoint-defer-${OTHER}.txt`, "x", 2 * DAY);
    const before = w.files();
    const r = runCleanup(w.fs, w.paths, NOW, opts({ dryRun: true }));
    expect(r.sentinels).toHaveLength(1);
    expect(w.files()).toEqual(before);
    expect(cleanupSummary(w.paths, r, "2026-11-29")).toContain("would trash 1 sentinel(s)");
  });

  it("says nothing stale, or names the counts and the recover command", () => {
    const w = memWorld();
    const empty = runCleanup(w.fs, w.paths, NOW, opts());
    expect(cleanupSummary(w.paths, empty, "2026-11-29")).toBe("[checkpoint] cleanup: nothing stale to clean");
    w.write(`${MEM}/pending-prompt-${OTHER}.txt`, "x", 2 * DAY);
    w.write(`${CKPTS}/2026-10-01T1200-old.md`, "x", 40 * DAY);
    const r = runCleanup(w.fs, w.paths, NOW, opts());
    const line = cleanupSummary(w.paths, r, "2026-11-29");
    expect(line).toContain("trashed 1 sentinel(s)");
    expect(line).toContain("1 checkpoint(s)");
    expect(line).toContain(`(recover: mv ${MEM}/trash/2026-11-29/<file> <original-dir>)`);
  });

  it("reports a file another process moved first instead of failing", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-${OTHER}.txt`, "x", 2 * DAY);
    const fs = { ...w.fs, linkSync: () => { throw Object.assign(new Error("gone"), { code: "ENOENT" }); } } as typeof w.fs;
    const r = runCleanup(fs, w.paths, NOW, opts());
    expect(r.failed).toEqual([`${MEM}/pending-restore-${OTHER}.txt`]);
    expect(r.sentinels).toEqual([]);
  });
});
