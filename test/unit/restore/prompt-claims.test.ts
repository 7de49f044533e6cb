import { describe, expect, it } from "vitest";
import {
  allTakenLine,
  claimFile,
  claimReplay,
  claimedBy,
} from "../../../lib/store/prompt-claims.ts";
import { promptKey } from "../../../lib/restore/prompt-replay.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

const FILE = "/home/u/proj/.workflow_artifacts/memory/pending-prompt-s1.txt";
const entry = (n: number, text: string) => ({
  n,
  text,
  timestamp: `2026-12-03T06:0${n}:00Z`,
  nonReplayable: false,
});
const ONE = entry(1, "migrate the users table");
const TWO = entry(2, "then deploy to prod");
const A = "aaaaaaaa-0000-4000-8000-000000000001";
const B = "bbbbbbbb-0000-4000-8000-000000000002";

describe("claiming held prompts", () => {
  it("the first restore gets every prompt it chose; the second gets none and is told who took them", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    const first = claimReplay(deps, FILE, { replay: [ONE, TWO], edit: null }, promptKey, A);
    expect(first).toEqual({ replay: [ONE, TWO], edit: null, warning: null });
    const second = claimReplay(deps, FILE, { replay: [ONE, TWO], edit: null }, promptKey, B);
    expect(second.replay).toEqual([]);
    expect(second.warning).toBe(
      "[checkpoint] held prompt 1 was taken by session aaaaaaaa's restore (at 2026-12-03T07:00:00Z); not replayed here, nor the later 2, so each prompt runs once and in order",
    );
    expect(claimedBy(deps, promptKey)(FILE, ONE)).toBe(true);
    expect(claimedBy(deps, promptKey)("/other/pending-prompt-s1.txt", ONE)).toBe(false);
  });

  it("stops at the first prompt another restore holds: never a gap in the run it replays", () => {
    const deps = fakeDeps();
    claimReplay(deps, FILE, { replay: [TWO], edit: null }, promptKey, A);
    const later = claimReplay(deps, FILE, { replay: [ONE, TWO], edit: null }, promptKey, B);
    expect(later.replay).toEqual([ONE]);
    expect(later.warning).toContain("held prompt 2 was taken by session aaaaaaaa's restore");
  });

  it("while another restore is claiming its run, a restore that listed only the later prompts takes none of them", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    // A has claimed prompt 1 and holds the run's lock, not yet at prompt 2; B listed after A's
    // first claim, so it sees prompt 2 alone
    const lock = claimFile(`${deps.home}/.claude`, FILE, "claiming");
    deps.fs.mkdirSync(lock.slice(0, lock.lastIndexOf("/")), { recursive: true });
    deps.fs.writeFileSync(lock, `${JSON.stringify({ by: A, at: "2026-12-03T07:00:00Z" })}\n`);
    const b = claimReplay(deps, FILE, { replay: [TWO], edit: null }, promptKey, B);
    expect(b.replay).toEqual([]);
    expect(b.warning).toContain("held prompt 2 was taken by session aaaaaaaa's restore");
    expect(claimedBy(deps, promptKey)(FILE, TWO)).toBe(false);
  });

  it("waits for another restore's run lock, then reads its claims: it says which prompt and who", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    const lock = claimFile(`${deps.home}/.claude`, FILE, "claiming");
    deps.fs.mkdirSync(lock.slice(0, lock.lastIndexOf("/")), { recursive: true });
    deps.fs.writeFileSync(lock, `${JSON.stringify({ by: A, at: "2026-12-03T07:00:00Z" })}\n`);
    let slept = 0;
    // A finishes its run while B waits: both claims written, the lock gone
    deps.sleep = () => {
      if (++slept < 3) return;
      deps.fs.unlinkSync(lock);
      claimReplay(
        { ...deps, sleep: undefined },
        FILE,
        { replay: [ONE, TWO], edit: null },
        promptKey,
        A,
      );
    };
    const b = claimReplay(deps, FILE, { replay: [ONE, TWO], edit: null }, promptKey, B);
    expect(slept).toBe(3);
    expect(b.replay).toEqual([]);
    expect(b.warning).toContain("held prompt 1 was taken by session aaaaaaaa's restore");
  });

  it("a run lock still held after the bounded wait: it reports the lock's owner and takes nothing", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    const lock = claimFile(`${deps.home}/.claude`, FILE, "claiming");
    deps.fs.mkdirSync(lock.slice(0, lock.lastIndexOf("/")), { recursive: true });
    deps.fs.writeFileSync(lock, `${JSON.stringify({ by: A, at: "2026-12-03T07:00:00Z" })}\n`);
    let waited = 0;
    deps.sleep = (ms) => {
      waited += ms;
    };
    const b = claimReplay(deps, FILE, { replay: [ONE, TWO], edit: null }, promptKey, B);
    expect(waited).toBe(3_000);
    expect(b.replay).toEqual([]);
    expect(b.warning).toContain("held prompt 1 was taken by session aaaaaaaa's restore");
  });

  it("a run's lock left by a restore that died is taken over after 10 s", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    const lock = claimFile(`${deps.home}/.claude`, FILE, "claiming");
    deps.fs.mkdirSync(lock.slice(0, lock.lastIndexOf("/")), { recursive: true });
    deps.fs.writeFileSync(lock, "{}\n");
    const old = new Date("2026-12-03T06:59:40Z");
    (deps.fs as unknown as { utimesSync: (p: string, a: Date, m: Date) => void }).utimesSync(
      lock,
      old,
      old,
    );
    const b = claimReplay(deps, FILE, { replay: [ONE, TWO], edit: null }, promptKey, B);
    expect(b.replay).toEqual([ONE, TWO]);
    expect(deps.fs.existsSync(lock)).toBe(false);
  });

  it("an edit is claimed like a replay", () => {
    const deps = fakeDeps();
    expect(claimReplay(deps, FILE, { replay: [], edit: TWO }, promptKey, A).edit).toEqual(TWO);
    expect(claimReplay(deps, FILE, { replay: [], edit: TWO }, promptKey, B).edit).toBeNull();
  });
});

describe("a restore that finds every held prompt already taken", () => {
  it("says by whom instead of saying nothing", () => {
    const deps = fakeDeps({ now: "2026-12-03T07:00:00Z" });
    const text = "=== BLOCKED PROMPT [2026-12-03T06:01:00Z] ===\nmigrate the users table\n";
    const held = [{ file: FILE, sid: "s1", text }];
    expect(allTakenLine(deps, held, "s1", promptKey)).toBeNull();
    claimReplay(
      deps,
      FILE,
      { replay: [{ ...ONE, timestamp: "2026-12-03T06:01:00Z" }], edit: null },
      promptKey,
      A,
    );
    expect(allTakenLine(deps, held, "s1", promptKey)).toBe(
      "[checkpoint] the 1 held prompt(s) of session s1 were already taken by session aaaaaaaa's restore (at 2026-12-03T07:00:00Z); none is replayed here, so each runs once",
    );
    expect(allTakenLine(deps, held, "other", promptKey)).toBeNull();
  });
});
