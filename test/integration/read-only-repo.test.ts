import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST, runBundle } from "../helpers/run-bundle.ts";
import { assistantLine, transcriptWithTokens, workSessionLines } from "../helpers/transcripts.ts";

// A repository the user cannot write (root writes through read-only folders, so the hooks run as
// uid 65534): the prompt hook still judges the context, never holds a prompt it could not save,
// and says why; PreCompact's failure is said once by the session's next SessionStart. Then a
// transcript whose newest 32 MiB hold no usage line: no prompt is held on the size estimate.

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0 && fs.existsSync("/usr/bin/setpriv");
const SID = "0b6c8f9a-2222-4c3d-8e9f-0000000000ro";
let tmp: string;
let home: string;
let repo: string;
let transcript: string;

beforeAll(() => {
  if (!asRoot) return;
  // NOTE: in the system's /tmp, not the run's TMPDIR: that folder is root's, mode 0700, and uid
  // 65534 must pass through every folder above the project and its home. Removed in afterAll.
  tmp = fs.mkdtempSync(path.join("/tmp", "quoin-ro-"));
  fs.chmodSync(tmp, 0o755);
  home = path.join(tmp, "home");
  repo = path.join(tmp, "repo");
  fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
  fs.writeFileSync(path.join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  transcript = path.join(home, ".claude", "projects", "-repo", `${SID}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.writeFileSync(transcript, transcriptWithTokens(165_000, "claude-opus-4-5-20251101"));
  // home is the user's; the repository stays root's, 0755: readable, not writable
  for (const p of [home, path.join(home, ".claude"), path.join(home, ".claude", "projects")])
    fs.chownSync(p, NOBODY, NOBODY);
  fs.chownSync(path.dirname(transcript), NOBODY, NOBODY);
  fs.chownSync(transcript, NOBODY, NOBODY);
});
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Run a built hook as uid 65534, as Claude Code would (node <file>, the payload on stdin). */
function spawnAsNobody(hook: string, payload: object, env: Record<string, string> = {}) {
  const res = spawnSync(
    "/usr/bin/setpriv",
    [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      "--clear-groups",
      process.execPath,
      path.join(DIST, "hooks", hook),
    ],
    {
      input: JSON.stringify({
        session_id: SID,
        transcript_path: transcript,
        cwd: repo,
        ...payload,
      }),
      env: {
        PATH: process.env["PATH"],
        TZ: "UTC",
        HOME: home,
        QUOIN_CONTEXT_WINDOW: "200000",
        ...env,
      },
      encoding: "utf8",
      timeout: 30_000,
    },
  );
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

const answerOf = (stdout: string) =>
  JSON.parse(stdout) as {
    decision?: string;
    systemMessage?: string;
    hookSpecificOutput?: { additionalContext?: string };
  };

describe.skipIf(!asRoot)(
  "the built hooks in a repository the user cannot write (uid 65534)",
  () => {
    it("UserPromptSubmit at the block tier: not held, the person told nothing could be saved (read-only)", () => {
      const r = spawnAsNobody("userpromptsubmit.cjs", {
        hook_event_name: "UserPromptSubmit",
        prompt: "drop the production table users_old",
      });
      expect(r.status).toBe(0);
      const answer = answerOf(r.stdout);
      expect(answer.decision).toBeUndefined();
      expect(answer.systemMessage).toMatch(
        /^\[quoin\] context 165k of 167k \(98\.8%\): nothing could be saved \(read-only\); your prompt went through/,
      );
      expect(answer.systemMessage!.length).toBeLessThanOrEqual(200);
      expect(answer.hookSpecificOutput?.additionalContext).toContain(
        `Nothing could be saved (read-only: ${repo}/.workflow_artifacts`,
      );
      expect(r.stdout).not.toMatch(/EACCES|errno/);
      expect(fs.readdirSync(repo)).toEqual([".git"]);
    });

    it("PreCompact saves nothing, and the session's SessionStart after the compaction says why, once", () => {
      const pre = spawnAsNobody("precompact.cjs", {
        hook_event_name: "PreCompact",
        trigger: "auto",
      });
      expect(pre.status).toBe(0);
      expect(fs.readdirSync(repo)).toEqual([".git"]);
      const start = () =>
        spawnAsNobody("sessionstart.cjs", { hook_event_name: "SessionStart", source: "compact" });
      const first = answerOf(start().stdout);
      expect(first.systemMessage).toMatch(
        /^\[quoin\] the last checkpoint could not be saved: read-only: .* \(before the compaction, \d{4}-\d\d-\d\dT[\d:]+Z\)$/,
      );
      expect(first.hookSpecificOutput?.additionalContext).toContain(
        "the last checkpoint could not be saved: read-only",
      );
      expect(start().stdout).not.toContain("could not be saved");
    });

    it("PreCompact saves nothing and no compaction follows: the next prompt says why, once", () => {
      const pre = spawnAsNobody("precompact.cjs", {
        hook_event_name: "PreCompact",
        trigger: "manual",
      });
      expect(pre.status).toBe(0);
      const ask = () =>
        spawnAsNobody(
          "userpromptsubmit.cjs",
          { hook_event_name: "UserPromptSubmit", prompt: "go on" },
          { QUOIN_CONTEXT_WINDOW: "1000000" },
        );
      const first = ask();
      expect(first.status).toBe(0);
      const answer = answerOf(first.stdout);
      expect(answer.systemMessage).toMatch(
        /^\[quoin\] the last checkpoint could not be saved: read-only: .* \(before the compaction, \d{4}-\d\d-\d\dT[\d:]+Z\)$/,
      );
      expect(answer.systemMessage!.length).toBeLessThanOrEqual(200);
      expect(answer.hookSpecificOutput?.additionalContext).toMatch(
        /^\[quoin-checkpoint\] the last checkpoint could not be saved: read-only/,
      );
      expect(first.stdout).not.toMatch(/EACCES|errno/);
      expect(ask().stdout).not.toContain("could not be saved");
    });

    it("SessionEnd saves nothing, and the resumed session is told", () => {
      // a session with work in it (a trivial one is skipped, not failed)
      fs.writeFileSync(transcript, `${workSessionLines(repo).join("\n")}\n`);
      const end = spawnAsNobody(
        "sessionend.cjs",
        { hook_event_name: "SessionEnd", reason: "other" },
        { QUOIN_SESSIONEND_DEADLINE_MS: "20000" },
      );
      expect(end.status).toBe(0);
      const resumed = spawnAsNobody("sessionstart.cjs", {
        hook_event_name: "SessionStart",
        source: "resume",
      });
      expect(answerOf(resumed.stdout).systemMessage).toMatch(
        /^\[quoin\] the last checkpoint could not be saved: read-only: .* \(at session end, /,
      );
    });
  },
);

describe("the built prompt hook after ten pasted screenshots", () => {
  it("holds no prompt when the newest 32 MiB hold no usage line: the size estimate is an advisory that says so", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-shots-"));
    try {
      const own = path.join(dir, "proj");
      fs.mkdirSync(path.join(own, ".git"), { recursive: true });
      fs.writeFileSync(path.join(own, ".git", "HEAD"), "ref: refs/heads/main\n");
      const file = path.join(dir, "t.jsonl");
      const fd = fs.openSync(file, "w");
      fs.writeSync(fd, `${assistantLine(40_000, "claude-opus-4-5-20251101")}\n`);
      // ten screenshots of 3.4 MB of base64 each, pasted, then Esc: no reply, no usage line
      const shot = Buffer.alloc(2_550_000, 7).toString("base64");
      for (let i = 0; i < 10; i++)
        fs.writeSync(
          fd,
          `${JSON.stringify({
            type: "user",
            message: {
              role: "user",
              content: [
                { type: "image", source: { type: "base64", media_type: "image/png", data: shot } },
              ],
            },
          })}\n`,
        );
      fs.closeSync(fd);
      expect(fs.statSync(file).size).toBeGreaterThan(32 * 1024 * 1024);
      for (const prompt of ["what is in the screenshots?", "and the last one?"]) {
        const r = runBundle(path.join(DIST, "hooks", "userpromptsubmit.cjs"), [], {
          input: JSON.stringify({
            session_id: "0b6c8f9a-2222-4c3d-8e9f-00000000005c",
            transcript_path: file,
            cwd: own,
            hook_event_name: "UserPromptSubmit",
            prompt,
          }),
          env: { HOME: path.join(dir, "home"), QUOIN_CONTEXT_WINDOW: "200000" },
        });
        expect(r.status).toBe(0);
        const answer = answerOf(r.stdout);
        expect(answer.decision).toBeUndefined();
        expect(answer.systemMessage).toContain("(estimated from transcript size)");
      }
      expect(fs.existsSync(path.join(own, ".workflow_artifacts"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
