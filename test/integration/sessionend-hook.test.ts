import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { FIXTURES } from "../helpers/run-bundle.ts";
import {
  ensureBuilt,
  runNode,
  SESSIONEND,
  SESSIONSTART,
  tempRepo,
  type Ran,
  type TempRepo,
} from "../helpers/save-repo.ts";

beforeAll(ensureBuilt);

// The built SessionEnd hook on real transcripts (test/fixtures) and real payloads (FACTS: SessionEnd
// carries session_id, transcript_path, cwd, hook_event_name, reason).

const BUSY = {
  file: "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
  sid: "4d5611e5-241a-462a-8d15-5122611a9569",
};
const TRIVIAL = { file: "spotter-short.jsonl", sid: "55604662-cf2a-4331-851a-ec234028f8ca" };
const NEW = "c0c0c0c0-0000-4000-8000-000000000003";

/**
 * A repository whose SessionEnd hook gets a long deadline of its own: these tests are about what is
 * written, and a loaded machine must not turn them into deadline tests (the deadline has its own).
 */
function repoWithBudget(ms = "30000"): TempRepo {
  const repo = tempRepo();
  repo.env["QUOIN_SESSIONEND_DEADLINE_MS"] = ms;
  return repo;
}

function transcriptFor(repo: TempRepo, fx: { file: string; sid: string }): string {
  const dir = path.join(repo.home, ".claude", "projects", repo.root.replace(/[^A-Za-z0-9-]/g, "-"));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${fx.sid}.jsonl`);
  copyFileSync(path.join(FIXTURES, fx.file), file);
  return file;
}

const endPayload = (
  repo: TempRepo,
  sid: string,
  transcript: string,
  reason: string,
  cwd = repo.root,
) =>
  JSON.stringify({
    session_id: sid,
    transcript_path: transcript,
    cwd,
    hook_event_name: "SessionEnd",
    reason,
  });
const startPayload = (repo: TempRepo, sid: string, source: string) =>
  JSON.stringify({
    session_id: sid,
    transcript_path: path.join(repo.home, ".claude", "projects", "x", `${sid}.jsonl`),
    cwd: repo.root,
    hook_event_name: "SessionStart",
    source,
  });

const checkpoints = (repo: TempRepo) => {
  const dir = path.join(repo.root, ".workflow_artifacts", "memory", "checkpoints");
  return existsSync(dir) ? readdirSync(dir).map((n) => path.join(dir, n)) : [];
};

function runAsync(file: string, repo: TempRepo, input: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], {
      cwd: repo.root,
      env: repo.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe("SessionEnd hook (built bundle, real transcripts)", () => {
  it("saves a busy session: one checkpoint, status naming the reason, no sentinel, nothing on stdout, exit 0", () => {
    const repo = repoWithBudget();
    const t = transcriptFor(repo, BUSY);
    const r = runNode(SESSIONEND, [], {
      cwd: repo.root,
      env: repo.env,
      input: endPayload(repo, BUSY.sid, t, "prompt_input_exit"),
    });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    const [file, ...rest] = checkpoints(repo);
    expect(rest).toEqual([]);
    expect(path.basename(file!)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}-.+\.md$/);
    const parsed = parseCheckpoint(readFileSync(file!, "utf8"));
    expect(parsed.status).toBe("checkpoint save (session end, prompt_input_exit)");
    expect(parsed.sessionId).toBe(BUSY.sid);
    expect(
      readdirSync(path.join(repo.root, ".workflow_artifacts", "memory")).filter((n) =>
        n.startsWith("pending-restore"),
      ),
    ).toEqual([]);
    // Ended again with nothing new: skipped (its own snapshot is the newest checkpoint).
    runNode(SESSIONEND, [], {
      cwd: repo.root,
      env: repo.env,
      input: endPayload(repo, BUSY.sid, t, "other"),
    });
    expect(checkpoints(repo)).toHaveLength(1);
  });

  it("leaves no trace for a trivial session, in $HOME, without a transcript, or on bad input", () => {
    const repo = repoWithBudget();
    const trivial = transcriptFor(repo, TRIVIAL);
    const busy = transcriptFor(repo, BUSY);
    for (const input of [
      endPayload(repo, TRIVIAL.sid, trivial, "other"),
      endPayload(repo, BUSY.sid, busy, "logout", repo.home),
      endPayload(repo, BUSY.sid, path.join(repo.home, "gone.jsonl"), "other"),
      "not json",
      "{}",
    ]) {
      expect(runNode(SESSIONEND, [], { cwd: repo.root, env: repo.env, input })).toMatchObject({
        code: 0,
        stdout: "",
      });
    }
    expect(repo.files()).toEqual([]);
    expect(existsSync(path.join(repo.home, ".workflow_artifacts"))).toBe(false);
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  it("/clear: SessionStart(clear) started before SessionEnd(clear) finishes waits for it and says so in one line", async () => {
    const repo = repoWithBudget();
    const t = transcriptFor(repo, BUSY);
    // The new session's hook starts first, as a client may start it while the old one's hook still runs.
    const start = runAsync(SESSIONSTART, repo, startPayload(repo, NEW, "clear"));
    const end = runAsync(SESSIONEND, repo, endPayload(repo, BUSY.sid, t, "clear"));
    const [s, e] = await Promise.all([start, end]);
    expect(e).toMatchObject({ code: 0, stdout: "" });
    expect(s.code).toBe(0);
    const answer = JSON.parse(s.stdout) as {
      systemMessage: string;
      hookSpecificOutput: { additionalContext: string };
    };
    const [file] = checkpoints(repo);
    expect(answer.systemMessage).toBe(
      `[quoin] cleared session saved as ${path.basename(file!)}; /checkpoint --restore brings it back`,
    );
    expect(answer.hookSpecificOutput.additionalContext).toContain(file);
    expect(readdirSync(path.join(repo.home, ".claude", "quoin-checkpoint", "state"))).toEqual([]);
  });

  it("startup in that repository names the snapshot in one line", () => {
    const repo = repoWithBudget();
    const t = transcriptFor(repo, BUSY);
    runNode(SESSIONEND, [], {
      cwd: repo.root,
      env: repo.env,
      input: endPayload(repo, BUSY.sid, t, "other"),
    });
    const s = runNode(SESSIONSTART, [], {
      cwd: repo.root,
      env: repo.env,
      input: startPayload(repo, NEW, "startup"),
    });
    const answer = JSON.parse(s.stdout) as { systemMessage: string };
    expect(answer.systemMessage).toMatch(
      /^\[quoin\] last session, task [a-z0-9-]+, ended 0m ago: \/checkpoint --restore to continue$/,
    );
  });

  it("a SIGTERM once it has started (Claude Code's at 1.5 s) lets it finish: a whole checkpoint, no temp file, exit 0", async () => {
    const repo = repoWithBudget();
    const t = transcriptFor(repo, BUSY);
    // 12 MB of real history: the digest read is still going when the signal lands.
    writeFileSync(t, readFileSync(t, "utf8").repeat(4));
    const child = spawn(process.execPath, [SESSIONEND], {
      cwd: repo.root,
      env: repo.env,
      stdio: ["pipe", "ignore", "ignore"],
    });
    const closed = new Promise((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
    child.stdin.end(endPayload(repo, BUSY.sid, t, "clear"));
    // The clear marker says "writing" from the first step of the work: signal then.
    const marker = path.join(
      repo.home,
      ".claude",
      "quoin-checkpoint",
      "state",
      `ended-${BUSY.sid}.json`,
    );
    while (!existsSync(marker)) await new Promise((r) => setTimeout(r, 2));
    child.kill("SIGTERM");
    expect(await closed).toEqual({ code: 0, signal: null });
    const dir = path.join(repo.root, ".workflow_artifacts", "memory", "checkpoints");
    const names = readdirSync(dir);
    expect(names.filter((n) => n.endsWith(".md"))).toHaveLength(1);
    expect(names.filter((n) => !n.endsWith(".md"))).toEqual([]);
    expect(
      parseCheckpoint(readFileSync(path.join(dir, names[0]!), "utf8")).sections.at(-1)?.title,
    ).toBe("Restore hint");
  });

  it("past its own deadline (QUOIN_SESSIONEND_DEADLINE_MS, counted from its process start) it writes nothing", () => {
    const repo = repoWithBudget("1");
    const t = transcriptFor(repo, BUSY);
    expect(
      runNode(SESSIONEND, [], {
        cwd: repo.root,
        env: repo.env,
        input: endPayload(repo, BUSY.sid, t, "other"),
      }),
    ).toMatchObject({ code: 0, stdout: "" });
    expect(checkpoints(repo)).toEqual([]);
  });
});
