import { describe, expect, it } from "vitest";
import {
  cleanupSummary,
  namedWithinWindow,
  planCleanup,
  runCleanup,
} from "../../../lib/save/cleanup-sweep.ts";
import type { FsApi } from "../../../lib/core/deps.ts";
import { SENTINEL_FAMILIES } from "../../../lib/store/sentinels.ts";
import { CKPTS, DAY, MEM, memWorld, NOW, OTHER, SESSIONS, SID } from "../../helpers/save-deps.ts";

const opts = (over: Partial<Parameters<typeof runCleanup>[3]> = {}) => ({
  currentSessionId: SID,
  sentinelWindowDays: 1,
  checkpointWindowDays: 30,
  trashDays: 30,
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
    expect(planCleanup(w.fs, w.paths, NOW, opts())).toEqual({
      sentinels: [],
      checkpoints: [],
      temps: [],
      purged: [],
    });
  });

  it("sweeps an empty-id orphan once it is older than the window", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-.txt`, "x", 2 * DAY);
    expect(planCleanup(w.fs, w.paths, NOW, opts()).sentinels).toEqual([
      `${MEM}/pending-restore-.txt`,
    ]);
  });

  it("skips the sentinel sweep when the current session is unknown, and still sweeps checkpoints", () => {
    const w = memWorld();
    w.write(`${MEM}/pending-restore-${OTHER}.txt`, "x", 5 * DAY);
    w.write(`${CKPTS}/2026-10-01T1200-old.md`, "x", 40 * DAY);
    const plan = planCleanup(w.fs, w.paths, NOW, opts({ currentSessionId: null }));
    expect(plan).toMatchObject({ sentinels: [], checkpoints: [`${CKPTS}/2026-10-01T1200-old.md`] });
  });

  it("sweeps checkpoints older than QUOIN_CLEANUP_CKPT_WINDOW and never a save's temp file", () => {
    const w = memWorld();
    w.write(`${CKPTS}/2026-10-01T1200-old.md`, "x", 31 * DAY);
    w.write(`${CKPTS}/2026-11-20T1200-new.md`, "x", 9 * DAY);
    w.write(`${CKPTS}/.2026-10-01T1200-x.md.1.1.abc.tmp`, "x", 31 * DAY);
    w.write(`${CKPTS}/.hidden.md`, "x", 31 * DAY);
    expect(planCleanup(w.fs, w.paths, NOW, opts()).checkpoints).toEqual([
      `${CKPTS}/2026-10-01T1200-old.md`,
    ]);
    expect(
      planCleanup(w.fs, w.paths, NOW, opts({ checkpointWindowDays: 5 })).checkpoints,
    ).toHaveLength(2);
    expect(
      planCleanup(w.fs, w.paths, NOW, opts({ checkpointWindowDays: null })).checkpoints,
    ).toEqual([]);
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
    expect(cleanupSummary(w.paths, empty, "2026-11-29")).toBe(
      "[checkpoint] cleanup: nothing stale to clean",
    );
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
    const fs = {
      ...w.fs,
      linkSync: () => {
        throw Object.assign(new Error("gone"), { code: "ENOENT" });
      },
    } as typeof w.fs;
    const r = runCleanup(fs, w.paths, NOW, opts());
    expect(r.failed).toEqual([`${MEM}/pending-restore-${OTHER}.txt`]);
    expect(r.sentinels).toEqual([]);
  });

  // NOW is 2026-11-29T21:07Z. A day folder counts from the end of its day.
  it("deletes trash day folders older than QUOIN_TRASH_DAYS, keeps younger ones, and keeps all with 0", () => {
    const w = memWorld();
    w.write(`${MEM}/trash/2026-10-30/a.txt`, "x", 31 * DAY); // the day ended 2026-10-31T00:00Z: 29.9 days ago
    w.write(`${MEM}/trash/2026-10-29/b.txt`, "x", 32 * DAY); // ended 30.9 days ago
    w.write(`${MEM}/trash/2026-11-28/c.txt`, "x", DAY);
    w.write(`${MEM}/trash/not-a-day/d.txt`, "x", 90 * DAY);
    expect(runCleanup(w.fs, w.paths, NOW, opts({ trashDays: 0 })).purged).toEqual([]);
    expect(w.fs.existsSync(`${MEM}/trash/2026-10-29/b.txt`)).toBe(true);
    const r = runCleanup(w.fs, w.paths, NOW, opts());
    expect(r.purged).toEqual([`${MEM}/trash/2026-10-29`]);
    expect(w.fs.existsSync(`${MEM}/trash/2026-10-29`)).toBe(false);
    for (const kept of ["2026-10-30/a.txt", "2026-11-28/c.txt", "not-a-day/d.txt"])
      expect(w.fs.existsSync(`${MEM}/trash/${kept}`)).toBe(true);
    expect(cleanupSummary(w.paths, r, "2026-11-29")).toContain(
      "deleted 1 trash day folder(s) older than QUOIN_TRASH_DAYS",
    );
  });

  it("a dry run deletes no trash day folder", () => {
    const w = memWorld();
    w.write(`${MEM}/trash/2026-01-01/a.txt`, "x", 300 * DAY);
    const r = runCleanup(w.fs, w.paths, NOW, opts({ dryRun: true }));
    expect(r.purged).toEqual([`${MEM}/trash/2026-01-01`]);
    expect(w.fs.existsSync(`${MEM}/trash/2026-01-01/a.txt`)).toBe(true);
  });

  it("moves temp files of a crashed atomic write older than a day to trash, never a young one or .gitignore", () => {
    const w = memWorld();
    w.write(`${MEM}/.pending-restore-${OTHER}.txt.4242.1.tmp`, "x", 2 * DAY);
    w.write(`${CKPTS}/.2026-11-27T1200-t.md.77.3.tmp`, "x", 2 * DAY);
    w.write(`${SESSIONS}/.implement-${OTHER}.pidfile.lock.9.1.tmp`, "x", 2 * DAY);
    w.write(`${MEM}/.recent-sessions.md.5.1.tmp`, "x", DAY / 2);
    w.write(`${MEM}/.gitignore`, "*\n", 90 * DAY);
    const r = runCleanup(w.fs, w.paths, NOW, opts());
    expect(r.temps).toEqual([
      `${MEM}/.pending-restore-${OTHER}.txt.4242.1.tmp`,
      `${CKPTS}/.2026-11-27T1200-t.md.77.3.tmp`,
      `${SESSIONS}/.implement-${OTHER}.pidfile.lock.9.1.tmp`,
    ]);
    expect(w.fs.existsSync(`${MEM}/trash/2026-11-29/.2026-11-27T1200-t.md.77.3.tmp`)).toBe(true);
    expect(w.fs.existsSync(`${MEM}/.recent-sessions.md.5.1.tmp`)).toBe(true);
    expect(w.fs.existsSync(`${MEM}/.gitignore`)).toBe(true);
  });
});

describe("checkpoints named inside the window are not stat'ed", () => {
  // NOW is 2026-11-29T21:07Z; a 30-day window. The name's day, less one day of margin, must be inside.
  it.each([
    ["2026-11-29T1100-a.md", true],
    ["2026-11-01T0000-a.md", true], // day - 1 = Oct 31 00:00: 29.9 days back
    ["2026-10-31T2359-a.md", false], // day - 1 = Oct 30 00:00: 30.9 days back
    ["2026-11-28-a-precompact.md", true],
    ["2026-11-28-legacy-task.md", true],
    ["2026-11-30T2359-a.md", true], // tomorrow (a clock a day ahead)
    ["2026-12-01T0000-a.md", false], // more than a day ahead: not trusted
    ["2026-13-45T1100-a.md", false], // no such day
    ["notes.md", false],
  ])("%s -> %s", (name, inside) => {
    expect(namedWithinWindow(name, NOW.getTime(), 30)).toBe(inside);
  });

  it("sweeps the same files while stat'ing only those whose name does not prove them young", () => {
    const w = memWorld();
    w.write(`${CKPTS}/2026-11-28T1200-young.md`, "x", DAY);
    w.write(`${CKPTS}/2026-10-01T1200-old.md`, "x", 59 * DAY);
    w.write(`${CKPTS}/2026-10-01T1200-old-name-fresh-file.md`, "x", DAY);
    w.write(`${CKPTS}/2027-01-01T1200-future-name-old-file.md`, "x", 40 * DAY);
    w.write(`${CKPTS}/handwritten.md`, "x", 40 * DAY);
    const statted: string[] = [];
    const fs = new Proxy(w.fs, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== "lstatSync" || typeof value !== "function") return value;
        return (file: string, ...rest: unknown[]) => {
          statted.push(String(file));
          return (value as (...a: unknown[]) => unknown).call(target, file, ...rest);
        };
      },
    }) as FsApi;
    const plan = planCleanup(fs, w.paths, NOW, opts({ currentSessionId: null, trashDays: null }));
    expect(plan.checkpoints).toEqual(
      [
        `${CKPTS}/2027-01-01T1200-future-name-old-file.md`,
        `${CKPTS}/2026-10-01T1200-old.md`,
        `${CKPTS}/handwritten.md`,
      ].sort(),
    );
    expect(statted.filter((f) => f.startsWith(CKPTS)).sort()).toEqual(
      [
        `${CKPTS}/2026-10-01T1200-old.md`,
        `${CKPTS}/2026-10-01T1200-old-name-fresh-file.md`,
        `${CKPTS}/2027-01-01T1200-future-name-old-file.md`,
        `${CKPTS}/handwritten.md`,
      ].sort(),
    );
  });
});
