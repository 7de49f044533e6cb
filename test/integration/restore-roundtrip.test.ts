import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUnique, writeAtomic } from "../../lib/core/atomic-write.ts";
import { renderCheckpoint } from "../../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../../lib/store/checkpoint-values.ts";
import { voluntaryCheckpointName } from "../../lib/store/checkpoint-names.ts";
import { memoryPaths, type MemoryPaths } from "../../lib/store/memory-paths.ts";
import { nodeDeps } from "../../lib/edge/node-deps.ts";
import { appendBlockedPrompt } from "../../lib/store/pending-prompts.ts";
import { sentinelPath } from "../../lib/store/sentinels.ts";
import { writeSkeletonCheckpoint } from "../../lib/save/skeleton-save.ts";
import { DAY_MS, utcDate } from "../../lib/core/time-format.ts";
import { asciiBody } from "../../lib/core/ascii-text.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";

const ENGINE = path.resolve(import.meta.dirname, "../../dist", ENGINE_BUNDLE);
const OLD = "aaaa1111-0000-4000-8000-000000000001";
const NEW = "bbbb2222-0000-4000-8000-000000000002";
const temps: string[] = [];

beforeAll(() => {
  if (!fs.existsSync(ENGINE))
    execFileSync("npm", ["run", "build"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      stdio: "ignore",
    });
});
afterEach(() => {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

function git(repo: string, ...args: string[]): string {
  return execFileSync("git", ["-C", repo, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  }).trim();
}

function tempRepo(): { repo: string; home: string; paths: MemoryPaths } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-restore-"));
  temps.push(base);
  const repo = path.join(base, "repo");
  const home = path.join(base, "home");
  fs.mkdirSync(repo);
  fs.mkdirSync(home);
  git(repo, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repo, "a.txt"), "one\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "T-01 first");
  const paths = memoryPaths(repo);
  fs.mkdirSync(paths.sessions, { recursive: true });
  return { repo, home, paths };
}

function engine(repo: string, home: string, args: string[], extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { PATH: process.env["PATH"], HOME: home, TZ: "UTC", ...extraEnv };
  const res = spawnSync(process.execPath, [ENGINE, ...args, "--cwd", repo], {
    encoding: "utf8",
    env,
  });
  return { code: res.status, out: res.stdout, err: res.stderr, json: () => JSON.parse(res.stdout) };
}

/** What the save side writes: the checkpoint, created exclusively, then pending-restore-<sid> naming it. */
function saveLikeTheSaveSide(
  paths: MemoryPaths,
  sid: string,
  task: string,
  extra: Partial<Parameters<typeof renderCheckpoint>[0]> = {},
  when = new Date(),
): { checkpoint: string; sentinel: string } {
  const body = renderCheckpoint(
    {
      status: "voluntary save",
      currentStage: "implementing",
      task,
      branch: "main",
      sessionId: sid,
      projectHash: "-tmp-repo",
      savedAt: when,
      intent: "finish the parser",
      artifacts: NO_ARTIFACTS,
      ...extra,
    },
    asciiBody,
  ).text;
  const checkpoint = createUnique(
    fs,
    paths.checkpoints,
    (n) => voluntaryCheckpointName(when, task, n),
    body,
    { mode: 0o600 },
  );
  const sentinel = sentinelPath(paths.memory, "pending-restore", sid);
  writeAtomic(fs, sentinel, `${checkpoint}\n`, { mode: 0o600 });
  return { checkpoint, sentinel };
}

function setMtime(file: string, daysAgo: number) {
  const t = new Date(Date.now() - daysAgo * DAY_MS);
  fs.utimesSync(file, t, t);
}

describe("restore round trip with the built engine", () => {
  it("restores another session's checkpoint in a new session, reconciles with git, trashes the consumed sentinel, logs the ledger row", () => {
    const { repo, home, paths } = tempRepo();
    const real = git(repo, "rev-parse", "--short", "HEAD");
    const plan = path.join(repo, "docs", "plan.md");
    fs.mkdirSync(path.dirname(plan));
    fs.writeFileSync(plan, "- [x] T-01 first\n- [x] T-02 second\n");
    fs.mkdirSync(path.join(repo, ".workflow_artifacts", "parser"), { recursive: true }); // quoin's workflow made the task folder
    const { checkpoint, sentinel } = saveLikeTheSaveSide(paths, OLD, "parser", {
      planFile: "docs/plan.md",
      commits: [
        { hash: real, subject: "T-01 first" },
        { hash: "deadbee", subject: "T-02 second" },
      ],
      inProgress: "T-02 half",
      nextUp: [{ item: "T-02 second", prerequisitesMet: false }],
      blockers: ["waiting on review"],
      openQuestions: "- lexer or not?",
    });
    setMtime(plan, 1);
    fs.writeFileSync(path.join(repo, "a.txt"), "one\ntwo\n");

    const r = engine(repo, home, ["restore", "--json", "--session", NEW]);
    expect(r.code).toBe(0);
    const j = r.json();
    expect(j).toMatchObject({
      action: "restore",
      done: true,
      path: "3",
      file: checkpoint,
      sameSession: false,
    });
    // the task, the session, the consumed sentinel and git's findings are said once, in show
    const show: string[] = j.show;
    expect(show).toContain("Resuming task: parser. Branch: main. Last intent: finish the parser.");
    expect(show).toContain(`Session: claude --resume ${OLD}`);
    expect(show).toContain(`[checkpoint] moved to trash: ${sentinel}`);
    expect(show).toContain("Open questions: 1 items.");
    expect(show).toContain("  - lexer or not?");
    expect(show).toContain(`Commit (present in git): ${real.slice(0, 7)} T-01 first`);
    expect(show).toContain('Drift: commit deadbee "T-02 second" is not in this clone');
    expect(
      show.filter((l) => l.includes("deadbee T-02") || l.includes('deadbee "T-02')),
    ).toHaveLength(1);
    const tree = show.indexOf("Working tree entries (3 of 3):");
    expect(show.slice(tree + 1, tree + 4)).toEqual([
      "   M a.txt",
      "  ?? .workflow_artifacts/",
      "  ?? docs/",
    ]);
    expect(show[tree + 4]).toContain("1 file changed");
    expect(show).toContain("Drift: T-02: done in the plan, but commit deadbee is not in git");
    expect(show).toContain(
      "Drift: T-02: still in progress or next up in the checkpoint, done in the plan",
    );
    expect(show).toContain("Blocker (re-check): waiting on review");
    for (const gone of [
      "task",
      "intent",
      "resume",
      "consumedSentinel",
      "reconcile",
      "openQuestions",
    ])
      expect(j).not.toHaveProperty(gone);
    expect(fs.existsSync(sentinel)).toBe(false);
    expect(
      fs.existsSync(path.join(paths.trash, utcDate(new Date()), path.basename(sentinel))),
    ).toBe(true);
    expect(fs.existsSync(checkpoint)).toBe(true);
    expect(
      fs.readFileSync(path.join(repo, ".workflow_artifacts", "parser", "cost-ledger.md"), "utf8"),
    ).toMatch(
      new RegExp(
        `^${NEW} \\| \\d{4}-\\d{2}-\\d{2} \\| checkpoint \\| sonnet \\| task \\| restore \\| 0\\n$`,
      ),
    );
  });

  it("the incident: a five-day-old checkpoint of another task is not auto-picked; --synthesize restores from today's session-state", () => {
    const { repo, home, paths } = tempRepo();
    const { checkpoint, sentinel } = saveLikeTheSaveSide(
      paths,
      OLD,
      "pep-mvp",
      {},
      new Date(Date.now() - 5 * DAY_MS),
    );
    setMtime(checkpoint, 5);
    setMtime(sentinel, 5);
    fs.writeFileSync(
      path.join(paths.sessions, `${utcDate(new Date())}-dgp-price-interactions.md`),
      "## Current stage\nwiring\n\n## Unfinished work\n- 1. \u23F3 T-04 wire up the price table\n",
    );
    const offer = engine(repo, home, ["restore", "--json", "--session", NEW]).json();
    expect(offer.action).toBe("synthesize");
    expect(offer.show).toContain("  Active task: dgp-price-interactions");
    expect(offer.sessionState.intent).toBe("T-04 wire up the price table");
    expect(offer.show.find((l: string) => /^\s+1\./.test(l))).toContain(": pep-mvp [");
    const done = engine(repo, home, ["restore", "--json", "--synthesize", "--session", NEW]).json();
    expect(done).toMatchObject({ action: "restore", done: true, path: "5", kind: "session-state" });
    expect(done.show).toContain(
      "Resuming task: dgp-price-interactions. Branch: (unknown - session-state has no branch field). Last intent: T-04 wire up the price table.",
    );
    // path 5 consumes no sentinel: the other session's pending-restore stays
    expect(fs.existsSync(sentinel)).toBe(true);
  });

  it("a corrupt checkpoint is shown raw and its sentinel is kept", () => {
    const { repo, home, paths } = tempRepo();
    const { checkpoint, sentinel } = saveLikeTheSaveSide(paths, NEW, "parser");
    fs.writeFileSync(checkpoint, `## Active task\nparser\n\n${"\u0000".repeat(200)}`);
    const j = engine(repo, home, ["restore", "--json", "--session", NEW]).json();
    expect(j).toMatchObject({
      action: "restore",
      path: "6",
      done: false,
      needs: ["manual-recovery"],
    });
    expect(j.file).toBe(checkpoint);
    expect(j.show.at(-1)).toContain("Manual recovery");
    expect(fs.existsSync(sentinel)).toBe(true);
  });
});

describe("pending-prompt replay with the built engine", () => {
  function blocked(paths: MemoryPaths, sid: string): string {
    // The block tier: prompts appended, then the forced save (step C2) writes the skeleton and sentinel.
    let text = appendBlockedPrompt(null, "first prompt", "2026-11-29T10:00:00Z");
    text = appendBlockedPrompt(
      text,
      "<task-notification>agent finished</task-notification>",
      "2026-11-29T10:01:00Z",
    );
    text = appendBlockedPrompt(text, "third prompt", "2026-11-29T10:02:00Z");
    const file = sentinelPath(paths.memory, "pending-prompt", sid);
    writeAtomic(fs, file, text, { mode: 0o600 });
    writeSkeletonCheckpoint(nodeDeps(), {
      paths,
      sessionId: sid,
      launchCwd: paths.root,
      status: "forced save",
      shape: "voluntary",
      writeSentinel: true,
    });
    return file;
  }

  const caseB: Array<[string, string[]]> = [
    ["all", ["first prompt", "third prompt"]],
    ["2", ["<task-notification>agent finished</task-notification>"]],
    ["1,3", ["first prompt", "third prompt"]],
    ["none", []],
  ];
  for (const [answer, texts] of caseB) {
    it(`CASE B (after a compaction in the same session) --replay ${answer}`, () => {
      const { repo, home, paths } = tempRepo();
      const file = blocked(paths, NEW);
      writeAtomic(fs, sentinelPath(paths.memory, "compact-happened", NEW), `session_id=${NEW}\n`);
      const ask = engine(repo, home, ["restore", "--json", "--session", NEW]).json();
      expect(ask).toMatchObject({ action: "restore", done: false, needs: ["replay"], path: "1" });
      expect(ask.pendingPrompts.case).toBe("B");
      expect(
        ask.pendingPrompts.entries.map((e: { nonReplayable: boolean }) => e.nonReplayable),
      ).toEqual([false, true, false]);
      const done = engine(repo, home, [
        "restore",
        "--json",
        "--session",
        NEW,
        "--replay",
        answer,
      ]).json();
      expect(done.done).toBe(true);
      expect(done.replay.prompts.map((p: { text: string }) => p.text)).toEqual(texts);
      expect(fs.existsSync(file)).toBe(false);
      expect(fs.existsSync(sentinelPath(paths.memory, "pending-restore", NEW))).toBe(false);
    });
  }

  it("CASE B edit N shows the entry in full; the same-session guard asks first without a compaction", () => {
    const { repo, home, paths } = tempRepo();
    blocked(paths, NEW);
    const ask = engine(repo, home, ["restore", "--json", "--session", NEW]).json();
    expect(ask.needs).toEqual(["same-session", "replay"]);
    const done = engine(repo, home, [
      "restore",
      "--json",
      "--session",
      NEW,
      "--proceed",
      "--replay",
      "edit 3",
    ]).json();
    expect(done.replay.edit).toEqual({ n: 3, text: "third prompt" });
  });

  it("CASE C: another session's prompts, with the mismatch warning; kept unless deleted", () => {
    const { repo, home, paths } = tempRepo();
    const file = blocked(paths, OLD);
    const ask = engine(repo, home, ["restore", "--session", NEW]);
    expect(ask.out).toContain(
      `Stale pending-prompt sentinel detected (session-id MISMATCH: was ${OLD}, current ${NEW}).`,
    );
    const replayed = engine(repo, home, [
      "restore",
      "--json",
      "--session",
      NEW,
      "--replay",
      "1",
    ]).json();
    expect(replayed.path).toBe("tier2");
    expect(replayed.replay.prompts).toHaveLength(1);
    expect(fs.existsSync(file)).toBe(true);
    // Tier 2 consumed the other session's pending-restore; the stale prompt file is left for the user.
    expect(fs.existsSync(sentinelPath(paths.memory, "pending-restore", OLD))).toBe(false);
    const deleted = engine(repo, home, [
      "restore",
      "--json",
      "--session",
      NEW,
      "--replay",
      "delete",
    ]).json();
    expect(deleted.action).toBe("restore");
    expect(fs.existsSync(file)).toBe(false);
  });

  it("legacy headerless file: one prompt, y replays it", () => {
    const { repo, home, paths } = tempRepo();
    saveLikeTheSaveSide(paths, NEW, "parser");
    writeAtomic(fs, sentinelPath(paths.memory, "compact-happened", NEW), `session_id=${NEW}\n`);
    const file = sentinelPath(paths.memory, "pending-prompt", NEW);
    fs.writeFileSync(file, "please refactor the parser\n");
    const text = engine(repo, home, ["restore", "--session", NEW]).out;
    expect(text).toContain("Your previous prompt was: please refactor the parser");
    const done = engine(repo, home, [
      "restore",
      "--json",
      "--session",
      NEW,
      "--replay",
      "y",
    ]).json();
    expect(done.replay.prompts).toEqual([
      { n: 1, timestamp: "legacy", text: "please refactor the parser" },
    ]);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe("successor with the built engine", () => {
  it("prints a command sh can run, and --launch runs claude -p (a stand-in on PATH) with the checkpoint", () => {
    const { repo, home, paths } = tempRepo();
    const { checkpoint } = saveLikeTheSaveSide(paths, OLD, "it's-quoted", {
      intent: 'say "hi" and $HOME `x`',
    });
    const bin = path.join(home, "bin");
    fs.mkdirSync(bin);
    const got = path.join(home, "got.txt");
    fs.writeFileSync(
      path.join(bin, "claude"),
      `#!/bin/sh\nprintf '%s' "$2" > ${JSON.stringify(got)}\necho launched\n`,
      { mode: 0o755 },
    );
    const env = { PATH: `${bin}:${process.env["PATH"]}` };
    const printed = engine(repo, home, ["successor"], env).out.split("\n").slice(1).join("\n");
    spawnSync("sh", ["-c", printed], { env: { ...process.env, ...env } });
    const viaShell = fs.readFileSync(got, "utf8");
    expect(viaShell).toContain(`--- ${checkpoint} ---`);
    expect(viaShell).toContain('say "hi" and $HOME `x`');
    fs.rmSync(got);
    const launched = engine(repo, home, ["successor", "--launch", "--json"], env).json();
    expect(launched).toMatchObject({ ok: true, launched: true, stdout: "launched\n" });
    expect(fs.readFileSync(got, "utf8")).toBe(viaShell);
  });
});
