import { describe, expect, it } from "vitest";
import { pickRestore, isSameSession } from "../../../lib/restore/restore-picker.ts";
import type { B3Route, PickerDecision } from "../../../lib/restore/picker-decision.ts";
import { MemoryFixture, SETTINGS } from "../../helpers/memory-fixture.ts";
import { variant } from "../../helpers/narrow.ts";

const CUR = "cccc0000-0000-0000-0000-000000000001";
const OLD = "aaaa0000-0000-0000-0000-000000000002";
const OTHER = "bbbb0000-0000-0000-0000-000000000003";

type Expect = {
  action: PickerDecision["action"];
  path?: string;
  consumed?: "" | "sentinel" | string;
  route?: string;
};

function check(d: PickerDecision, e: Expect, sentinel?: string) {
  expect(d.action).toBe(e.action);
  if (e.path !== undefined) expect("path" in d ? d.path : undefined).toBe(e.path);
  if (e.route !== undefined) expect(d.action === "synthesize" ? d.route : undefined).toBe(e.route);
  if (e.consumed !== undefined) {
    const consumed =
      d.action === "restore" || d.action === "synthesize" ? d.consumedSentinelPath : "";
    expect(consumed).toBe(e.consumed === "sentinel" ? sentinel : e.consumed);
  }
}

describe("Tier 1: the current-session sentinel", () => {
  const cases: Array<{
    name: string;
    setup: (f: MemoryFixture) => string | undefined;
    sid?: string;
    expect: Expect;
  }> = [
    {
      name: "returns the same-task checkpoint at once (path 1, nothing consumed)",
      setup: (f) => {
        f.sessionState("2026-11-29-alpha.md", undefined, 0.5);
        f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.04 }));
        return undefined;
      },
      expect: { action: "restore", path: "1", consumed: "" },
    },
    {
      name: "passes a several-days-old same-task sentinel (no staleness check)",
      setup: (f) => {
        f.sessionState("2026-11-29-alpha.md", undefined, 0);
        f.sentinel(CUR, f.checkpoint("2026-11-24T1100-alpha.md", { task: "alpha", ageDays: 5 }), 5);
        return undefined;
      },
      expect: { action: "restore", path: "1", consumed: "" },
    },
    {
      name: "passes when no session-state exists (guard short-circuits)",
      setup: (f) => {
        f.sentinel(CUR, f.checkpoint("2026-11-20T1100-alpha.md", { task: "alpha", ageDays: 9 }), 9);
        return undefined;
      },
      expect: { action: "restore", path: "1", consumed: "" },
    },
    {
      name: "routes a cross-task sentinel to B3 with a loud warning (path 1a)",
      setup: (f) => {
        f.sessionState("2026-11-29-beta.md", undefined, 0);
        f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.04 }));
        return undefined;
      },
      expect: { action: "synthesize", path: "1a", consumed: "", route: "tier1-cross-task" },
    },
    {
      name: "falls through when the sentinel names a missing file",
      setup: (f) => {
        f.sentinel(CUR, `${f.paths.checkpoints}/2026-11-29T1100-gone.md`);
        return undefined;
      },
      expect: { action: "none", path: "2" },
    },
    {
      name: "falls through when the sentinel names a file outside checkpoints/",
      setup: (f) => {
        const outside = f.write(
          `${f.paths.memory}/2026-11-29T1100-alpha.md`,
          "## Active task\nalpha\n\n## Branch\nmain\n".padEnd(200, " "),
        );
        f.sentinel(CUR, outside);
        return undefined;
      },
      expect: { action: "none", path: "2" },
    },
    {
      name: "falls through when the sentinel path climbs out with ..",
      setup: (f) => {
        f.write(
          "/home/dev/proj/evil.md",
          "## Active task\nalpha\n\n## Branch\nmain\n".padEnd(200, " "),
        );
        f.sentinel(CUR, `${f.paths.checkpoints}/../../../evil.md`);
        return undefined;
      },
      expect: { action: "none", path: "2" },
    },
    {
      name: "restores (to show it) a damaged checkpoint this session's sentinel names",
      setup: (f) => {
        f.sentinel(
          CUR,
          f.checkpoint("2026-11-29T1100-x.md", {
            task: "",
            raw: "## Status\nsaved\n\n## Branch\nmain\n".padEnd(300, "x"),
          }),
        );
        return undefined;
      },
      expect: { action: "restore", path: "1" },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const f = new MemoryFixture();
      c.setup(f);
      check(pickRestore(f.listing(c.sid ?? CUR), SETTINGS), c.expect);
    });
  }

  for (const sid of ["", "unknown"]) {
    it(`is skipped for the session id ${JSON.stringify(sid)} (no pending-restore-${sid}.txt lookup)`, () => {
      const f = new MemoryFixture();
      const orphanTarget = f.checkpoint("2026-11-29T0900-alpha.md", {
        task: "alpha",
        ageDays: 0.2,
      });
      f.sentinel(sid, orphanTarget, 0.2);
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.04 });
      const d = pickRestore(f.listing(sid), SETTINGS);
      expect(d.action).toBe("choose");
    });
  }

  it("with --synthesize after a cross-task suppression restores from session-state (path 5)", () => {
    const f = new MemoryFixture();
    f.sessionState("2026-11-29-beta.md", "## Unfinished work\n- 1. \u23F3 T-04 wire up X\n", 0);
    f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.04 }));
    const d = pickRestore(f.listing(CUR), SETTINGS, { synthesize: true });
    check(d, { action: "synthesize", path: "5", consumed: "" });
    const synth = variant(d, "action", "synthesize");
    expect(synth.confirmed).toBe(true);
    expect(synth.synthesis.intent).toBe("T-04 wire up X");
  });
});

describe("Tier 2: pending-prompt cross-reference", () => {
  it("anchors on another session that has both a pending-prompt and a pending-restore", () => {
    const f = new MemoryFixture();
    const cp = f.checkpoint("2026-11-29T0800-alpha.md", {
      task: "alpha",
      ageDays: 0.2,
      sessionId: OLD,
    });
    const sentinel = f.sentinel(OLD, cp, 0.2);
    f.prompt(OLD, "=== BLOCKED PROMPT [2026-11-29T08:00:00Z] ===\nrun the tests\n", 0.2);
    f.checkpoint("2026-11-29T1100-other.md", { task: "other", ageDays: 0.01 });
    const d = pickRestore(f.listing(CUR), SETTINGS);
    check(d, { action: "restore", path: "tier2", consumed: "sentinel" }, sentinel);
    expect(variant(d, "action", "restore").candidate.file).toBe(cp);
  });

  it("anchors on a days-old blocked session of the same task as today's session-state (no staleness check)", () => {
    const f = new MemoryFixture();
    const sentinel = f.sentinel(
      OLD,
      f.checkpoint("2026-11-25T0800-alpha.md", { task: "alpha", ageDays: 4 }),
      4,
    );
    f.prompt(OLD, "a prompt", 4);
    f.sessionState("2026-11-29-alpha.md", undefined, 0.1);
    check(
      pickRestore(f.listing(CUR), SETTINGS),
      { action: "restore", path: "tier2", consumed: "sentinel" },
      sentinel,
    );
  });

  it("tries the freshest pending-prompt first (mtime order)", () => {
    const f = new MemoryFixture();
    f.sentinel(OLD, f.checkpoint("2026-11-28T0800-alpha.md", { task: "alpha", ageDays: 1 }), 1);
    f.prompt(OLD, "old prompt", 1);
    const fresh = f.checkpoint("2026-11-29T0800-beta.md", { task: "beta", ageDays: 0.2 });
    f.sentinel(OTHER, fresh, 0.2);
    f.prompt(OTHER, "new prompt", 0.2);
    const d = pickRestore(f.listing(CUR), SETTINGS);
    expect(variant(d, "action", "restore").candidate.file).toBe(fresh);
  });

  it("ignores pending-prompts outside the sentinel window", () => {
    const f = new MemoryFixture();
    f.sentinel(OLD, f.checkpoint("2026-11-20T0800-alpha.md", { task: "alpha", ageDays: 9 }), 9);
    f.prompt(OLD, "old prompt", 9);
    // Not the Tier 2 anchor; Tier 3 still finds the 9-day-old checkpoint on disk (sentinel out of window).
    check(pickRestore(f.listing(CUR), SETTINGS), { action: "restore", path: "3a", consumed: "" });
  });

  it("seeds the gate's task from the session-state that names the prompt's session (UUID grep)", () => {
    const f = new MemoryFixture();
    f.sessionState("2026-11-28-beta.md", `## Cost\n- Session UUID: ${OLD}\n`, 0.3);
    f.sessionState("2026-11-29-alpha.md", "## Current stage\nx\n", 0.2);
    f.prompt(OLD, "a prompt", 0.2);
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    const d = pickRestore(f.listing(CUR), SETTINGS);
    // alpha matches the freshest session file, but the anchor task (beta) wins: cross-task, suppressed.
    check(d, { action: "synthesize", route: "gate" });
    expect(variant(d, "action", "synthesize").warnings.join("\n")).toContain(
      "freshest session task='beta'",
    );
  });

  it("falls back to the newest session-state when no file names the prompt's session", () => {
    const f = new MemoryFixture();
    f.sessionState("2026-11-29-alpha.md", "## Current stage\nx\n", 0.2);
    f.prompt(OLD, "a prompt", 0.2);
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    check(pickRestore(f.listing(CUR), SETTINGS), { action: "restore", path: "3a", consumed: "" });
  });
});

describe("sentinel paths are trusted only inside checkpoints/", () => {
  function outside(f: MemoryFixture): string {
    return f.write(
      "/home/dev/proj/notes/2026-11-29T1100-alpha.md",
      "## Active task\nalpha\n\n## Branch\nmain\n".padEnd(300, " "),
      0.01,
    );
  }
  it("Tier 2 does not anchor on a sentinel naming a file elsewhere", () => {
    const f = new MemoryFixture();
    f.sentinel(OLD, outside(f), 0.01);
    f.prompt(OLD, "p", 0.01);
    check(pickRestore(f.listing(CUR), SETTINGS), { action: "none", path: "2" });
  });
  it("Tier 3 does not list a sentinel naming a file elsewhere, or a relative path", () => {
    const f = new MemoryFixture();
    f.sentinel(OLD, outside(f), 0.01);
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.02 });
    f.sentinel(OTHER, ".workflow_artifacts/memory/checkpoints/2026-11-29T1100-alpha.md", 0.01);
    const d = pickRestore(f.listing(CUR), SETTINGS);
    check(d, { action: "restore", path: "3a", consumed: "" });
  });
});

describe("Tier 3: enumeration", () => {
  it("counts sentinels outside QUOIN_RESTORE_SENTINEL_WINDOW and says so", () => {
    const f = new MemoryFixture();
    f.sentinel(OLD, f.checkpoint("2026-11-20T0800-alpha.md", { task: "alpha", ageDays: 9 }), 9);
    f.sentinel(OTHER, f.checkpoint("2026-11-19T0800-alpha.md", { task: "alpha", ageDays: 10 }), 10);
    const cp = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.1 });
    const s = f.sentinel("dddd", cp, 0.1);
    const d = pickRestore(f.listing(CUR), { ...SETTINGS, staleDays: 30 });
    expect(variant(d, "action", "choose").warnings).toContain(
      "[checkpoint] 2 stale pending-restore-*.txt sentinels older than 7d skipped",
    );
    expect(variant(d, "action", "choose").list.find((c) => c.file === cp)?.sentinel).toBe(s);
  });

  it("honours a wider sentinel window from the knob", () => {
    const f = new MemoryFixture();
    f.sentinel(OLD, f.checkpoint("2026-11-20T0800-alpha.md", { task: "alpha", ageDays: 9 }), 9);
    const d = pickRestore(f.listing(CUR), { ...SETTINGS, sentinelWindowDays: 10, staleDays: 30 });
    check(d, { action: "restore", path: "3" });
  });

  it("leaves out checkpoints older than 30 days; lists a file cut short, marked, never picked by itself", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-10-20T0800-alpha.md", { task: "alpha", ageDays: 40 });
    f.checkpoint("2026-11-29T0800-alpha.md", {
      task: "alpha",
      raw: "## Active task\nalpha\n",
      ageDays: 0.1,
    });
    const o = variant(pickRestore(f.listing(CUR), SETTINGS), "action", "choose");
    expect(o.list.map((c) => [c.n, c.name, c.note])).toEqual([
      [1, "2026-11-29T0800-alpha.md", "damaged: cut short"],
    ]);
    expect(o.numbered).toBe(2);
  });

  it("restores the one whole candidate beside a damaged one, and names the damaged one", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0800-alpha.md", {
      task: "",
      raw: "## Status\nsaved\n".padEnd(200, "x"),
      ageDays: 0.1,
    });
    f.checkpoint("2026-11-29T0900-alpha.md", { task: "alpha", ageDays: 0.05 });
    const o = pickRestore(f.listing(CUR), SETTINGS);
    check(o, { action: "restore", path: "3a" });
    expect(variant(o, "action", "restore").warnings.join("\n")).toContain(
      "2026-11-29T0800-alpha.md is damaged: cut short: not restored by itself",
    );
  });

  it("de-duplicates a precompact twin within QUOIN_PICKER_DEDUP_WINDOW, keeps older pairs", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29-alpha.md", { task: "alpha", ageDays: 0.1 });
    f.checkpoint("2026-11-29-alpha-precompact.md", { task: "alpha", ageDays: 0.2, skeleton: true });
    const one = pickRestore(f.listing(CUR), SETTINGS);
    check(one, { action: "restore", path: "3a" });
    expect(variant(one, "action", "restore").candidate.name).toBe("2026-11-29-alpha.md");
    const two = pickRestore(f.listing(CUR), { ...SETTINGS, dedupWindowDays: 0.05 });
    expect(variant(two, "action", "choose").list.map((c) => c.name)).toEqual([
      "2026-11-29-alpha.md",
      "2026-11-29-alpha-precompact.md",
    ]);
  });

  it("labels the three saved-time shapes and marks a missing Session ID as legacy", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0930-alpha.md", { task: "alpha", ageDays: 0.1 });
    f.checkpoint("2026-11-28-alpha.md", { task: "alpha", ageDays: 0.2, sessionId: "legacy" });
    f.checkpoint("2026-11-27-alpha-precompact.md", { task: "alpha", ageDays: 0.3, skeleton: true });
    const d = pickRestore(f.listing(CUR), { ...SETTINGS, staleDays: 30 });
    expect(
      variant(d, "action", "choose").list.map((c) => [c.saved, c.sessionId === undefined]),
    ).toEqual([
      // the two of the fixture's session together, the legacy one (no session) after them
      ["2026-11-29 09:30 UTC", false],
      ["2026-11-27 (precompact)", false],
      ["2026-11-28 (legacy)", true],
    ]);
  });
});

describe("B3 trigger and synthesis", () => {
  it("clause A: no candidate and a recent session-state offers synthesis", () => {
    const f = new MemoryFixture();
    f.sessionState(
      "2026-11-29-dgp-price-interactions.md",
      "## Current stage\n\nwiring\n\n## Unfinished work\n\n* \u2713 done thing\n",
      0.1,
    );
    const d = pickRestore(f.listing(CUR), SETTINGS);
    check(d, { action: "synthesize", path: "5", route: "clause-A", consumed: "" });
    if (d.action !== "synthesize") throw new Error("unreachable");
    expect(d.synthesis).toMatchObject({
      task: "dgp-price-interactions",
      currentStage: "wiring",
      intent: "done thing",
    });
    expect(d.warnings.join("\n")).toContain(
      "Synthesize a minimal restore from session-state only? [y / n]",
    );
  });

  it("clause A with no session-state falls through to 'no checkpoints found' (path 2)", () => {
    const f = new MemoryFixture();
    check(pickRestore(f.listing(CUR), SETTINGS), { action: "none", path: "2" });
  });

  it("clause A ignores session-state older than QUOIN_SESSION_FALLBACK_WINDOW", () => {
    const f = new MemoryFixture();
    f.sessionState("2026-11-10-alpha.md", undefined, 19);
    check(pickRestore(f.listing(CUR), SETTINGS), { action: "none" });
  });

  it("clause B: every candidate older than the freshest session-state fires B3", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0800-alpha.md", { task: "alpha", ageDays: 0.2 });
    f.checkpoint("2026-11-29T0700-alpha.md", { task: "alpha", ageDays: 0.25 });
    f.sessionState("2026-11-29-alpha.md", undefined, 0.1);
    check(pickRestore(f.listing(CUR), SETTINGS), { action: "synthesize", route: "clause-B" });
  });

  it("clause B does not fire when one candidate is newer than the session-state", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T0800-alpha.md", { task: "alpha", ageDays: 0.2 });
    f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.sessionState("2026-11-29-alpha.md", undefined, 0.1);
    expect(pickRestore(f.listing(CUR), SETTINGS).action).toBe("choose");
  });

  it("clause B does not fire for a session-state outside the fallback window", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-10T0800-alpha.md", { task: "alpha", ageDays: 19 });
    f.sessionState("2026-11-19-alpha.md", undefined, 10);
    // The gate still sees the session-state (no window there): stale, so no silent auto-pick;
    // B3 has nothing in the window, so the user gets the list instead.
    const d = pickRestore(f.listing(CUR), SETTINGS);
    expect(variant(d, "action", "choose").reason).toBe("b3-unavailable");
  });
});

describe("combined auto-pick gate", () => {
  const cases: Array<{
    name: string;
    ageDays: number;
    task: string;
    session?: { name: string; ageDays: number };
    sentinel?: boolean;
    expect: Expect;
  }> = [
    {
      name: "auto-picks a fresh same-task disk-only checkpoint (path 3a)",
      ageDays: 0.01,
      task: "alpha",
      session: { name: "2026-11-29-alpha.md", ageDays: 0.1 },
      expect: { action: "restore", path: "3a", consumed: "" },
    },
    {
      name: "auto-picks a fresh sentinel-backed checkpoint and consumes its sentinel (path 3)",
      ageDays: 0.01,
      task: "alpha",
      sentinel: true,
      expect: { action: "restore", path: "3", consumed: "sentinel" },
    },
    {
      name: "suppresses a stale same-task checkpoint when a session-state exists",
      ageDays: 3,
      task: "alpha",
      session: { name: "2026-11-20-alpha.md", ageDays: 9 },
      expect: { action: "choose" },
    },
    {
      name: "does not call a checkpoint stale when no session-state exists",
      ageDays: 3,
      task: "alpha",
      expect: { action: "restore", path: "3a" },
    },
    {
      name: "suppresses a fresh cross-task checkpoint",
      ageDays: 0.01,
      task: "alpha",
      session: { name: "2026-11-29-beta.md", ageDays: 0.1 },
      expect: { action: "synthesize", route: "gate" },
    },
    {
      name: "compares task names reduced, as the save side writes them",
      ageDays: 0.01,
      task: "my-task",
      session: { name: "2026-11-29-My_Task.md", ageDays: 0.1 },
      expect: { action: "restore", path: "3a" },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const f = new MemoryFixture();
      const cp = f.checkpoint("2026-11-29T1100-x.md", { task: c.task, ageDays: c.ageDays });
      const s = c.sentinel ? f.sentinel(OLD, cp, c.ageDays) : undefined;
      if (c.session) f.sessionState(c.session.name, undefined, c.session.ageDays);
      check(pickRestore(f.listing(CUR), SETTINGS), c.expect, s);
    });
  }

  it("honours QUOIN_RESTORE_STALE_DAYS", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-26T1100-alpha.md", { task: "alpha", ageDays: 3 });
    f.sessionState("2026-11-20-alpha.md", undefined, 9);
    expect(pickRestore(f.listing(CUR), { ...SETTINGS, staleDays: 3 }).action).toBe("restore");
    expect(pickRestore(f.listing(CUR), { ...SETTINGS, staleDays: 2 }).action).toBe("choose");
  });
});

/** Routed to B3 by the gate, nothing consumed, with the loud warning and the given reason. */
function expectSuppressedLoudly(d: PickerDecision, reason: string, route: B3Route) {
  check(d, { action: "synthesize", route, consumed: "" });
  const text = d.action === "synthesize" ? d.warnings.join("\n") : "";
  expect(text).toContain("WARNING: auto-pick suppressed.");
  expect(text).toContain(reason);
}

describe("the incident: a five-day-old checkpoint of another task", () => {
  it("is not auto-picked when today's session-state belongs to a different task, even as the single candidate", () => {
    const f = new MemoryFixture();
    f.sentinel(
      OLD,
      f.checkpoint("2026-11-24T1000-pep-mvp.md", { task: "pep-mvp", ageDays: 5, sessionId: OLD }),
      5,
    );
    f.sessionState(
      "2026-11-29-dgp-price-interactions.md",
      "## Unfinished work\n- wire the price table\n",
      0.05,
    );
    const d = pickRestore(f.listing(CUR), SETTINGS);
    expect(d.action).not.toBe("restore");
    check(d, { action: "synthesize", consumed: "" });
    expect(variant(d, "action", "synthesize").synthesis.task).toBe("dgp-price-interactions");
  });

  it("is still suppressed, loudly, when its mtime was bumped so clause B does not fire", () => {
    const f = new MemoryFixture();
    // Saved five days ago (file name), touched today after the session-state.
    f.checkpoint("2026-11-24T1000-pep-mvp.md", { task: "pep-mvp", ageDays: 0.01, sessionId: OLD });
    f.sessionState("2026-11-29-dgp-price-interactions.md", undefined, 0.05);
    expectSuppressedLoudly(
      pickRestore(f.listing(CUR), SETTINGS),
      "Cross-task: candidate task='pep-mvp' vs freshest session task='dgp-price-interactions'.",
      "gate",
    );
  });

  it("is not auto-picked through Tier 2 when its blocked session left a pending-prompt and a pending-restore", () => {
    const f = new MemoryFixture();
    // The block tier five days ago wrote both hook sentinels for OLD; today's work is another task.
    f.sentinel(
      OLD,
      f.checkpoint("2026-11-24T1000-pep-mvp.md", { task: "pep-mvp", ageDays: 5, sessionId: OLD }),
      5,
    );
    f.prompt(OLD, "=== BLOCKED PROMPT [2026-11-24T10:00:00Z] ===\nship the mvp\n", 5);
    f.sessionState(
      "2026-11-29-dgp-price-interactions.md",
      "## Unfinished work\n- wire the price table\n",
      0.05,
    );
    // Tier 2 does not anchor on it; in Tier 3 the session-state is newer than every candidate (clause B).
    expectSuppressedLoudly(
      pickRestore(f.listing(CUR), SETTINGS),
      "Cross-task: Tier 2 anchor task='pep-mvp' vs freshest session task='dgp-price-interactions'.",
      "clause-B",
    );
  });

  it("is suppressed as stale too when the task matches but five days passed", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-24T1000-pep-mvp.md", { task: "pep-mvp", ageDays: 5 });
    f.sessionState("2026-11-20-pep-mvp.md", undefined, 9);
    const d = pickRestore(f.listing(CUR), SETTINGS);
    expect(d.action).not.toBe("restore");
  });
});

describe("numbered picker", () => {
  it("lists newest first, marks sentinel-backed entries and annotates gate findings", () => {
    const f = new MemoryFixture();
    f.sessionState("2026-11-29-alpha.md", undefined, 0.5);
    const a = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.sentinel(OLD, a, 0.01);
    f.checkpoint("2026-11-25T1100-beta.md", { task: "beta", ageDays: 4 });
    const d = pickRestore(f.listing(CUR), SETTINGS);
    if (d.action !== "choose") throw new Error(`expected choose, got ${d.action}`);
    expect(d.list.map((c) => [c.n, c.task, c.source, c.note])).toEqual([
      [1, "alpha", "sentinel", ""],
      [2, "beta", "disk-only", "stale 4d, other task (now 'alpha')"],
    ]);
  });

  it("caps the list at 10 and counts the rest", () => {
    const f = new MemoryFixture();
    for (let i = 0; i < 13; i += 1)
      f.checkpoint(
        `2026-11-29T${String(10 + (i % 10)).padStart(2, "0")}${String(i).padStart(2, "0")}-alpha.md`,
        { task: "alpha", ageDays: 0.01 * (i + 1) },
      );
    const d = pickRestore(f.listing(CUR), SETTINGS);
    expect(variant(d, "action", "choose").more).toBe(3);
  });

  const pickCases: Array<{ pick: number; expect: Expect }> = [
    { pick: 1, expect: { action: "restore", path: "4", consumed: "sentinel" } },
    { pick: 2, expect: { action: "restore", path: "4a", consumed: "" } },
    { pick: 3, expect: { action: "invalid" } },
  ];
  for (const c of pickCases) {
    it(`--pick ${c.pick} gives ${c.expect.action} ${c.expect.path ?? ""}: the explicit choice overrides the gate`, () => {
      const f = new MemoryFixture();
      f.sessionState("2026-11-29-today.md", undefined, 0.5);
      const cp = f.checkpoint("2026-11-24T1100-alpha.md", { task: "alpha", ageDays: 0.6 });
      const s = f.sentinel(OLD, cp, 5);
      f.checkpoint("2026-11-23T1100-beta.md", { task: "beta", ageDays: 6 });
      check(pickRestore(f.listing(CUR), SETTINGS, { pick: c.pick }), c.expect, s);
    });
  }

  it("--pick reaches a candidate the gate suppressed when it was the only one", () => {
    const f = new MemoryFixture();
    f.sentinel(OLD, f.checkpoint("2026-11-24T1000-pep-mvp.md", { task: "pep-mvp", ageDays: 5 }), 5);
    f.sessionState("2026-11-29-dgp.md", undefined, 0.05);
    const d = pickRestore(f.listing(CUR), SETTINGS, { pick: 1 });
    check(d, { action: "restore", path: "4" });
    expect(variant(d, "action", "restore").warnings.join("\n")).toContain(
      "picked despite: stale 5d, other task",
    );
  });
});

describe("Step 1.5 same-session detection", () => {
  const cases: Array<[string, string | null | undefined, boolean, boolean]> = [
    ["same id, no compaction", CUR, false, true],
    ["same id after a compaction (exempt)", CUR, true, false],
    ["different id", OLD, false, false],
    ["legacy checkpoint without Session ID", undefined, false, false],
    ["checkpoint id recorded as unknown", null, false, false],
  ];
  for (const [name, cpSid, compacted, expected] of cases) {
    it(`${expected ? "warns" : "does not warn"}: ${name}`, () => {
      const f = new MemoryFixture();
      if (compacted) f.compactHappened(CUR);
      expect(isSameSession(f.listing(CUR), cpSid)).toBe(expected);
    });
  }
  it("does not warn when the current session id is unknown", () => {
    const f = new MemoryFixture();
    expect(isSameSession(f.listing("unknown"), "unknown")).toBe(false);
  });
});
