import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../../lib/store/checkpoint-parse.ts";
import { parseKeyValues } from "../../../lib/store/sentinels.ts";
import { runSave } from "../../../lib/save/save.ts";
import { digestLines } from "../../../lib/context/transcript-digest.ts";
import {
  fixtureLines,
  SPOTTER,
  SPOTTER_ROOT,
  SPOTTER_SID,
} from "../../helpers/transcript-lines.ts";
import type { SaveDone, SaveRequest } from "../../../lib/save/save-run.ts";
import {
  CKPTS,
  DAY,
  knobs,
  MEM,
  memWorld,
  OTHER,
  ROOT,
  SESSIONS,
  SID,
  transcriptLine,
  type MemWorld,
} from "../../helpers/save-deps.ts";

const TRANSCRIPT = "/home/u/.claude/projects/-home-u-proj/t.jsonl";
const STATE = `${SESSIONS}/2026-11-29-parser-rewrite.md`;
const STATE_TEXT = `# Session\n\n## Cost\n- Session UUID: ${SID}\n- Phase: implement\n\n## Open questions\n- which lexer?\n\n## Decisions made\n- keep the AST\n\n## Unfinished work\n- 1. T-04 wire up the parser\n`;

function request(w: MemWorld, over: Partial<SaveRequest> = {}): SaveRequest {
  return {
    paths: w.paths,
    launchCwd: ROOT,
    sessionId: SID,
    mode: null,
    noCleanup: false,
    transcriptPath: null,
    knobs: knobs(),
    blockers: [],
    nextUp: [],
    completed: [],
    notes: [],
    ...over,
  };
}

/** A project where quoin's workflow made the task folder: the ledger goes there (and nowhere else). */
function world(
  extra: Record<string, string> = {},
  opts: Parameters<typeof memWorld>[1] = {},
): MemWorld {
  const w = memWorld({ [STATE]: STATE_TEXT, ...extra }, opts);
  w.vol.mkdirSync(`${ROOT}/.workflow_artifacts/parser-rewrite`, { recursive: true });
  return w;
}

function ok(out: ReturnType<typeof runSave>): SaveDone {
  if (!out.ok) throw new Error(`expected a save, got ${out.reason}`);
  return out;
}

const newFiles = (before: string[], after: string[]) => after.filter((f) => !before.includes(f));

describe("save: each mode writes exactly the seed's files", () => {
  it("restore: checkpoint, pending-restore, recent-sessions.md, cost-ledger row; nothing else", () => {
    const w = world();
    const before = w.files();
    const out = ok(runSave(w.deps, request(w)));
    expect(out.mode).toBe("restore");
    expect(newFiles(before, w.files())).toEqual(
      [
        ".workflow_artifacts/memory/checkpoints/2026-11-29T2107-parser-rewrite.md",
        ".workflow_artifacts/memory/pending-restore-11111111-2222-3333-4444-555555555555.txt",
        ".workflow_artifacts/memory/recent-sessions.md",
        ".workflow_artifacts/parser-rewrite/cost-ledger.md",
      ].sort(),
    );
    expect(w.fs.readFileSync(out.sentinel!, "utf8")).toBe(`${out.checkpoint}\n`);
    expect(
      w.fs.readFileSync(`${ROOT}/.workflow_artifacts/parser-rewrite/cost-ledger.md`, "utf8"),
    ).toBe(`${SID} | 2026-11-29 | checkpoint | sonnet | task | save (restore mode) | 0\n`);
    expect(w.fs.readFileSync(`${MEM}/recent-sessions.md`, "utf8")).toBe(
      `2026-11-29T21:07:26Z | ${SID}\n`,
    );
    expect(w.fs.statSync(out.checkpoint!).mode & 0o777).toBe(0o600);
  });

  it("load-as-reference: pending-resume-ref with prior_session_uuid and checkpoint_path, no pending-restore", () => {
    const w = world();
    const before = w.files();
    const out = ok(runSave(w.deps, request(w, { mode: "load-as-reference" })));
    const added = newFiles(before, w.files());
    expect(added).toContain(`.workflow_artifacts/memory/pending-resume-ref-${SID}.txt`);
    expect(added.some((f) => f.includes("pending-restore"))).toBe(false);
    expect(added).toHaveLength(4);
    expect(parseKeyValues(w.fs.readFileSync(out.sentinel!, "utf8") as string)).toEqual({
      prior_session_uuid: SID,
      checkpoint_path: out.checkpoint,
    });
    expect(out.report.join("\n")).toContain(`claude --resume ${SID} --fork-session`);
  });

  it("mid-agent: only the handoff sentinel and the ledger row; no checkpoint, no recent-sessions, session-state untouched", () => {
    const w = world({}, { alive: () => true });
    w.write(
      `${SESSIONS}/implement-${SID}.pidfile.lock`,
      JSON.stringify({
        skill: "implement",
        session: SID,
        pid: 977,
        acquired_at: "2026-11-29T21:00:00Z",
      }),
    );
    const before = w.files();
    const stateBefore = w.fs.readFileSync(STATE, "utf8");
    const out = ok(runSave(w.deps, request(w, { mode: "mid-agent" })));
    expect(newFiles(before, w.files())).toEqual([
      `.workflow_artifacts/memory/mid-agent-handoff-${SID}.txt`,
      ".workflow_artifacts/parser-rewrite/cost-ledger.md",
    ]);
    expect(out.checkpoint).toBeNull();
    expect(w.fs.readFileSync(STATE, "utf8")).toBe(stateBefore);
    expect(parseKeyValues(w.fs.readFileSync(out.sentinel!, "utf8") as string)).toEqual({
      prior_session_uuid: SID,
      task_name: "parser-rewrite",
      active_skills: "implement (pid 977)",
      timestamp: "2026-11-29T21:07:26Z",
    });
    expect(out.cleanupLine).toBe("[checkpoint] cleanup skipped (mid-agent)");
    expect(out.report.join("\n")).toContain("Option 1: type /clear");
  });
});

describe("save: step 1.4, compact already ran", () => {
  it("skips when both compact-happened and pending-restore exist, and records the skip", () => {
    const ckpt = `${CKPTS}/2026-11-29-parser-rewrite-precompact.md`;
    const w = world({
      [ckpt]: "## Status\nx\n",
      [`${MEM}/compact-happened-${SID}.txt`]: "compacted_at=x\n",
      [`${MEM}/pending-restore-${SID}.txt`]: `${ckpt}\n`,
    });
    const before = w.files();
    const out = ok(runSave(w.deps, request(w)));
    expect(out.mode).toBe("compact-already-ran");
    expect(out.checkpoint).toBe(ckpt);
    expect(out.report[0]).toContain(`Auto-written checkpoint: ${ckpt}`);
    expect(newFiles(before, w.files())).toEqual([
      ".workflow_artifacts/parser-rewrite/cost-ledger.md",
    ]);
    expect(
      w.fs.readFileSync(`${ROOT}/.workflow_artifacts/parser-rewrite/cost-ledger.md`, "utf8"),
    ).toContain("skip (compact-already-ran)");
  });

  it("does not trust a sentinel path outside checkpoints/: saves normally and replaces the sentinel", () => {
    const w = world({
      "/etc/passwd": "root",
      [`${MEM}/compact-happened-${SID}.txt`]: "x",
      [`${MEM}/pending-restore-${SID}.txt`]: "/etc/passwd\n",
    });
    const out = ok(runSave(w.deps, request(w)));
    expect(out.mode).toBe("restore");
    expect(out.checkpoint!.startsWith(`${CKPTS}/`)).toBe(true);
    expect(w.fs.readFileSync(`${MEM}/pending-restore-${SID}.txt`, "utf8")).toBe(
      `${out.checkpoint}\n`,
    );
  });

  it("saves normally when the checkpoint the sentinel names is gone (nothing would hold this session's place)", () => {
    const gone = `${CKPTS}/2026-11-29-parser-rewrite-precompact.md`;
    const w = world({
      [`${MEM}/compact-happened-${SID}.txt`]: "x",
      [`${MEM}/pending-restore-${SID}.txt`]: `${gone}\n`,
    });
    const out = ok(runSave(w.deps, request(w)));
    expect(out.mode).toBe("restore");
    expect(
      out.warnings.some(
        (l) => l.includes("missing or outside checkpoints/") && l.includes("saving normally"),
      ),
    ).toBe(true);
    expect(w.fs.existsSync(out.checkpoint!)).toBe(true);
    expect(w.fs.readFileSync(`${MEM}/pending-restore-${SID}.txt`, "utf8")).toBe(
      `${out.checkpoint}\n`,
    );
    // the one dangling-sentinel policy: the old one is kept in trash/, not overwritten
    expect(w.fs.readFileSync(`${MEM}/trash/2026-11-29/pending-restore-${SID}.txt`, "utf8")).toBe(
      `${gone}\n`,
    );
  });

  it("saves normally after a manual /compact: its precompact skeleton does not stand in for the save the user asked for", () => {
    const skeleton = `${CKPTS}/2026-11-29-parser-rewrite-precompact.md`;
    const w = world({
      [skeleton]: "## Status\ncheckpoint save (precompact, manual trigger)\n",
      [`${MEM}/compact-happened-${SID}.txt`]: "x",
      [`${MEM}/pending-restore-${SID}.txt`]: `${skeleton}\n`,
    });
    const out = ok(runSave(w.deps, request(w)));
    expect(out.mode).toBe("restore");
    expect(out.checkpoint).not.toBe(skeleton);
    expect(w.fs.existsSync(skeleton)).toBe(true);
    expect(out.warnings.filter((l) => l.includes("missing or outside checkpoints/"))).toEqual([]);
    expect(out.report.join("\n")).toContain(
      "2026-11-29-parser-rewrite-precompact.md was written by PreCompact for a manual /compact; it does not stand in for this save",
    );
  });

  it("saves normally with compact-happened alone (a manual /compact) or with an explicit --mode", () => {
    const w = world({ [`${MEM}/compact-happened-${SID}.txt`]: "x" });
    expect(ok(runSave(w.deps, request(w))).mode).toBe("restore");
    const w2 = world({
      [`${MEM}/compact-happened-${SID}.txt`]: "x",
      [`${MEM}/pending-restore-${SID}.txt`]: `${CKPTS}/a.md\n`,
    });
    expect(ok(runSave(w2.deps, request(w2, { mode: "restore" }))).mode).toBe("restore");
  });

  it("warns and goes on when the session id is unknown", () => {
    const w = world();
    const out = ok(runSave(w.deps, request(w, { sessionId: null, task: "t1" })));
    expect(out.warnings).toContain(
      "[checkpoint] WARNING: session UUID unavailable for compact-happened check; skipping skip-path",
    );
  });
});

describe("save: step 1.45, panic tier", () => {
  it("writes only a skeleton checkpoint and pending-restore at or past QUOIN_PANIC_BPS", () => {
    const w = world({ [TRANSCRIPT]: transcriptLine(170_000) });
    const before = w.files();
    const out = ok(runSave(w.deps, request(w, { transcriptPath: TRANSCRIPT })));
    expect(out.mode).toBe("panic");
    const parsed = parseCheckpoint(w.fs.readFileSync(out.checkpoint!, "utf8") as string);
    expect(parsed.sections.map((s) => s.title)).toEqual([
      "Status",
      "Current stage",
      "Active task",
      "Branch",
      "Head",
      "Session ID",
      "Saved at",
      "Session link",
      "In-flight artifacts",
      "Completed this session",
      "Uncommitted",
      "Restore hint",
    ]);
    expect(parsed.status).toBe("checkpoint save (panic mode)");
    expect(newFiles(before, w.files()).sort()).toEqual([
      ".workflow_artifacts/memory/checkpoints/2026-11-29T2107-parser-rewrite.md",
      `.workflow_artifacts/memory/pending-restore-${SID}.txt`,
      ".workflow_artifacts/parser-rewrite/cost-ledger.md",
    ]);
    expect(out.report[0]).toContain("context 170k of 167k (101.7%)");
    expect(w.runs).toEqual([]);
  });

  it("is not taken with an explicit --mode: a full save, cleanup skipped as panic", () => {
    const w = world({ [TRANSCRIPT]: transcriptLine(170_000) });
    const out = ok(runSave(w.deps, request(w, { transcriptPath: TRANSCRIPT, mode: "restore" })));
    expect(out.mode).toBe("restore");
    expect(out.cleanupLine).toBe("[checkpoint] cleanup skipped (panic)");
  });

  it("counts an unreadable transcript as 0 and saves normally", () => {
    const w = world();
    expect(ok(runSave(w.deps, request(w, { transcriptPath: "/nope.jsonl" }))).mode).toBe("restore");
  });
});

describe("save: thresholds, one basis point below, at and above", () => {
  // 100_200 tokens of the 167k limit are exactly 6000 bps; each threshold is set around that.
  const at6000 = () => world({ [TRANSCRIPT]: transcriptLine(100_200) });
  it.each([
    ["6001", "restore"],
    ["6000", "panic"],
    ["5999", "panic"],
  ] as const)("QUOIN_PANIC_BPS=%s: save step 1.45 gives %s", (panic, mode) => {
    const w = at6000();
    expect(
      ok(
        runSave(
          w.deps,
          request(w, { transcriptPath: TRANSCRIPT, knobs: knobs({ QUOIN_PANIC_BPS: panic }) }),
        ),
      ).mode,
    ).toBe(mode);
  });
  it.each([
    ["6001", "[checkpoint] cleanup skipped (high-util)"],
    ["6000", "[checkpoint] cleanup skipped (panic)"],
    ["5999", "[checkpoint] cleanup skipped (panic)"],
  ] as const)("QUOIN_PANIC_BPS=%s with --mode: save step 1.47 says %j", (panic, line) => {
    const w = at6000();
    const k = knobs({ QUOIN_PANIC_BPS: panic, QUOIN_COMPACT_FIRST_BPS: "5000" });
    expect(
      ok(runSave(w.deps, request(w, { transcriptPath: TRANSCRIPT, mode: "restore", knobs: k })))
        .cleanupLine,
    ).toBe(line);
  });
  it.each([
    ["6001", false],
    ["6000", true],
    ["5999", true],
  ] as const)(
    "QUOIN_COMPACT_FIRST_BPS=%s: high use is %s, and the sweep is skipped only then",
    (compactFirst, high) => {
      const w = at6000();
      const out = ok(
        runSave(
          w.deps,
          request(w, {
            transcriptPath: TRANSCRIPT,
            knobs: knobs({ QUOIN_COMPACT_FIRST_BPS: compactFirst }),
          }),
        ),
      );
      expect(out.highUtil).toBe(high);
      expect(out.cleanupLine === "[checkpoint] cleanup skipped (high-util)").toBe(high);
    },
  );
});

describe("save: step 1.47, auto-cleanup before the write", () => {
  const stale = {
    [`${MEM}/pending-restore-${OTHER}.txt`]: `${CKPTS}/x.md\n`,
    [`${MEM}/checkpoint-defer-${SID}.txt`]: "x",
  };

  it("runs by default, protects the current session's sentinels by id, and reports the sweep", () => {
    const w = world(stale);
    w.age(`${MEM}/pending-restore-${OTHER}.txt`, 3 * DAY);
    w.write(`${MEM}/mid-agent-handoff-${SID}.txt`, "x", 30 * DAY);
    const out = ok(runSave(w.deps, request(w)));
    expect(out.cleanup?.sentinels).toEqual([`${MEM}/pending-restore-${OTHER}.txt`]);
    expect(w.fs.existsSync(`${MEM}/mid-agent-handoff-${SID}.txt`)).toBe(true);
    expect(out.cleanupLine).toContain("trashed 1 sentinel(s)");
  });

  it.each([
    ["--no-cleanup", { noCleanup: true }],
    ["high-util", { transcriptPath: TRANSCRIPT }],
  ] as const)("is skipped for %s", (reason, over) => {
    const w = world({ ...stale, [TRANSCRIPT]: transcriptLine(155_000) });
    w.age(`${MEM}/pending-restore-${OTHER}.txt`, 3 * DAY);
    const out = ok(runSave(w.deps, request(w, over)));
    expect(out.cleanupLine).toBe(`[checkpoint] cleanup skipped (${reason})`);
    expect(w.fs.existsSync(`${MEM}/pending-restore-${OTHER}.txt`)).toBe(true);
  });
});

describe("save: step 1.5, mode", () => {
  const pidfile = (skill: string, sid: string, pid: number) => [
    `${SESSIONS}/${skill}-${sid}.pidfile.lock`,
    JSON.stringify({ skill, session: sid, pid, acquired_at: "2026-11-29T21:00:00Z" }),
  ];

  it("without --mode, reports this session's live skills and writes nothing, so the skill can offer mid-agent", () => {
    const [file, body] = pidfile("plan", SID, 412);
    const w = world({ [file!]: body! }, { alive: () => true });
    const before = w.files();
    const out = runSave(w.deps, request(w));
    expect(out).toMatchObject({ ok: false, needsMode: true, activeSkills: ["plan (pid 412)"] });
    expect(w.files()).toEqual(before);
  });

  it("ignores its own checkpoint pidfile, dead processes and other sessions' skills", () => {
    const files = Object.fromEntries([
      pidfile("checkpoint", SID, 1),
      pidfile("plan", OTHER, 2),
      pidfile("review", SID, 3),
    ]);
    const w = world(files, { alive: (pid) => pid !== 3 });
    expect(ok(runSave(w.deps, request(w))).mode).toBe("restore");
  });

  it("defaults to restore when no other skill runs", () => {
    const w = world();
    expect(ok(runSave(w.deps, request(w))).mode).toBe("restore");
  });
});

describe("save: gathering (step 1)", () => {
  it("finds the session-state file by its Session UUID anchor and says so", () => {
    const w = world({
      [`${SESSIONS}/2026-11-30-newer.md`]: "## Cost\n- Session UUID: someone-else\n",
    });
    w.age(STATE, 10 * DAY);
    const out = ok(runSave(w.deps, request(w)));
    expect(out.info).toEqual([`[checkpoint] session-state located by UUID anchor: ${STATE}`]);
    const parsed = parseCheckpoint(w.fs.readFileSync(out.checkpoint!, "utf8") as string);
    expect(parsed.task).toBe("parser-rewrite");
    expect(parsed.currentStage).toBe("implement");
    expect(parsed.intent).toBe("T-04 wire up the parser");
    expect(parsed.openQuestions).toBe("- which lexer?");
    expect(parsed.decisions).toBe("- keep the AST");
    expect(parsed.branch).toBe("feat/x");
    expect(parsed.artifacts.sessionStateResolution).toBe("uuid-anchor");
  });

  it("falls back to mtime with the seed's warning when no file names this session", () => {
    const w = memWorld({ [STATE]: "## Cost\n- Session UUID: someone-else\n" });
    const out = ok(runSave(w.deps, request(w)));
    expect(out.warnings).toContain(
      `[checkpoint] WARNING: no session-state file contains Session UUID '${SID}'; falling back to mtime ordering`,
    );
  });

  it("records in-flight artifact paths, never their content", () => {
    const plan = `${ROOT}/.workflow_artifacts/parser-rewrite/current-plan.md`;
    const w = world({
      [plan]: "SECRET PLAN CONTENT",
      [`${ROOT}/.workflow_artifacts/parser-rewrite/review-3.md`]: "SECRET REVIEW",
    });
    const out = ok(runSave(w.deps, request(w)));
    const text = w.fs.readFileSync(out.checkpoint!, "utf8") as string;
    expect(text).toContain(`- current-plan.md: ${plan}`);
    expect(text).toContain("review-3.md");
    expect(text).not.toContain("SECRET");
    expect(parseCheckpoint(text).planFile).toBe(plan);
  });

  it("prefers docs/plan.md as the plan file", () => {
    const w = world({
      [`${ROOT}/docs/plan.md`]: "x",
      [`${ROOT}/.workflow_artifacts/t/current-plan.md`]: "x",
    });
    const out = ok(runSave(w.deps, request(w)));
    expect(parseCheckpoint(w.fs.readFileSync(out.checkpoint!, "utf8") as string).planFile).toBe(
      `${ROOT}/docs/plan.md`,
    );
  });

  it("lists this session's commits checked against git (the git-log window since the transcript's first line only counted), next up and blockers", () => {
    const w = world(
      { [TRANSCRIPT]: transcriptLine(1000, "2026-11-29T19:00:00.000Z") },
      {
        run: () => ({
          status: 0,
          stdout: "abc1234\t2026-11-29T20:00:00Z\tT-03 lexer\n",
          stderr: "",
        }),
      },
    );
    const out = ok(
      runSave(
        w.deps,
        request(w, {
          transcriptPath: TRANSCRIPT,
          intent: "finish the parser",
          inProgress: "T-04 half done",
          nextUp: [
            { item: "T-05 errors", prerequisitesMet: true },
            { item: "T-06 docs", prerequisitesMet: false },
          ],
          blockers: ["CI is red"],
          completed: [{ hash: "def5678", subject: "T-02 tokens" }],
        }),
      ),
    );
    expect(w.runs.some((r) => r.args.includes("--since=2026-11-29T19:00:00Z"))).toBe(true);
    const parsed = parseCheckpoint(w.fs.readFileSync(out.checkpoint!, "utf8") as string);
    // the model's commit is not in this (mocked) clone; the window's other commit is a count
    expect(parsed.commits).toEqual([{ hash: "def5678", subject: "T-02 tokens" }]);
    expect(parsed.checkedCommits[0]?.state).toBe("missing");
    expect(parsed.otherCommits).toBe(1);
    expect(parsed.nextUp).toEqual([
      { item: "T-05 errors", prerequisitesMet: true },
      { item: "T-06 docs", prerequisitesMet: false },
    ]);
    expect(parsed.blockers).toEqual(["CI is red"]);
    expect(parsed.intent).toBe("finish the parser");
    expect(parsed.inProgress).toBe("T-04 half done");
  });

  it("reduces a task name with slashes and says so; the file stays inside checkpoints/", () => {
    const w = world();
    const out = ok(runSave(w.deps, request(w, { task: "../../etc/passwd" })));
    expect(out.checkpoint).toBe(`${CKPTS}/2026-11-29T2107-etc-passwd.md`);
    expect(out.warnings).toContain(
      `[checkpoint] task name "../../etc/passwd" reduced to 'etc-passwd' (file names use a-z, 0-9 and '-')`,
    );
    // No .workflow_artifacts/etc-passwd/ folder: no ledger, nothing outside the memory folder.
    expect(out.ledger).toBeNull();
    expect(w.fs.existsSync(`${ROOT}/.workflow_artifacts/etc-passwd`)).toBe(false);
  });
});

describe("save: step 2, the checkpoint file", () => {
  it("has every section of the seed's format plus seed 001's", () => {
    const w = world();
    const out = ok(runSave(w.deps, request(w)));
    const titles = parseCheckpoint(
      w.fs.readFileSync(out.checkpoint!, "utf8") as string,
    ).sections.map((s) => s.title);
    for (const t of [
      "Status",
      "Current stage",
      "Active task",
      "Branch",
      "Head",
      "Session ID",
      "Session link",
      "Last user intent",
      "In-flight artifacts",
      "Open questions",
      "Decisions made",
      "Unfinished work",
      "Restore hint",
      "Plan file",
      "Completed this session",
      "Next up",
      "Known blockers",
    ]) {
      expect(titles).toContain(t);
    }
  });

  it("gives a second save in the same minute its own file", () => {
    const w = world();
    const a = ok(runSave(w.deps, request(w)));
    const b = ok(runSave(w.deps, request(w)));
    expect(b.checkpoint).toBe(a.checkpoint!.replace(/\.md$/, "-2.md"));
    expect(w.fs.existsSync(a.checkpoint!)).toBe(true);
  });

  it("warns past the 4 KB soft cap and keeps the file", () => {
    const w = world();
    const out = ok(runSave(w.deps, request(w, { notes: ["x".repeat(5000)] })));
    expect(out.bytes).toBeGreaterThan(4096);
    expect(
      out.warnings.some((l) =>
        l.startsWith(
          `[quoin checkpoint] WARNING: checkpoint file ${out.checkpoint} exceeds 4 KB soft cap (`,
        ),
      ),
    ).toBe(true);
    expect(w.fs.existsSync(out.checkpoint!)).toBe(true);
  });

  it("no warning when the handover's own lines take a save past 4 KB, within the 6 KB hard cap", () => {
    // spotter-4d5611e5 cut before its compaction: its work items, closes and state line
    const digest = digestLines(fixtureLines(SPOTTER).slice(0, 753), {
      projectRoot: SPOTTER_ROOT,
      sessionId: SPOTTER_SID,
    });
    const w = world();
    const out = ok(runSave(w.deps, request(w, { digest })));
    expect(out.bytes).toBeGreaterThan(4096);
    expect(out.bytes).toBeLessThanOrEqual(6144);
    expect(out.warnings.some((l) => l.includes("exceeds"))).toBe(false);
    // and the soft cap still holds for the rest: 5,000 bytes of notes warn
    const big = ok(runSave(w.deps, request(w, { digest, notes: ["x".repeat(5000)] })));
    expect(
      big.warnings.some((l) => l.includes("[quoin checkpoint] WARNING:") && l.includes("exceeds")),
    ).toBe(true);
  });

  it("writes ASCII only", () => {
    const w = world();
    const out = ok(runSave(w.deps, request(w, { intent: "caf\u00e9 \u2014 \u201cquoted\u201d" })));
    expect(w.fs.readFileSync(out.checkpoint!, "utf8")).toMatch(/^[\x09\x0A\x20-\x7E]*$/);
  });
});

describe("save: the sentinel guard for an empty or unknown session id", () => {
  it.each(["restore", "load-as-reference", "mid-agent"] as const)(
    "%s: refuses the sentinel with the seed's warning",
    (mode) => {
      const w = world();
      const out = ok(runSave(w.deps, request(w, { sessionId: null, mode, task: "t1" })));
      expect(out.sentinel).toBeNull();
      expect(
        out.warnings.some((l) =>
          l.startsWith("[checkpoint] WARNING: session UUID empty/unknown; refusing to write"),
        ),
      ).toBe(true);
      expect(
        w.files().some((f) => /(pending-restore|pending-resume-ref|mid-agent-handoff)-/.test(f)),
      ).toBe(false);
      if (mode !== "mid-agent") expect(out.checkpoint).not.toBeNull();
    },
  );
});

describe("save: report and step 6", () => {
  it("adds the high-use notice with tokens, limit and its two choices", () => {
    const w = world({ [TRANSCRIPT]: transcriptLine(155_000) });
    const out = ok(runSave(w.deps, request(w, { transcriptPath: TRANSCRIPT })));
    expect(out.highUtil).toBe(true);
    const text = out.report.join("\n");
    expect(text).toContain(
      "The context 155k of 167k (92.8%) is at or past 90.0% = 150k of 167k (QUOIN_COMPACT_FIRST_BPS)",
    );
    expect(text).toContain("1. Start a fresh session");
    expect(text).toContain("2. Run /compact in this session");
  });

  it("high-use notice: never promises that /compact subsumes the save when PreCompact would keep this one; absent with an explicit --mode", () => {
    const w = world({ [TRANSCRIPT]: transcriptLine(155_000) });
    const text = ok(runSave(w.deps, request(w, { transcriptPath: TRANSCRIPT }))).report.join("\n");
    // this save wrote pending-restore-<sid>: a /compact now keeps it (PreCompact skips)
    expect(text).not.toContain("subsume");
    expect(text).toContain(
      "this checkpoint stays the one to restore: PreCompact keeps it and writes none of its own",
    );
    const ref = world({ [TRANSCRIPT]: transcriptLine(155_000) });
    const refText = ok(
      runSave(ref.deps, request(ref, { transcriptPath: TRANSCRIPT, mode: null, intent: "x" })),
    ).report.join("\n");
    expect(refText).toContain("QUOIN_COMPACT_FIRST_BPS");
    for (const mode of ["restore", "load-as-reference"] as const) {
      const e = world({ [TRANSCRIPT]: transcriptLine(155_000) });
      const out = ok(runSave(e.deps, request(e, { transcriptPath: TRANSCRIPT, mode })));
      expect(out.highUtil).toBe(false);
      expect(out.report.join("\n")).not.toContain("QUOIN_COMPACT_FIRST_BPS");
    }
  });

  it("releases the checkpoint pidfile and expires this session's defer marker (both to trash)", () => {
    const pid = `${SESSIONS}/checkpoint-${SID}.pidfile.lock`;
    const defer = `${MEM}/checkpoint-defer-${SID}.txt`;
    const w = world({ [pid]: "{}", [defer]: "2026-11-29T20:00:00Z\n" });
    ok(runSave(w.deps, request(w, { noCleanup: true })));
    expect(w.fs.existsSync(pid)).toBe(false);
    expect(w.fs.existsSync(defer)).toBe(false);
    expect(w.fs.existsSync(`${MEM}/trash/2026-11-29/checkpoint-defer-${SID}.txt`)).toBe(true);
  });
});

describe("save: one clock reading per save", () => {
  it("a save that crosses midnight names its checkpoint, trash folder, recent-sessions line and ledger row with one date", () => {
    const defer = `${MEM}/checkpoint-defer-${SID}.txt`;
    const w = world({ [defer]: "2026-11-29T20:00:00Z\n" });
    let t = Date.parse("2026-11-29T23:59:59Z");
    w.deps.now = () => {
      const at = new Date(t);
      t += 1000; // each reading one second later: the second one is past midnight
      return at;
    };
    const out = ok(runSave(w.deps, request(w, { noCleanup: true })));
    expect(out.checkpoint).toBe(`${CKPTS}/2026-11-29T2359-parser-rewrite.md`);
    expect(w.fs.existsSync(`${MEM}/trash/2026-11-29/checkpoint-defer-${SID}.txt`)).toBe(true);
    expect(w.fs.readFileSync(`${MEM}/recent-sessions.md`, "utf8")).toBe(
      `2026-11-29T23:59:59Z | ${SID}\n`,
    );
    expect(
      w.fs.readFileSync(`${ROOT}/.workflow_artifacts/parser-rewrite/cost-ledger.md`, "utf8"),
    ).toContain(`${SID} | 2026-11-29 |`);
  });
});

describe("save: step 0.5 and the nested-root warning", () => {
  it("--after-compact is accepted as deprecated: trashes the legacy marker and saves normally even after a compaction", () => {
    const legacy = `${MEM}/checkpoint-pending-compact-${SID}.txt`;
    const w = world({
      [legacy]: "x",
      [`${MEM}/compact-happened-${SID}.txt`]: "x",
      [`${MEM}/pending-restore-${SID}.txt`]: `${CKPTS}/a.md\n`,
    });
    const out = ok(runSave(w.deps, request(w, { afterCompact: true, noCleanup: true })));
    expect(out.mode).toBe("restore");
    expect(out.info[0]).toContain("--after-compact flag is deprecated");
    expect(out.report).toContain(
      "Mode: --after-compact flag (deprecated; proceeded to normal save)",
    );
    expect(w.fs.existsSync(legacy)).toBe(false);
  });

  it("warns when launched from a folder with its own .workflow_artifacts/ below the root", () => {
    const w = world({ [`${ROOT}/pkg/.workflow_artifacts/x`]: "" });
    const out = ok(runSave(w.deps, request(w, { launchCwd: `${ROOT}/pkg` })));
    expect(out.warnings).toContain(
      `[checkpoint] WARNING: nested .workflow_artifacts/ detected at ${ROOT}/pkg; writing session state to project root ${ROOT} instead. Remove ${ROOT}/pkg/.workflow_artifacts/ to eliminate this confusion.`,
    );
    expect(out.checkpoint!.startsWith(CKPTS)).toBe(true);
  });

  it("keeps saving when the ledger cannot be written, and says so", () => {
    const w = world();
    const fs = {
      ...w.fs,
      openSync: (file: string, ...rest: unknown[]) => {
        if (String(file).endsWith("cost-ledger.md")) throw new Error("EACCES: read-only");
        return (w.fs.openSync as (...a: unknown[]) => number)(file, ...rest);
      },
    } as typeof w.fs;
    const out = ok(runSave({ ...w.deps, fs }, request(w)));
    expect(out.ledger).toBeNull();
    expect(out.warnings).toContain(
      "[checkpoint] WARNING: cost-ledger row not written: EACCES: read-only",
    );
    expect(w.fs.existsSync(out.checkpoint!)).toBe(true);
  });

  it("mid-agent with --task uses the reduced task for the ledger and the handoff", () => {
    const w = world();
    const out = ok(runSave(w.deps, request(w, { mode: "mid-agent", task: "Big Refactor" })));
    expect(parseKeyValues(w.fs.readFileSync(out.sentinel!, "utf8") as string)["task_name"]).toBe(
      "big-refactor",
    );
    expect(out.ledger).toBeNull();
    w.vol.mkdirSync(`${ROOT}/.workflow_artifacts/big-refactor`);
    const again = ok(runSave(w.deps, request(w, { mode: "mid-agent", task: "Big Refactor" })));
    expect(again.ledger).toBe(`${ROOT}/.workflow_artifacts/big-refactor/cost-ledger.md`);
  });
});

describe("save: step 6 on the short paths", () => {
  it("the compact-already-ran skip and the panic tier release the pidfile but keep the defer marker", () => {
    const pid = `${SESSIONS}/checkpoint-${SID}.pidfile.lock`;
    const defer = `${MEM}/checkpoint-defer-${SID}.txt`;
    const skip = world({
      [pid]: "{}",
      [defer]: "x",
      [`${CKPTS}/a.md`]: "## Status\nx\n",
      [`${MEM}/compact-happened-${SID}.txt`]: "x",
      [`${MEM}/pending-restore-${SID}.txt`]: `${CKPTS}/a.md\n`,
    });
    expect(ok(runSave(skip.deps, request(skip))).mode).toBe("compact-already-ran");
    expect([skip.fs.existsSync(pid), skip.fs.existsSync(defer)]).toEqual([false, true]);
    const panic = world({ [pid]: "{}", [defer]: "x", [TRANSCRIPT]: transcriptLine(200_000) });
    expect(ok(runSave(panic.deps, request(panic, { transcriptPath: TRANSCRIPT }))).mode).toBe(
      "panic",
    );
    expect([panic.fs.existsSync(pid), panic.fs.existsSync(defer)]).toEqual([false, true]);
  });
});
