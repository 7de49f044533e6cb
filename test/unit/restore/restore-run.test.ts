import { describe, expect, it } from "vitest";
import { runRestore } from "../../../lib/restore/restore-run.ts";
import type { RestoreOutcome, Restored } from "../../../lib/restore/restore-outcome.ts";
import { restoreJson, restoreText } from "../../../lib/restore/brief/restore-answer.ts";

const ENGINE = 'node "/e/quoin-checkpoint.cjs"';
import { MemoryFixture } from "../../helpers/memory-fixture.ts";
import { variant } from "../../helpers/narrow.ts";

const CUR = "cccc0000-0000-0000-0000-000000000001";
const OLD = "aaaa0000-0000-0000-0000-000000000002";

function restore(
  f: MemoryFixture,
  req: {
    sid?: string;
    pick?: number;
    synthesize?: boolean;
    replay?: string;
    proceed?: boolean;
  } = {},
): RestoreOutcome {
  return runRestore(f.deps(), f.knobs(), { paths: f.paths, sessionId: req.sid ?? CUR, ...req });
}

function restored(o: RestoreOutcome): Extract<RestoreOutcome, Restored> {
  if (o.action !== "restore")
    throw new Error(`expected restore, got ${JSON.stringify(restoreJson(o, ENGINE))}`);
  return o;
}

/** Paths 4 and 4a: a sentinel-backed alpha (newest, 1) and a disk-only beta (2). */
function twoCandidates(f: MemoryFixture): { other: string } {
  f.checkpoint("2026-11-29T1000-beta.md", { task: "beta", ageDays: 0.1 });
  return {
    other: f.sentinel(
      OLD,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }),
    ),
  };
}

/** Paths 1a and 5: this session's sentinel names alpha while today's session-state is beta. */
function crossTaskOwnSentinel(f: MemoryFixture): { own: string } {
  f.sessionState("2026-11-29-beta.md", undefined, 0);
  return {
    own: f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }),
    ),
  };
}

describe("consumed_sentinel_path: the six-path contract, end to end", () => {
  interface Row {
    path: string;
    setup: (f: MemoryFixture) => { own?: string; other?: string };
    req?: { pick?: number; synthesize?: boolean };
    action: RestoreOutcome["action"];
    consumed?: "" | "other";
    /** after the run: is each sentinel still in place? */
    ownKept?: boolean;
    otherKept?: boolean;
  }
  const rows: Row[] = [
    {
      path: "1",
      setup: (f) => ({
        own: f.sentinel(
          CUR,
          f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }),
        ),
      }),
      action: "restore",
      consumed: "",
      ownKept: false,
    },
    {
      path: "1a",
      setup: crossTaskOwnSentinel,
      action: "synthesize",
      ownKept: true,
    },
    { path: "2", setup: () => ({}), action: "none" },
    {
      path: "3",
      setup: (f) => ({
        other: f.sentinel(
          OLD,
          f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }),
        ),
      }),
      action: "restore",
      consumed: "other",
      otherKept: false,
    },
    {
      path: "3a",
      setup: (f) => {
        f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
        return {};
      },
      action: "restore",
      consumed: "",
    },
    {
      path: "4",
      setup: twoCandidates,
      req: { pick: 1 },
      action: "restore",
      consumed: "other",
      otherKept: false,
    },
    {
      path: "4a",
      setup: twoCandidates,
      req: { pick: 2 },
      action: "restore",
      consumed: "",
      otherKept: true,
    },
    {
      path: "5",
      setup: crossTaskOwnSentinel,
      req: { synthesize: true },
      action: "restore",
      consumed: "",
      // current-session cleanup still runs after B3, so re-running does not loop
      ownKept: false,
    },
    {
      path: "6",
      setup: (f) => {
        const bad = f.checkpoint("2026-11-29T1100-alpha.md", {
          task: "alpha",
          raw: "## Active task\nalpha\n\n## Status\ntruncated".padEnd(300, "\u0000"),
        });
        return { own: f.sentinel(CUR, bad) };
      },
      action: "restore",
      consumed: "",
      ownKept: true,
    },
    {
      path: "tier2",
      setup: (f) => {
        f.prompt(OLD, "=== BLOCKED PROMPT [2026-11-29T10:00:00Z] ===\nhello\n", 0.05);
        return {
          other: f.sentinel(
            OLD,
            f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.05 }),
          ),
        };
      },
      req: {},
      action: "restore",
      consumed: "other",
      otherKept: false,
    },
  ];
  for (const row of rows) {
    it(`path ${row.path}: ${row.action}, consumed ${row.consumed === "other" ? "the other session's sentinel" : "nothing"}`, () => {
      const f = new MemoryFixture();
      const { own, other } = row.setup(f);
      const replay = row.path === "tier2" ? "none" : undefined;
      const o = restore(f, { ...row.req, replay });
      expect(o.action).toBe(row.action);
      expect("path" in o ? o.path : undefined).toBe(row.path);
      if (o.action === "restore" && row.consumed !== undefined)
        expect(o.consumedSentinel).toBe(row.consumed === "other" ? other : "");
      if (own && row.ownKept !== undefined) expect(f.exists(own)).toBe(row.ownKept);
      if (other && row.otherKept !== undefined) expect(f.exists(other)).toBe(row.otherKept);
    });
  }
});

describe("restore: one clock reading per restore", () => {
  it("a restore that crosses midnight trashes the consumed sentinel and writes the ledger row under one date", () => {
    const f = new MemoryFixture(new Date("2026-11-29T23:59:59Z"));
    const own = f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T2300-alpha.md", { task: "alpha", ageDays: 0.01 }),
    );
    f.fs.mkdirSync(`${f.paths.root}/.workflow_artifacts/alpha`, { recursive: true });
    let t = f.now.getTime();
    const deps = { ...f.deps(), now: () => new Date((t += 1000) - 1000) };
    const r = restored(runRestore(deps, f.knobs(), { paths: f.paths, sessionId: CUR }));
    expect(r.done).toBe(true);
    expect(f.exists(own)).toBe(false);
    expect(f.exists(`${f.paths.memory}/trash/2026-11-29/pending-restore-${CUR}.txt`)).toBe(true);
    expect(
      f.fs.readFileSync(`${f.paths.root}/.workflow_artifacts/alpha/cost-ledger.md`, "utf8"),
    ).toContain(`${CUR} | 2026-11-29 |`);
  });
});

describe("restore summary and bookkeeping", () => {
  it("prints task, branch, intent, the resume line, artifacts and open questions; writes the ledger row", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      branch: "feat/x",
      sessionId: OLD,
      ageDays: 0.01,
      extra: {
        intent: "ship the parser",
        openQuestions: "- which lexer?\n- keep v1?",
        artifacts: {
          currentPlan: "/home/dev/proj/.workflow_artifacts/alpha/current-plan.md",
          architecture: null,
          criticResponse: null,
          review: null,
          sessionState: null,
          sessionStateResolution: null,
        },
      },
    });
    // The ledger goes only where quoin's workflow made the task folder.
    f.fs.mkdirSync("/home/dev/proj/.workflow_artifacts/alpha", { recursive: true });
    const r = restored(restore(f));
    expect(r.done).toBe(true);
    expect(r.summary).toMatchObject({
      task: "alpha",
      branch: "feat/x",
      intent: "ship the parser",
      resume: `claude --resume ${OLD}`,
      artifacts: ["/home/dev/proj/.workflow_artifacts/alpha/current-plan.md"],
      openQuestions: ["which lexer?", "keep v1?"],
    });
    expect(
      f.fs.readFileSync("/home/dev/proj/.workflow_artifacts/alpha/cost-ledger.md", "utf8"),
    ).toBe(`${CUR} | 2026-11-29 | checkpoint | sonnet | task | restore | 0\n`);
    const text = restoreText(r, ENGINE);
    expect(text).toContain("Resuming task: alpha. Branch: feat/x. Last intent: ship the parser.");
    expect(text).toContain(`Session: claude --resume ${OLD}`);
  });

  it("shows the legacy and the unavailable session lines", () => {
    const f = new MemoryFixture();
    f.checkpoint("2026-11-29-alpha.md", { task: "alpha", sessionId: "legacy", ageDays: 0.01 });
    expect(restored(restore(f)).summary?.resume).toBe(
      "(not recorded in this checkpoint - legacy format)",
    );
    const g = new MemoryFixture();
    g.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", sessionId: null, ageDays: 0.01 });
    expect(restored(restore(g)).summary?.resume).toBe(
      "(session UUID was unavailable at save time)",
    );
  });

  it("shows a corrupt checkpoint raw with the manual-recovery hint and keeps its sentinel", () => {
    const f = new MemoryFixture();
    const bad = f.checkpoint("2026-11-29T1100-alpha.md", {
      task: "alpha",
      raw: `## Active task\nalpha\n\n## Status\n${"garbled ".repeat(20)}`,
    });
    const s = f.sentinel(CUR, bad);
    const r = restored(restore(f));
    expect(r.corrupt).toMatchObject({ file: bad, reason: "cut short" });
    expect(r.corrupt?.raw).toContain("garbled");
    expect(restoreText(r, ENGINE)).toContain("Manual recovery");
    expect(r.done).toBe(false);
    expect(f.exists(s)).toBe(true);
    expect(f.exists("/home/dev/proj/.workflow_artifacts/alpha/cost-ledger.md")).toBe(false);
  });

  it("asks before restoring into the session that saved it, and proceeds with --proceed", () => {
    const f = new MemoryFixture();
    const s = f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", sessionId: CUR, ageDays: 0.01 }),
    );
    const first = restored(restore(f));
    expect(first.needs).toEqual(["same-session"]);
    expect(f.exists(s)).toBe(true);
    const second = restored(restore(f, { proceed: true }));
    expect(second.done).toBe(true);
    expect(f.exists(s)).toBe(false);
  });

  it("does not ask after a compaction in this session", () => {
    const f = new MemoryFixture();
    f.compactHappened(CUR);
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", sessionId: CUR, ageDays: 0.01 }),
    );
    const r = restored(restore(f));
    expect(r.sameSession).toBe(false);
    expect(r.done).toBe(true);
  });
});

describe("Step 4 pending-prompt rehydration through restore", () => {
  const MULTI = [
    "=== BLOCKED PROMPT [2026-11-29T10:00:00Z] ===",
    "first prompt",
    "",
    "=== BLOCKED PROMPT [2026-11-29T10:05:00Z] [non-replayable:task-notification] ===",
    "<task-notification>agent done</task-notification>",
    "",
    "=== BLOCKED PROMPT [2026-11-29T10:06:00Z] ===",
    "third prompt",
    "",
  ].join("\n");

  function setup(promptSid: string, text = MULTI) {
    const f = new MemoryFixture();
    f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }));
    const file = f.prompt(promptSid, text, 0.01);
    return { f, file };
  }

  it("CASE A: no pending-prompt file, nothing asked", () => {
    const f = new MemoryFixture();
    f.sentinel(CUR, f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 }));
    const r = restored(restore(f));
    expect(r.prompts.case).toBe("A");
    expect(r.done).toBe(true);
  });

  it("CASE B: asks first, leaving every sentinel in place", () => {
    const { f, file } = setup(CUR);
    const r = restored(restore(f));
    expect(r.needs).toEqual(["replay"]);
    expect(r.prompts.case).toBe("B");
    expect(f.exists(file)).toBe(true);
    expect(f.exists(`${f.paths.memory}/pending-restore-${CUR}.txt`)).toBe(true);
  });

  const selections: Array<[string, string[], boolean]> = [
    ["all", ["first prompt", "third prompt"], true],
    ["2", ["<task-notification>agent done</task-notification>"], true],
    ["3,1", ["first prompt", "third prompt"], true],
    ["none", [], true],
  ];
  for (const [answer, prompts, trashed] of selections) {
    it(`CASE B --replay ${answer}: replays ${prompts.length} and moves the file to trash`, () => {
      const { f, file } = setup(CUR);
      const r = restored(restore(f, { replay: answer }));
      expect(r.done).toBe(true);
      expect(r.replay?.replay.map((p) => p.text)).toEqual(prompts);
      expect(f.exists(file)).toBe(!trashed);
      expect(r.cleanup?.trashed.map((t) => t.from)).toContain(file);
    });
  }

  it("CASE B --replay edit 3: shows entry 3 in full for editing", () => {
    const { f } = setup(CUR);
    const r = restored(restore(f, { replay: "edit 3" }));
    expect(r.replay?.edit?.text).toBe("third prompt");
  });

  it("CASE C: warns about the mismatch; a replay leaves the stale file, delete moves it", () => {
    const f = new MemoryFixture();
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01, sessionId: OLD }),
    );
    const file = f.prompt(OLD, MULTI, 0.01);
    const first = restored(restore(f));
    expect(first.prompts.case).toBe("C");
    expect(restoreText(first, ENGINE)).toContain(
      `Stale pending-prompt sentinel detected (session-id MISMATCH: was ${OLD}, current ${CUR}).`,
    );
    const kept = restored(restore(f, { replay: "1" }));
    expect(kept.replay?.replay).toHaveLength(1);
    expect(f.exists(file)).toBe(true);
    // the restore already consumed the pending-restore; a later delete still works on the prompt file
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1130-alpha.md", { task: "alpha", ageDays: 0.005, sessionId: OLD }),
    );
    restored(restore(f, { replay: "delete" }));
    expect(f.exists(file)).toBe(false);
  });

  it("CASE C: prompts already replayed are not offered again; the rest keep their order, renumbered", () => {
    const f = new MemoryFixture();
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01, sessionId: OLD }),
    );
    f.prompt(OLD, MULTI, 0.01);
    const all = restored(restore(f));
    expect(all.prompts.case === "C" && all.prompts.entries.length).toBeGreaterThan(1);
    const one = restored(restore(f, { replay: "1" }));
    const firstText = one.replay?.replay[0]?.text;
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1130-alpha.md", { task: "alpha", ageDays: 0.005, sessionId: OLD }),
    );
    const again = restored(restore(f));
    expect(again.prompts.case).toBe("C");
    if (again.prompts.case !== "C" || all.prompts.case !== "C") return;
    expect(again.prompts.entries.map((e) => e.text)).not.toContain(firstText);
    expect(again.prompts.entries.map((e) => e.n)).toEqual(
      all.prompts.entries.slice(1).map((_, i) => i + 1),
    );
    restored(restore(f, { replay: "all" }));
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1200-alpha.md", { task: "alpha", ageDays: 0.001, sessionId: OLD }),
    );
    expect(restored(restore(f)).prompts.case).toBe("A");
  });

  it("a restore of one checkpoint offers only that session's blocked prompts, not another session's", () => {
    const f = new MemoryFixture();
    f.sentinel(
      CUR,
      f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01, sessionId: OLD }),
    );
    f.prompt("eeee0000-0000-0000-0000-000000000009", MULTI, 0.001);
    expect(restored(restore(f)).prompts.case).toBe("A");
    f.prompt(OLD, MULTI, 0.01);
    const r = restored(restore(f));
    expect(r.prompts.case === "C" && r.prompts.source.sid).toBe(OLD);
  });

  it("rejects an answer it cannot read, without touching anything", () => {
    const { f, file } = setup(CUR);
    const o = restore(f, { replay: "some" });
    expect(o.action).toBe("invalid");
    expect(f.exists(file)).toBe(true);
    expect(restore(f, { replay: "9" }).action).toBe("invalid");
  });
});

describe("Tier 1 fast path cost", () => {
  it("reads no checkpoint but the one its sentinel names", () => {
    const f = new MemoryFixture();
    for (let i = 0; i < 30; i += 1)
      f.checkpoint(`2026-11-29T10${String(i).padStart(2, "0")}-alpha.md`, {
        task: "alpha",
        ageDays: 0.1,
      });
    const own = f.checkpoint("2026-11-29T1130-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.sentinel(CUR, own);
    for (let i = 0; i < 5; i += 1)
      f.sentinel(`other-${i}`, `${f.paths.checkpoints}/2026-11-29T100${i}-alpha.md`);
    const opened: string[] = [];
    const { openSync, readFileSync } = f.fs;
    Object.assign(f.fs, {
      openSync: (p: string, ...rest: unknown[]) => (
        opened.push(String(p)), (openSync as (...a: unknown[]) => number)(p, ...rest)
      ),
      readFileSync: (p: string, ...rest: unknown[]) => (
        opened.push(String(p)), (readFileSync as (...a: unknown[]) => unknown)(p, ...rest)
      ),
    });
    const r = restored(restore(f));
    expect(r.path).toBe("1");
    expect(new Set(opened.filter((p) => p.startsWith(f.paths.checkpoints)))).toEqual(
      new Set([own]),
    );
  });
});

describe("work over many checkpoints", () => {
  it("stats each checkpoint once (only the one Tier 1 looked at twice) when the fast path falls through", () => {
    const f = new MemoryFixture();
    for (let i = 0; i < 40; i++)
      f.checkpoint(`2026-11-2${i % 9}T10${String(i).padStart(2, "0")}-t${i}.md`, {
        task: `t${i}`,
        ageDays: 1 + i / 100,
      });
    f.sessionState("2026-11-29-beta.md", undefined, 0);
    const named = f.checkpoint("2026-11-29T1100-alpha.md", { task: "alpha", ageDays: 0.01 });
    f.sentinel(CUR, named);
    const stats = new Map<string, number>();
    const fs = new Proxy(f.fs, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== "lstatSync" && key !== "statSync")
          return typeof value === "function" ? value.bind(target) : value;
        return (file: string, ...rest: unknown[]) => {
          // Files only: the safe-file rule's lstat walk also looks at the checkpoints folder.
          if (file.startsWith(`${f.paths.checkpoints}/`))
            stats.set(file, (stats.get(file) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown).call(target, file, ...rest);
        };
      },
    });
    // Cross-task own sentinel: Tier 1 is refused, the full listing is built.
    const o = runRestore({ ...f.deps(), fs }, f.knobs(), { paths: f.paths, sessionId: CUR });
    expect(o.action).toBe("synthesize");
    expect(stats.size).toBe(41);
    expect([...stats].filter(([, n]) => n > 1)).toEqual([[named, 2]]);
  });
});

describe("a damaged checkpoint's sentinel", () => {
  it("is kept when this session's sentinel names a damaged checkpoint: it is shown, the other listed, none restored", () => {
    const f = new MemoryFixture();
    const broken = f.checkpoint("2026-11-29T1130-alpha.md", {
      task: "alpha",
      raw: "## Status\nsaved\n\n## Branch\nmain\n".padEnd(300, "x"),
      ageDays: 0.01,
    });
    const own = f.sentinel(CUR, broken);
    const other = f.checkpoint("2026-11-29T1000-alpha.md", { task: "alpha", ageDays: 0.1 });
    const o = restored(restore(f));
    expect([o.path, o.done, o.needs]).toEqual(["6", false, ["manual-recovery"]]);
    expect(o.corrupt?.reason).toBe("cut short");
    expect(o.corrupt?.others.map((c) => [c.n, c.file])).toEqual([[2, other]]);
    expect(f.exists(own)).toBe(true);
    expect(o.ledger).toBeNull();
  });

  it("names random bytes as not a checkpoint, shows 2 KB of it with the non-printing bytes replaced", () => {
    const f = new MemoryFixture();
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 37 + 11) % 256));
    const noise = f.checkpoint("2026-11-29T1130-alpha.md", { task: "alpha", raw: "" });
    f.fs.writeFileSync(noise, bytes);
    f.sentinel(CUR, noise);
    const o = restored(restore(f));
    expect(o.corrupt?.reason).toBe("not a checkpoint");
    expect(Buffer.byteLength(o.corrupt?.raw ?? "")).toBeLessThanOrEqual(2048 * 3);
    expect(o.corrupt?.raw).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffd]/);
  });
});

describe("CASE C source for a legacy checkpoint", () => {
  it("is the pending-prompt of the session whose sentinel named the checkpoint, not the newest one", () => {
    const f = new MemoryFixture();
    f.sentinel(
      OLD,
      f.checkpoint("2026-11-29T1100-alpha.md", {
        task: "alpha",
        ageDays: 0.05,
        sessionId: "legacy",
      }),
      0.05,
    );
    const mine = f.prompt(OLD, "=== BLOCKED PROMPT [2026-11-29T10:00:00Z] ===\nfrom old\n", 0.06);
    f.prompt(
      "dddd0000-0000-0000-0000-000000000004",
      "=== BLOCKED PROMPT [2026-11-29T11:00:00Z] ===\nnewer, unrelated\n",
      0.01,
    );
    const o = restored(restore(f));
    expect(variant(o.prompts, "case", "C").source.file).toBe(mine);
  });
});
