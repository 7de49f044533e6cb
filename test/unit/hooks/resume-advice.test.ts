import { describe, expect, it } from "vitest";
import type { HookAnswer, SessionStartInput } from "../../../lib/hooks/hook-io.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import { forkParent, resumeArgument } from "../../../lib/hooks/fork-parent.ts";
import { answerForInstall } from "../../../lib/hooks/checkpoint-command.ts";
import { withCommand } from "../../../lib/core/checkpoint-command.ts";
import { writeRegistry } from "../../../lib/store/session-registry.ts";
import { CKPTS, knobs, memWorld, OTHER, ROOT, SID } from "../../helpers/save-deps.ts";

// The SessionStart payloads below are the fields 2.1.332 sent in test/e2e/newest-client.test.ts's
// runs (docs/claude-code-versions.md): resume and fork carry the re-cache figures.
const PROJECTS = "/home/u/.claude/projects/-home-u-proj";
const FORK = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const payload = (over: Partial<SessionStartInput> = {}): SessionStartInput => ({
  session_id: SID,
  transcript_path: `${PROJECTS}/${SID}.jsonl`,
  cwd: ROOT,
  hook_event_name: "SessionStart",
  source: "resume",
  seconds_since_last_response: 7500,
  context_tokens: 41020,
  prompt_cache_likely_expired: true,
  estimated_cache_write_usd: 0.2051,
  ...over,
});
const context = (a: HookAnswer | null) =>
  a && "hookSpecificOutput" in a ? (a.hookSpecificOutput?.additionalContext ?? "") : "";
const message = (a: HookAnswer | null) => (a && "systemMessage" in a ? a.systemMessage : undefined);

function checkpoint(sid: string, task: string, body = ""): string {
  return `## Status\ncheckpoint save (voluntary)\n\n## Active task\n${task}\n\n## Session ID\n${sid}\n\n## Saved at\n2026-11-29T20:00:00Z\n${body}`;
}
const assistant = (usage: Record<string, number>) =>
  `${JSON.stringify({ type: "assistant", message: { role: "assistant", usage } })}\n`;

describe("sessionstart on resume: the re-cache figures", () => {
  const mine = `${CKPTS}/2026-11-29T2000-parser.md`;

  it("says what resuming re-sends (the client's figures) and the checkpoint brief's estimated size", () => {
    const w = memWorld({ [mine]: checkpoint(SID, "parser", "x".repeat(8000)) });
    const size = w.fs.statSync(mine).size;
    const answer = handleSessionStart(w.deps, payload(), knobs());
    const text = context(answer);
    expect(text).toContain("The prompt cache has likely expired (last response 2h05m ago)");
    expect(text).toContain(
      "resuming re-sends 41,020 tokens of context, an estimated cache write of $0.21 (the client's figure)",
    );
    expect(text).toContain(`/clear then /checkpoint --restore continues from ${mine} instead`);
    expect(text).toContain(
      `a brief of about ${Math.ceil(size / 8).toLocaleString("en-US")} tokens (an estimate: ${size.toLocaleString("en-US")} bytes at 8 bytes per token`,
    );
    expect(message(answer)).toBe(
      "[quoin] cache likely expired: resuming re-sends 41k tokens (~$0.21 cache write); /clear then /checkpoint --restore loads a ~1k-token brief",
    );
  });

  it("estimates the brief with QUOIN_BYTES_PER_TOKEN", () => {
    const w = memWorld({ [mine]: checkpoint(SID, "parser", "x".repeat(8000)) });
    const size = w.fs.statSync(mine).size;
    const text = context(
      handleSessionStart(w.deps, payload(), knobs({ QUOIN_BYTES_PER_TOKEN: "4" })),
    );
    expect(text).toContain(`about ${Math.ceil(size / 4).toLocaleString("en-US")} tokens`);
  });

  it.each([
    ["the cache is warm", { prompt_cache_likely_expired: false }],
    [
      "the client sends no figures (2.1.197)",
      { prompt_cache_likely_expired: undefined, context_tokens: undefined },
    ],
    ["context_tokens is absent", { context_tokens: undefined }],
  ])("says nothing when %s", (_, over) => {
    const w = memWorld({ [mine]: checkpoint(SID, "parser") });
    expect(
      handleSessionStart(w.deps, payload(over as Partial<SessionStartInput>), knobs()),
    ).toBeNull();
  });

  it("says nothing without a checkpoint of this session (another session's does not count)", () => {
    const w = memWorld({ [mine]: checkpoint(OTHER, "parser") });
    expect(handleSessionStart(w.deps, payload(), knobs())).toBeNull();
  });
});

describe("sessionstart on fork", () => {
  const theirs = `${CKPTS}/2026-11-29T2000-lexer.md`;
  const fork = (over: Partial<SessionStartInput> = {}) =>
    payload({
      session_id: FORK,
      transcript_path: `${PROJECTS}/${FORK}.jsonl`,
      source: "fork",
      prompt_cache_likely_expired: false,
      ...over,
    });

  it("names the session it forked from (its transcript's last window is the fork's context_tokens) and offers its newest checkpoint", () => {
    const w = memWorld({
      [theirs]: checkpoint(OTHER, "lexer"),
      [`${PROJECTS}/${OTHER}.jsonl`]: assistant({ input_tokens: 41000, output_tokens: 20 }),
      [`${PROJECTS}/${SID}.jsonl`]: assistant({ input_tokens: 900, output_tokens: 20 }),
    });
    const answer = handleSessionStart(w.deps, fork(), knobs());
    expect(context(answer)).toBe(
      `[quoin-checkpoint] This session is a fork of session ${OTHER}. That session's newest checkpoint, ${theirs} ` +
        "(task 'lexer', saved 2026-11-29T20:00:00Z), is this fork's task too: /checkpoint --restore re-reads it.",
    );
    expect(message(answer)).toBe(
      "[quoin] fork of session 99999999, task lexer: /checkpoint --restore re-reads its checkpoint 2026-11-29T2000-lexer.md",
    );
  });

  it("adds the re-cache figures against the parent's checkpoint when the cache has likely expired", () => {
    const w = memWorld({
      [theirs]: checkpoint(OTHER, "lexer"),
      [`${PROJECTS}/${OTHER}.jsonl`]: assistant({ input_tokens: 41000, output_tokens: 20 }),
    });
    const text = context(
      handleSessionStart(w.deps, fork({ prompt_cache_likely_expired: true }), knobs()),
    );
    expect(text).toContain(`This session is a fork of session ${OTHER}`);
    expect(text).toContain(`/clear then /checkpoint --restore continues from ${theirs} instead`);
  });

  it("says it cannot tell the parent when nothing names it, and offers no checkpoint", () => {
    const w = memWorld({ [theirs]: checkpoint(OTHER, "lexer") });
    expect(context(handleSessionStart(w.deps, fork(), knobs()))).toBe(
      "[quoin-checkpoint] This session is a fork of an earlier session; the client did not say which, so no checkpoint is offered.",
    );
  });

  it("finds the parent of an in-place /fork in the same client process's registry entry, else the --resume argument", () => {
    const w = memWorld();
    const config = "/home/u/.claude";
    writeRegistry(w.deps, config, "process", OTHER, {
      pid: 777,
      start: null,
      startedAt: "2026-11-29T20:00:00Z",
      cwd: ROOT,
    });
    const f = { sid: FORK };
    expect(forkParent(w.deps, config, f, 777)).toBe(OTHER);
    w.vol.mkdirSync("/proc/778", { recursive: true });
    w.vol.writeFileSync("/proc/778/cmdline", `claude\0--resume\0${SID}\0--fork-session\0`);
    expect(forkParent(w.deps, config, f, 778)).toBe(SID);
    expect(forkParent(w.deps, config, f, 779)).toBeNull();
    expect(resumeArgument(["claude", `--resume=${SID}`])).toBe(SID);
    expect(resumeArgument(["claude", "-r", "parser work"])).toBeNull();
  });
});

describe("the /checkpoint collision (2.1.332's /rewind alias)", () => {
  it("a hook run from the plugin names /quoin-checkpoint:checkpoint; the settings install keeps /checkpoint", () => {
    const answer: HookAnswer = {
      systemMessage: "[quoin] waiting: /checkpoint --restore resumes it",
      hookSpecificOutput: {
        hookEventName: "SessionStart",
        additionalContext: `Run /checkpoint --restore; the file is ${CKPTS}/2026-11-29T2000-x.md ('/checkpoint')`,
      },
    };
    expect(answerForInstall(answer, "/checkpoint")).toBe(answer);
    expect(answerForInstall(answer, "/quoin-checkpoint:checkpoint")).toEqual({
      systemMessage: "[quoin] waiting: /quoin-checkpoint:checkpoint --restore resumes it",
      hookSpecificOutput: {
        hookEventName: "SessionStart",
        additionalContext: `Run /quoin-checkpoint:checkpoint --restore; the file is ${CKPTS}/2026-11-29T2000-x.md ('/quoin-checkpoint:checkpoint')`,
      },
    });
    expect(
      answerForInstall(
        { decision: "block", reason: "run /checkpoint." },
        "/quoin-checkpoint:checkpoint",
      ),
    ).toEqual({
      decision: "block",
      reason: "run /quoin-checkpoint:checkpoint.",
    });
    expect(
      withCommand(
        "/checkpoints/ /checkpoint-x /quoin-checkpoint:checkpoint",
        "/quoin-checkpoint:checkpoint",
      ),
    ).toBe("/checkpoints/ /checkpoint-x /quoin-checkpoint:checkpoint");
  });
});
