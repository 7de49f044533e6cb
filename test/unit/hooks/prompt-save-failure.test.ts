import { describe, expect, it } from "vitest";
import { handleUserPromptSubmit } from "../../../lib/hooks/user-prompt-submit.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import type { UserPromptSubmitInput } from "../../../lib/hooks/hook-io.ts";
import { fakeDeps, listFiles, type FakeDeps } from "../../helpers/memfs-deps.ts";
import { failing } from "../../helpers/failing-fs.ts";
import { assistantLine, transcriptWithTokens } from "../../helpers/transcripts.ts";

// The block tier's order: the checkpoint and its sentinel first, the held prompt last. A write that
// fails leaves nothing kept for replay, and the prompt goes through with words saying why.

const ROOT = "/home/u/proj";
const MEM = `${ROOT}/.workflow_artifacts/memory`;
const SID = "5f0c2d9e-1111-4a2b-9c3d-000000000001";
const TRANSCRIPT = `/home/u/.claude/projects/-home-u-proj/${SID}.jsonl`;
const BLOCK = 160_000;

function world(transcript = transcriptWithTokens(BLOCK, "claude-opus-4-5-20251101")): FakeDeps {
  return fakeDeps({
    files: { [`${ROOT}/.git/HEAD`]: "ref: refs/heads/main\n", [TRANSCRIPT]: transcript },
    now: "2026-11-29T12:00:00Z",
  });
}

const input = (prompt: string): UserPromptSubmitInput => ({
  session_id: SID,
  transcript_path: TRANSCRIPT,
  cwd: ROOT,
  hook_event_name: "UserPromptSubmit",
  prompt,
});
const run = (deps: FakeDeps, prompt: string) =>
  handleUserPromptSubmit(deps, input(prompt), readKnobs(deps.env, deps.warn)) as {
    decision?: string;
    systemMessage?: string;
    hookSpecificOutput?: { additionalContext?: string };
  } | null;

const pendingPrompt = `${MEM}/pending-prompt-${SID}.txt`;
const exists = (deps: FakeDeps, p: string) => deps.fs.existsSync(p);

describe("the block tier when a write fails", () => {
  it("a full disk at the checkpoint: the prompt is not held, nothing is kept for replay, and the answer says why", () => {
    const deps = failing(world(), "ENOSPC", (p) => p.includes("/checkpoints/"));
    const answer = run(deps, "drop the production table users_old");
    expect(answer?.decision).toBeUndefined();
    expect(exists(deps, pendingPrompt)).toBe(false);
    const context = answer?.hookSpecificOutput?.additionalContext ?? "";
    expect(context).toContain("Nothing could be saved (disk full: ");
    expect(context).toContain("the prompt was not held and went through");
    expect(answer?.systemMessage).toMatch(
      /nothing could be saved \(disk full\); your prompt went through/,
    );
    expect(answer?.systemMessage?.length).toBeLessThanOrEqual(200);
    // never a raw errno to a person or the model
    expect(JSON.stringify(answer)).not.toMatch(/ENOSPC|EACCES|errno/);
  });

  it("a full disk at the held prompt: the checkpoint stays, the prompt goes through and is not offered later", () => {
    const deps = failing(world(), "ENOSPC", (p) => p.includes("pending-prompt-"));
    const answer = run(deps, "migrate the users table");
    expect(answer?.decision).toBeUndefined();
    expect(exists(deps, pendingPrompt)).toBe(false);
    expect(exists(deps, `${MEM}/pending-restore-${SID}.txt`)).toBe(true);
    const context = answer?.hookSpecificOutput?.additionalContext ?? "";
    expect(context).toContain(`Restore state: ${MEM}/checkpoints/`);
    expect(context).toContain("the prompt could not be kept for replay (disk full: ");
    expect(answer?.systemMessage).toContain("the prompt could not be kept (disk full)");
  });

  it("a project it cannot write: still judged, the person told it is read-only, no file left behind", () => {
    const deps = failing(world(), "EACCES", (p) => p.startsWith(`${ROOT}/`));
    const before = listFiles(deps, ROOT);
    const answer = run(deps, "deploy it");
    expect(answer?.systemMessage).toMatch(
      /^\[quoin\] context 160k of 167k \(95\.8%\): nothing could be saved \(read-only\)/,
    );
    expect(answer?.hookSpecificOutput?.additionalContext).toContain(
      // the first folder on the way that could not be made: the memory folder's parent here
      `Nothing could be saved (read-only: ${ROOT}/.workflow_artifacts`,
    );
    expect(listFiles(deps, ROOT)).toEqual(before);
  });

  it("all writes working: still held, both files on disk first", () => {
    const deps = world();
    expect(run(deps, "deploy it")?.decision).toBe("block");
    expect(exists(deps, pendingPrompt)).toBe(true);
    expect(exists(deps, `${MEM}/pending-restore-${SID}.txt`)).toBe(true);
  });
});

describe("a figure estimated from the transcript's size", () => {
  it("never holds a prompt: with no usage line in the bytes read, at most an advisory that says it is an estimate", () => {
    // 2 MB of pasted text and no usage line: bytes / 8 = 262k tokens, past every tier of 200k.
    const paste = JSON.stringify({
      type: "user",
      message: { role: "user", content: "x".repeat(2 * 1024 * 1024) },
    });
    const deps = fakeDeps({
      files: { [`${ROOT}/.git/HEAD`]: "ref: refs/heads/main\n", [TRANSCRIPT]: `${paste}\n` },
      env: { QUOIN_CONTEXT_WINDOW: "200000" },
      now: "2026-11-29T12:00:00Z",
    });
    for (const p of ["first", "second", "third"]) {
      const answer = run(deps, p);
      expect(answer?.decision).toBeUndefined();
      expect(answer?.hookSpecificOutput?.additionalContext).toContain(
        "estimated from transcript bytes, no usage data",
      );
      expect(answer?.hookSpecificOutput?.additionalContext).toContain(
        "no prompt is held on an estimate",
      );
      expect(answer?.systemMessage).toContain("(estimated from transcript size)");
    }
    expect(exists(deps, pendingPrompt)).toBe(false);
    expect(exists(deps, `${MEM}/pending-restore-${SID}.txt`)).toBe(false);
  });

  it("a usage line in the bytes read still holds at the same size", () => {
    const deps = fakeDeps({
      files: {
        [`${ROOT}/.git/HEAD`]: "ref: refs/heads/main\n",
        [TRANSCRIPT]: `${assistantLine(BLOCK, "claude-opus-4-5-20251101")}\n`,
      },
      env: { QUOIN_CONTEXT_WINDOW: "200000" },
    });
    expect(run(deps, "go")?.decision).toBe("block");
  });
});
