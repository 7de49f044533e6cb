import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import {
  ensureBuilt,
  PRECOMPACT,
  runNode,
  SESSIONSTART,
  tempRepo,
  type TempRepo,
} from "../helpers/save-repo.ts";

beforeAll(ensureBuilt);

const A = "a0a0a0a0-0000-4000-8000-000000000001";
const B = "b0b0b0b0-0000-4000-8000-000000000002";

// The fields every hook event carries, plus PreCompact's trigger and custom_instructions.
function preCompactPayload(repo: TempRepo, sid: string, trigger: "auto" | "manual"): string {
  return JSON.stringify({
    session_id: sid,
    transcript_path: path.join(
      repo.home,
      ".claude",
      "projects",
      repo.root.replace(/[^A-Za-z0-9-]/g, "-"),
      `${sid}.jsonl`,
    ),
    cwd: repo.root,
    hook_event_name: "PreCompact",
    trigger,
    custom_instructions: trigger === "manual" ? "keep the failing test names" : "",
  });
}

function sessionStartPayload(repo: TempRepo, sid: string, source: string): string {
  return JSON.stringify({
    session_id: sid,
    transcript_path: path.join(repo.home, ".claude", "projects", "x", `${sid}.jsonl`),
    cwd: repo.root,
    hook_event_name: "SessionStart",
    source,
    model: "claude-sonnet-4-5",
  });
}

const memory = (repo: TempRepo) => path.join(repo.root, ".workflow_artifacts", "memory");

function withTask(repo: TempRepo): void {
  mkdirSync(path.join(memory(repo), "sessions"), { recursive: true });
  writeFileSync(
    path.join(memory(repo), "sessions", "2026-11-29-search-index.md"),
    "## Cost\n- Phase: implement\n",
  );
}

describe("PreCompact hook (built bundle, real stdin)", () => {
  it("auto: writes the precompact checkpoint and pending-restore, prints the steering text naming it, exits 0", () => {
    const repo = tempRepo();
    withTask(repo);
    const r = runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: repo.env,
      input: preCompactPayload(repo, A, "auto"),
    });
    expect(r.code).toBe(0);
    const sentinel = path.join(memory(repo), `pending-restore-${A}.txt`);
    const checkpoint = readFileSync(sentinel, "utf8").trim();
    // Plain text, not JSON: Claude Code appends it to the summariser's instructions.
    expect(r.stdout).toContain(`Checkpoint saved before this compaction: \`${checkpoint}\``);
    expect(r.stdout.startsWith("[quoin-checkpoint] For the summary")).toBe(true);
    const off = runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: { ...repo.env, QUOIN_STEER_COMPACTION: "0" },
      input: preCompactPayload(repo, A, "auto"),
    });
    expect(off).toMatchObject({ code: 0, stdout: "" });
    expect(path.basename(checkpoint)).toMatch(/^\d{4}-\d{2}-\d{2}-search-index-precompact\.md$/);
    const parsed = parseCheckpoint(readFileSync(checkpoint, "utf8"));
    expect(parsed.status).toBe("checkpoint save (precompact, auto trigger)");
    expect(parsed.sessionId).toBe(A);
    expect(parsed.branch).toBe("main");
  });

  it("manual: saves too; a second compaction keeps the first sentinel and adds nothing but a log line", () => {
    const repo = tempRepo();
    withTask(repo);
    runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: repo.env,
      input: preCompactPayload(repo, A, "manual"),
    });
    const after = repo.files();
    expect(after.filter((f) => f.includes("precompact.md"))).toHaveLength(1);
    const r = runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: repo.env,
      input: preCompactPayload(repo, A, "auto"),
    });
    expect(r.code).toBe(0);
    expect(repo.files().filter((f) => !f.endsWith("hooks.log"))).toEqual(after);
  });

  it("fails open on a broken payload: exit 0, no stdout, one log line", () => {
    const repo = tempRepo();
    mkdirSync(path.join(repo.root, ".workflow_artifacts"), { recursive: true });
    const r = runNode(PRECOMPACT, [], { cwd: repo.root, env: repo.env, input: "{not json" });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(
      readFileSync(path.join(repo.home, ".claude/quoin-checkpoint/logs/hooks.log"), "utf8"),
    ).toContain("PreCompact stdin is not JSON");
  });

  it("a session id like ../../etc/x never produces a file outside .workflow_artifacts/", () => {
    const repo = tempRepo();
    const r = runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: repo.env,
      input: preCompactPayload(repo, "../../etc/x", "auto"),
    });
    expect(r.code).toBe(0);
    // The checkpoint, and the memory folder's own .gitignore (its `*` keeps git status clean).
    expect(
      repo
        .files()
        .every(
          (f) =>
            f.startsWith(".workflow_artifacts/memory/checkpoints/") ||
            f === ".workflow_artifacts/memory/.gitignore",
        ),
    ).toBe(true);
    expect(existsSync(path.join(repo.root, "..", "etc"))).toBe(false);
  });
});

describe("SessionStart hook (built bundle, real stdin)", () => {
  it("after compaction: markers for this session and a banner naming this session's checkpoint", () => {
    const repo = tempRepo();
    withTask(repo);
    runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: repo.env,
      input: preCompactPayload(repo, A, "auto"),
    });
    const checkpoint = readFileSync(
      path.join(memory(repo), `pending-restore-${A}.txt`),
      "utf8",
    ).trim();
    const r = runNode(SESSIONSTART, [], {
      cwd: repo.root,
      env: repo.env,
      input: sessionStartPayload(repo, A, "compact"),
    });
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.hookSpecificOutput.hookEventName).toBe("SessionStart");
    const text: string = answer.hookSpecificOutput.additionalContext;
    expect(text).toContain("The context was just compacted");
    expect(text).toContain(
      `A checkpoint for this session is waiting: ${checkpoint} (task 'search-index')`,
    );
    expect(text.length).toBeLessThan(2000);
    for (const family of ["compact-happened", "postcompact-reset"]) {
      expect(readFileSync(path.join(memory(repo), `${family}-${A}.txt`), "utf8")).toMatch(
        /^compacted_at=\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\nsession_id=a0a0a0a0-0000-4000-8000-000000000001\n$/,
      );
    }
  });

  it("a new session sees the other session's checkpoint, marked as another session's", () => {
    const repo = tempRepo();
    withTask(repo);
    runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: repo.env,
      input: preCompactPayload(repo, A, "auto"),
    });
    const r = runNode(SESSIONSTART, [], {
      cwd: repo.root,
      env: repo.env,
      input: sessionStartPayload(repo, B, "startup"),
    });
    const text: string = JSON.parse(r.stdout).hookSpecificOutput.additionalContext;
    expect(text).toContain(`Another session (${A}) left a checkpoint waiting`);
    expect(text).toContain("It belongs to that session, not this one.");
    expect(existsSync(path.join(memory(repo), `compact-happened-${B}.txt`))).toBe(false);
  });

  it("prints nothing in a project without sentinels", () => {
    const repo = tempRepo();
    const r = runNode(SESSIONSTART, [], {
      cwd: repo.root,
      env: repo.env,
      input: sessionStartPayload(repo, B, "startup"),
    });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(repo.files()).toEqual([]);
  });
});
