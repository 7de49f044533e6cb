import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { handleUserPromptSubmit } from "../../../lib/hooks/user-prompt-submit.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { parseBlockedPrompts } from "../../../lib/store/pending-prompts.ts";
import type { UserPromptSubmitInput } from "../../../lib/hooks/hook-io.ts";
import { fakeDeps, listFiles, readText, type FakeDeps } from "../../helpers/memfs-deps.ts";
import { transcriptWithTokens } from "../../helpers/transcripts.ts";
import { MAKE_WINDOW_KNOWN } from "../../../lib/context/context-window.ts";

const ROOT = "/home/u/proj";
const MEM = `${ROOT}/.workflow_artifacts/memory`;
const SID = "5f0c2d9e-1111-4a2b-9c3d-000000000001";
const TRANSCRIPT =
  "/home/u/.claude/projects/-home-u-proj/5f0c2d9e-1111-4a2b-9c3d-000000000001.jsonl";

// 167k is the 100% of a 200k window; 70% = 116.9k, 95% = 158.65k.
const QUIET = 100_000;
const ADVISORY = 130_000;
const BLOCK = 160_000;

// A model with one window (200k): the block tier holds prompts. Models that offer 1M as an option
// are a guess without another source (see "the block tier on a guessed window").
const KNOWN_200K = "claude-opus-4-5-20251101";

function world(
  tokens: number,
  env: Record<string, string> = {},
  extra: Record<string, string> = {},
  model = KNOWN_200K,
): FakeDeps {
  return fakeDeps({
    files: {
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/feat/parser\n",
      [TRANSCRIPT]: transcriptWithTokens(tokens, model),
      ...extra,
    },
    env,
    now: "2026-11-29T12:00:00Z",
  });
}

function prompt(text: string, over: Partial<UserPromptSubmitInput> = {}): UserPromptSubmitInput {
  // The shape Claude Code 2.1.x sends (docs/claude-code-versions.md, "Hook payloads").
  return {
    session_id: SID,
    prompt_id: "550e8400-e29b-41d4-a716-446655440000",
    transcript_path: TRANSCRIPT,
    cwd: ROOT,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: text,
    ...over,
  };
}

const run = (deps: FakeDeps, input: UserPromptSubmitInput) =>
  handleUserPromptSubmit(deps, input, readKnobs(deps.env, deps.warn));
const context = (answer: unknown) =>
  (answer as { hookSpecificOutput?: { additionalContext?: string } } | null)?.hookSpecificOutput
    ?.additionalContext;

describe("userpromptsubmit below the advisory band", () => {
  it("writes nothing into a repository without a memory folder (a plain prompt leaves no trace)", () => {
    const deps = world(QUIET, { QUOIN_ROTATE_OBSERVATIONS: "50" });
    const before = listFiles(deps);
    expect(run(deps, prompt("fix the bug"))).toBeNull();
    expect(run(deps, prompt("and the next one"))).toBeNull();
    // The rotation count is per-session state outside the repository.
    expect(listFiles(deps).filter((f) => !before.includes(f))).toEqual([
      `/home/u/.claude/quoin-checkpoint/state/rotation-${SID}.json`,
    ]);
  });

  it("says nothing and records the prompt in recent-sessions.md where the memory folder exists", () => {
    const deps = world(QUIET, {}, { [`${MEM}/checkpoints/2026-11-28T1000-x.md`]: "x" });
    expect(run(deps, prompt("fix the bug"))).toBeNull();
    expect(readText(deps, `${MEM}/recent-sessions.md`)).toBe(`2026-11-29T12:00:00Z | ${SID}\n`);
  });

  it("says nothing without a transcript path", () => {
    const deps = world(BLOCK);
    expect(run(deps, prompt("x", { transcript_path: undefined }))).toBeNull();
  });
});

describe("userpromptsubmit advisory band", () => {
  it("advises with tokens, the limit and the percentage", () => {
    const deps = world(ADVISORY);
    const text = context(run(deps, prompt("next step")));
    expect(text).toContain("context 130k of 167k (77.8%)");
    expect(text).toContain(`window 200k (model ${KNOWN_200K})`);
    expect(text).toContain(
      "Advisory from 70.0% = 117k of 167k; prompts are held at 95.0% = 159k of 167k.",
    );
    expect(text).toContain("/checkpoint");
    expect(deps.fs.existsSync(MEM)).toBe(false);
  });

  it("also tells the person, in one short line with tokens and the limit (systemMessage)", () => {
    const answer = run(world(ADVISORY), prompt("next step"));
    const line = answer && "systemMessage" in answer ? answer.systemMessage : undefined;
    expect(line).toBe(
      "[quoin] context 130k of 167k (77.8%): /checkpoint saves this session's place, /checkpoint --defer silences this",
    );
  });

  it("is silenced by this session's defer marker", () => {
    const deps = world(
      ADVISORY,
      {},
      { [`${MEM}/checkpoint-defer-${SID}.txt`]: "2026-11-29T11:00:00Z\n" },
    );
    expect(run(deps, prompt("next"))).toBeNull();
  });

  it("is not silenced by another session's defer marker", () => {
    const deps = world(
      ADVISORY,
      {},
      { [`${MEM}/checkpoint-defer-other-session.txt`]: "2026-11-29T11:00:00Z\n" },
    );
    expect(context(run(deps, prompt("next")))).toContain("77.8%");
  });

  it("step 0.5: a postcompact-reset trashes itself and the defer marker, so advice resumes", () => {
    const deps = world(
      ADVISORY,
      {},
      {
        [`${MEM}/checkpoint-defer-${SID}.txt`]: "2026-11-29T11:00:00Z\n",
        [`${MEM}/postcompact-reset-${SID}.txt`]: `compacted_at=2026-11-29T11:30:00Z\nsession_id=${SID}\n`,
      },
    );
    expect(context(run(deps, prompt("next")))).toContain("77.8%");
    expect(listFiles(deps, MEM)).toEqual([
      `${MEM}/recent-sessions.md`,
      `${MEM}/trash/2026-11-29/checkpoint-defer-${SID}.txt`,
      `${MEM}/trash/2026-11-29/postcompact-reset-${SID}.txt`,
    ]);
  });

  it("uses the window the status line recorded for this session, outside the repository", () => {
    const deps = world(
      ADVISORY,
      {},
      {
        [`/home/u/.claude/quoin-checkpoint/state/window-${SID}.json`]:
          '{"context_window_size":1000000,"model":"claude-opus-4-6[1m]"}\n',
      },
    );
    expect(run(deps, prompt("next"))).toBeNull(); // 130k of 967k is 13%
  });

  it("honours QUOIN_STOP_BPS and reports a bad knob once", () => {
    const deps = world(QUIET, { QUOIN_STOP_BPS: "5000", QUOIN_BLOCK_BPS: "lots" });
    expect(context(run(deps, prompt("next")))).toContain("context 100k of 167k (59.8%)");
    expect(deps.warnings).toEqual([expect.stringContaining("QUOIN_BLOCK_BPS")]);
  });
});

describe("userpromptsubmit block tier", () => {
  it("saves the prompt and a skeleton checkpoint, then blocks naming both files", () => {
    const deps = world(BLOCK);
    const answer = run(deps, prompt("refactor the parser"));
    const checkpoint = `${MEM}/checkpoints/2026-11-29T1200-feat-parser.md`;
    const pending = `${MEM}/pending-prompt-${SID}.txt`;
    expect(answer).toEqual({
      decision: "block",
      reason: expect.stringContaining(
        `context 160k of 167k (95.8%); window 200k (model ${KNOWN_200K}); past the block tier (95.0% = 159k of 167k)`,
      ),
    });
    const reason = (answer as { reason: string }).reason;
    expect(reason).toContain(pending);
    expect(reason).toContain(checkpoint);
    expect(parseBlockedPrompts(readText(deps, pending))).toEqual([
      {
        timestamp: "2026-11-29T12:00:00Z",
        nonReplayable: false,
        nonReplayableKind: undefined,
        text: "refactor the parser",
      },
    ]);
    expect(readText(deps, `${MEM}/pending-restore-${SID}.txt`)).toBe(`${checkpoint}\n`);
    const body = readText(deps, checkpoint);
    expect(body).toContain("## Active task\nfeat-parser");
    expect(body).toContain("## Branch\nfeat/parser");
    expect(body).toContain(`## Session ID\n${SID}`);
    expect(deps.fs.statSync(pending).mode & 0o777).toBe(0o600);
    expect(deps.fs.statSync(checkpoint).mode & 0o777).toBe(0o600);
  });

  it("names the task from the newest session-state file", () => {
    const deps = world(
      BLOCK,
      {},
      { [`${MEM}/sessions/2026-11-28-parser-rewrite.md`]: "## Unfinished work\n- x\n" },
    );
    run(deps, prompt("go"));
    expect(deps.fs.existsSync(`${MEM}/checkpoints/2026-11-29T1200-parser-rewrite.md`)).toBe(true);
  });

  it("keeps an existing pending-restore and appends the second prompt", () => {
    const deps = world(BLOCK);
    run(deps, prompt("first"));
    deps.setNow("2026-11-29T12:01:00Z");
    const answer = run(deps, prompt("second")) as { reason: string };
    expect(answer.reason).toContain("(saved earlier)");
    expect(listFiles(deps, `${MEM}/checkpoints`)).toHaveLength(1);
    const entries = parseBlockedPrompts(readText(deps, `${MEM}/pending-prompt-${SID}.txt`));
    expect(entries.map((e) => [e.text, e.nonReplayable])).toEqual([
      ["first", false],
      ["second", false],
    ]);
  });

  it("replaces a pending-restore that names a missing checkpoint, keeping the old sentinel in trash", () => {
    const deps = world(
      BLOCK,
      {},
      { [`${MEM}/pending-restore-${SID}.txt`]: `${MEM}/checkpoints/2026-11-20T0900-gone.md\n` },
    );
    const answer = run(deps, prompt("go")) as { reason: string };
    const fresh = `${MEM}/checkpoints/2026-11-29T1200-feat-parser.md`;
    expect(answer.reason).toContain(`Restore state: ${fresh}.`);
    expect(readText(deps, `${MEM}/pending-restore-${SID}.txt`)).toBe(`${fresh}\n`);
    expect(readText(deps, `${MEM}/trash/2026-11-29/pending-restore-${SID}.txt`)).toContain(
      "gone.md",
    );
  });

  it("migrates a legacy headerless pending-prompt file instead of losing it", () => {
    const deps = world(
      BLOCK,
      {},
      { [`${MEM}/pending-prompt-${SID}.txt`]: "an old prompt\nwith two lines" },
    );
    run(deps, prompt("new one"));
    const entries = parseBlockedPrompts(readText(deps, `${MEM}/pending-prompt-${SID}.txt`));
    expect(entries.map((e) => [e.timestamp, e.text])).toEqual([
      ["legacy", "an old prompt\nwith two lines"],
      ["2026-11-29T12:00:00Z", "new one"],
    ]);
  });

  it("in advise mode lets the prompt through with the same words; the checkpoint is written, the delivered prompt is never offered for replay", () => {
    const deps = world(BLOCK, { QUOIN_BLOCK_MODE: "advise" });
    const answer = run(deps, prompt("go on")) as {
      systemMessage: string;
      hookSpecificOutput: { additionalContext: string };
    };
    expect(answer.systemMessage).toContain("QUOIN_BLOCK_MODE=advise");
    expect(answer.systemMessage.length).toBeLessThanOrEqual(200);
    expect(answer.hookSpecificOutput.additionalContext).toContain("QUOIN_BLOCK_MODE=advise");
    expect(answer.hookSpecificOutput.additionalContext).not.toContain("Prompt saved");
    expect(deps.fs.existsSync(`${MEM}/pending-prompt-${SID}.txt`)).toBe(false);
    expect(deps.fs.existsSync(`${MEM}/pending-restore-${SID}.txt`)).toBe(true);
  });

  it.each([
    "/compact",
    "/clear",
    "/help",
    "/checkpoint",
    "/checkpoint --restore",
    "  /compact focus on tests",
  ])("lets %s through untouched", (text) => {
    const deps = world(BLOCK);
    expect(run(deps, prompt(text))).toBeNull();
    expect(deps.fs.existsSync(`${MEM}/pending-prompt-${SID}.txt`)).toBe(false);
  });

  it.each(["loop_wakeup", "schedule_wakeup", "system", "poll_event"])(
    "passes a prompt the client injected (source %s) untouched: not held, no checkpoint, no advisory",
    (source) => {
      const deps = world(BLOCK);
      expect(run(deps, prompt("check the deploy again", { source }))).toBeNull();
      expect(deps.fs.existsSync(`${MEM}/pending-prompt-${SID}.txt`)).toBe(false);
      expect(deps.fs.existsSync(`${MEM}/pending-restore-${SID}.txt`)).toBe(false);
      expect(run(world(ADVISORY), prompt("check the deploy again", { source }))).toBeNull();
    },
  );

  it("passes a background task's <task-notification> turn (no source, as both clients send it) untouched", () => {
    // the prompt's shape as 2.1.197 and 2.1.332 sent it (test/e2e/injected-prompt-real-client.test.ts)
    const notification = [
      "<task-notification>",
      "<task-id>bc6yvrjb4</task-id>",
      "<tool-use-id>toolu_01</tool-use-id>",
      "<output-file>/tmp/claude-0/proj/tasks/bc6yvrjb4.output</output-file>",
      "<status>completed</status>",
      '<summary>Background command "build" completed (exit code 0)</summary>',
      "</task-notification>",
    ].join("\n");
    const deps = world(BLOCK);
    expect(run(deps, prompt(notification))).toBeNull();
    expect(deps.fs.existsSync(`${MEM}/pending-prompt-${SID}.txt`)).toBe(false);
    expect(deps.fs.existsSync(`${MEM}/pending-restore-${SID}.txt`)).toBe(false);
    expect(run(world(ADVISORY), prompt(notification))).toBeNull();
    // the tag must open the prompt: a typed prompt that mentions it is the person's
    expect(run(world(BLOCK), prompt("why did <task-notification> fire?"))).toMatchObject({
      decision: "block",
    });
  });

  it("the prompt payload 2.1.332 really sent (no source), given a machine source, passes the block tier untouched", () => {
    const real = JSON.parse(
      readFileSync(
        path.resolve(import.meta.dirname, "../../fixtures/hook-payloads/claude-2.1.332.jsonl"),
        "utf8",
      )
        .split("\n")
        .find((l) => l.includes('"UserPromptSubmit"')) ?? "{}",
    ) as UserPromptSubmitInput;
    expect(real.source).toBeUndefined();
    const here = { ...real, session_id: SID, transcript_path: TRANSCRIPT, cwd: ROOT };
    expect(run(world(BLOCK), here)).toMatchObject({ decision: "block" });
    const deps = world(BLOCK);
    expect(run(deps, { ...here, source: "loop_wakeup" })).toBeNull();
    expect(deps.fs.existsSync(`${MEM}/pending-prompt-${SID}.txt`)).toBe(false);
  });

  it.each(["user", "sdk", "a-source-added-later"])(
    "holds a prompt whose source is %s as a typed one",
    (source) => {
      expect(run(world(BLOCK), prompt("refactor the parser", { source }))).toMatchObject({
        decision: "block",
      });
    },
  );

  it("does not exempt /checkpoint --purge", () => {
    const deps = world(BLOCK);
    expect(run(deps, prompt("/checkpoint --purge"))).toMatchObject({ decision: "block" });
  });

  it("never builds a file name from an invalid session id: advice only", () => {
    const deps = world(BLOCK);
    const answer = run(deps, prompt("go", { session_id: "../../etc/x" }));
    expect(context(answer)).toContain("95.8%");
    expect(
      listFiles(deps, "/").filter((f) => f.includes("etc") || f.includes(".workflow_artifacts")),
    ).toEqual([]);
  });
});

describe("userpromptsubmit outside a project", () => {
  it("writes nothing in $HOME itself, and advises instead of holding the prompt", () => {
    const deps = world(BLOCK);
    const answer = run(deps, prompt("go", { cwd: "/home/u" }));
    expect(context(answer)).toContain("95.8%");
    expect(listFiles(deps, "/home/u").filter((f) => f.includes(".workflow_artifacts"))).toEqual([]);
  });
});

describe("userpromptsubmit idle advisory", () => {
  it("a gap over an hour leaves an idle note that the prompt then gets once", () => {
    const deps = world(
      QUIET,
      {},
      {
        [`${MEM}/recent-sessions.md`]: `2026-11-29T08:30:00Z | ${SID}\n2026-11-29T11:50:00Z | other-session\n`,
      },
    );
    const text = context(run(deps, prompt("back again")));
    expect(text).toContain("idle 3h30m (previous prompt 2026-11-29T08:30:00Z)");
    expect(text).toContain("context 100k of 167k (59.8%)");
    expect(deps.fs.existsSync(`${MEM}/idle-advisory-pending-${SID}.txt`)).toBe(false);
    expect(deps.fs.existsSync(`${MEM}/trash`)).toBe(false);
    deps.setNow("2026-11-29T12:05:00Z");
    expect(run(deps, prompt("again"))).toBeNull();
  });

  it("an exempt first prompt after the gap leaves the note for the next prompt", () => {
    const deps = world(
      QUIET,
      {},
      { [`${MEM}/recent-sessions.md`]: `2026-11-29T08:30:00Z | ${SID}\n` },
    );
    expect(run(deps, prompt("/clear"))).toBeNull();
    expect(deps.fs.existsSync(`${MEM}/idle-advisory-pending-${SID}.txt`)).toBe(true);
    deps.setNow("2026-11-29T12:01:00Z");
    expect(context(run(deps, prompt("where were we?")))).toContain(
      "idle 3h30m (previous prompt 2026-11-29T08:30:00Z)",
    );
    expect(deps.fs.existsSync(`${MEM}/idle-advisory-pending-${SID}.txt`)).toBe(false);
    expect(run(deps, prompt("and then?"))).toBeNull();
  });

  it("finds the session's previous prompt behind many other sessions' lines", () => {
    const others = Array.from(
      { length: 300 },
      (_, i) => `2026-11-29T09:${String(i % 60).padStart(2, "0")}:00Z | other-${i}`,
    ).join("\n");
    const deps = world(
      QUIET,
      {},
      { [`${MEM}/recent-sessions.md`]: `2026-11-29T08:30:00Z | ${SID}\n${others}\n` },
    );
    expect(context(run(deps, prompt("back")))).toContain("idle 3h30m");
  });

  it("no note for a gap under an hour", () => {
    const deps = world(
      QUIET,
      {},
      { [`${MEM}/recent-sessions.md`]: `2026-11-29T11:10:00Z | ${SID}\n` },
    );
    expect(run(deps, prompt("x"))).toBeNull();
  });

  it("keeps the idle note for the next prompt when this one is blocked", () => {
    const deps = world(
      BLOCK,
      {},
      { [`${MEM}/recent-sessions.md`]: `2026-11-29T08:00:00Z | ${SID}\n` },
    );
    expect(run(deps, prompt("x"))).toMatchObject({ decision: "block" });
    expect(deps.fs.existsSync(`${MEM}/idle-advisory-pending-${SID}.txt`)).toBe(true);
  });
});

describe("userpromptsubmit rotation budget", () => {
  it("is off by default", () => {
    const deps = world(QUIET);
    for (let i = 0; i < 5; i += 1) expect(run(deps, prompt(`p${i}`))).toBeNull();
    expect(deps.fs.existsSync(`${MEM}/rotation-budget-${SID}.txt`)).toBe(false);
  });

  it("advises once when the prompt count is reached", () => {
    const deps = world(QUIET, { QUOIN_ROTATE_OBSERVATIONS: "3" });
    expect(run(deps, prompt("1"))).toBeNull();
    expect(run(deps, prompt("2"))).toBeNull();
    const text = context(
      run({ ...deps, engineScript: "/h/it's $x/quoin-checkpoint.cjs" }, prompt("3")),
    );
    expect(text).toContain("Rotation budget reached: 3 prompts");
    // A command the person can run as printed: the engine's own path, quoted for a shell.
    expect(text).toContain(`(run: node '/h/it'\\''s $x/quoin-checkpoint.cjs' successor)`);
    expect(run(deps, prompt("4"))).toBeNull();
  });

  it("advises when the hours are reached", () => {
    const deps = world(QUIET, { QUOIN_ROTATE_HOURS: "2" });
    expect(run(deps, prompt("1"))).toBeNull();
    deps.setNow("2026-11-29T14:00:00Z");
    expect(context(run(deps, prompt("2")))).toContain("2 prompts over 2.0h");
  });
});

describe("userpromptsubmit: the block tier on a guessed and on a known window", () => {
  // limit 167k; QUOIN_BLOCK_BPS 9500 is 158,650 tokens exactly.
  const BELOW = 158_649; // 9499 bps
  const AT = 158_650; // 9500
  const ABOVE = 158_667; // 9501
  const GUESSED = "claude-sonnet-4-5-20250929"; // offers 200k or 1M: the table cannot tell
  const answerOf = (deps: FakeDeps) =>
    run(deps, prompt("go on")) as {
      decision?: string;
      reason?: string;
      systemMessage?: string;
    } | null;

  it.each([
    ["a guessed window", GUESSED, {}],
    ["a known window (model table)", KNOWN_200K, {}],
    ["a known window (QUOIN_CONTEXT_WINDOW)", GUESSED, { QUOIN_CONTEXT_WINDOW: "200000" }],
  ])("one basis point below the tier: the advisory only, on %s", (_what, model, env) => {
    const deps = world(BELOW, env, {}, model);
    const text = context(answerOf(deps));
    expect(text).toContain("(94.9%)");
    expect(text).toContain("prompts are held at 95.0%");
    expect(deps.fs.existsSync(`${MEM}/pending-restore-${SID}.txt`)).toBe(false);
  });

  it.each([
    ["at", AT, "95.0%"],
    ["above", ABOVE, "95.0%"],
  ])(
    "%s the tier on a guessed window: advises, says the window is assumed and how to make it known",
    (_where, tokens) => {
      const deps = world(tokens, {}, {}, GUESSED);
      const answer = answerOf(deps);
      expect(answer?.decision).toBeUndefined();
      // The model is told the whole story; the person one line of at most 200 characters.
      expect(context(answer)).toContain(`window 200k (assumed; ${GUESSED} offers 200k or 1M)`);
      expect(context(answer)).toContain(
        "the prompt went through because the window is assumed, not known",
      );
      expect(context(answer)).toContain(MAKE_WINDOW_KNOWN);
      expect(answer?.systemMessage).toMatch(
        /^\[quoin\] context 1\d\dk of 167k \(9\d\.\d%\), past 95\.0%: sent, not held \(window 200k assumed; QUOIN_CONTEXT_WINDOW sets it\)/,
      );
      expect(answer?.systemMessage?.length).toBeLessThanOrEqual(200);
      // Delivered: never offered for replay. The checkpoint is still saved.
      expect(deps.fs.existsSync(`${MEM}/pending-prompt-${SID}.txt`)).toBe(false);
      expect(deps.fs.existsSync(`${MEM}/pending-restore-${SID}.txt`)).toBe(true);
    },
  );

  it.each([
    ["at", AT, "(95.0%)", KNOWN_200K, {}],
    ["above", ABOVE, "(95.0%)", KNOWN_200K, {}],
    ["at", AT, "(95.0%)", GUESSED, { QUOIN_CONTEXT_WINDOW: "200000" }],
    ["above", ABOVE, "(95.0%)", GUESSED, { QUOIN_CONTEXT_WINDOW: "200000" }],
  ])("%s the tier on a known window: blocks (%s, %s)", (_where, tokens, _pct, model, env) => {
    const deps = world(tokens, env, {}, model);
    expect(answerOf(deps)).toMatchObject({ decision: "block" });
    expect(deps.fs.existsSync(`${MEM}/pending-prompt-${SID}.txt`)).toBe(true);
  });

  it("evidence: usage above the assumed window is a known 1M window, said in the message", () => {
    const deps = world(250_005, {}, {}, GUESSED);
    expect(run(deps, prompt("go on"))).toBeNull(); // 250k of 967k: 25.8%
    const near = world(930_000, {}, {}, GUESSED);
    const answer = run(near, prompt("go on"));
    expect(answer).toMatchObject({ decision: "block" });
    expect((answer as { reason: string }).reason).toContain(
      "context 930k of 967k (96.1%); window 1M (usage 930k is over 200k: at least 1M)",
    );
  });
});

describe("userpromptsubmit: the window from Claude Code's model settings", () => {
  const GUESSED = "claude-sonnet-4-5-20250929";
  const USER_SETTINGS = "/home/u/.claude/settings.json";
  const block = (deps: FakeDeps) =>
    (run(deps, prompt("go on")) as { decision?: string } | null)?.decision;

  it("a user settings.json model with [1m] naming the transcript's model settles 1M", () => {
    expect(
      block(world(BLOCK, {}, { [USER_SETTINGS]: '{"model": "claude-sonnet-4-5[1m]"}' }, GUESSED)),
    ).toBeUndefined();
    expect(
      run(
        world(BLOCK, {}, { [USER_SETTINGS]: '{"model": "claude-sonnet-4-5[1m]"}' }, GUESSED),
        prompt("go on"),
      ),
    ).toBeNull(); // 160k of 967k
  });

  it("an alias names any model of its tier", () => {
    expect(
      run(world(BLOCK, {}, { [USER_SETTINGS]: '{"model": "sonnet[1m]"}' }, GUESSED), prompt("go")),
    ).toBeNull();
    // opus[1m] does not name a Sonnet session: still a guess, so advice, not a block.
    const other = run(
      world(BLOCK, {}, { [USER_SETTINGS]: '{"model": "opus[1m]"}' }, GUESSED),
      prompt("go"),
    ) as { systemMessage?: string };
    expect(other.systemMessage).toContain("assumed");
  });

  it("ANTHROPIC_MODEL comes before the settings files, and the local file before the project and user files", () => {
    const files = { [USER_SETTINGS]: '{"model": "sonnet[1m]"}' };
    const env = world(BLOCK, { ANTHROPIC_MODEL: "claude-sonnet-4-5" }, files, GUESSED);
    expect(run(env, prompt("go"))).toMatchObject({
      systemMessage: expect.stringContaining("assumed"),
    });
    const local = world(
      BLOCK,
      {},
      { ...files, [`${ROOT}/.claude/settings.local.json`]: '{"model": "claude-sonnet-4-5"}' },
      GUESSED,
    );
    expect(run(local, prompt("go"))).toMatchObject({
      systemMessage: expect.stringContaining("assumed"),
    });
    const project = world(
      BLOCK,
      {},
      {
        [`${ROOT}/.claude/settings.json`]: '{"permissions": {}, "model": "claude-sonnet-4-5[1m]"}',
      },
      GUESSED,
    );
    expect(run(project, prompt("go"))).toBeNull();
    expect(
      run(world(BLOCK, { ANTHROPIC_MODEL: "sonnet[1m]" }, {}, GUESSED), prompt("go")),
    ).toBeNull();
  });

  it("the status line's record comes before the settings", () => {
    const deps = world(
      BLOCK,
      {},
      {
        [USER_SETTINGS]: '{"model": "sonnet[1m]"}',
        [`/home/u/.claude/quoin-checkpoint/state/window-${SID}.json`]:
          '{"context_window_size":200000}\n',
      },
      GUESSED,
    );
    expect(block(deps)).toBe("block");
  });

  it("CLAUDE_CODE_DISABLE_1M_CONTEXT=1 settles 200k, even for a model that is 1M natively", () => {
    expect(block(world(BLOCK, { CLAUDE_CODE_DISABLE_1M_CONTEXT: "1" }, {}, GUESSED))).toBe("block");
    expect(
      block(world(BLOCK, { CLAUDE_CODE_DISABLE_1M_CONTEXT: "1" }, {}, "claude-opus-4-8")),
    ).toBe("block");
    expect(run(world(BLOCK, {}, {}, "claude-opus-4-8"), prompt("go"))).toBeNull();
  });

  it("a malformed or oversized settings file settles nothing", () => {
    const bad = world(BLOCK, {}, { [USER_SETTINGS]: '{"model": "sonnet[1m]",' }, GUESSED);
    expect(run(bad, prompt("go"))).toMatchObject({
      systemMessage: expect.stringContaining("assumed"),
    });
    const big = world(
      BLOCK,
      {},
      { [USER_SETTINGS]: `{"model": "sonnet[1m]", "x": "${"y".repeat(70_000)}"}` },
      GUESSED,
    );
    expect(run(big, prompt("go"))).toMatchObject({
      systemMessage: expect.stringContaining("assumed"),
    });
  });
});
