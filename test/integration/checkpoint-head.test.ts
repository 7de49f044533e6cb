import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { FIXTURES } from "../helpers/run-bundle.ts";
import {
  ENGINE,
  ensureBuilt,
  PRECOMPACT,
  runNode,
  SESSIONEND,
  tempRepo,
  type TempRepo,
} from "../helpers/save-repo.ts";

// Every checkpoint records the commit HEAD pointed at (`## Head`), whichever writer wrote it, and
// SessionEnd's "unchanged" rule compares it with HEAD now instead of asking git log for commits
// since the saved second.

beforeAll(ensureBuilt);

const BUSY = {
  file: "spotter-4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
  sid: "4d5611e5-241a-462a-8d15-5122611a9569",
};

function transcriptFor(repo: TempRepo): string {
  const dir = path.join(repo.home, ".claude", "projects", repo.root.replace(/[^A-Za-z0-9-]/g, "-"));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${BUSY.sid}.jsonl`);
  copyFileSync(path.join(FIXTURES, BUSY.file), file);
  return file;
}

const checkpoints = (repo: TempRepo) => {
  const dir = path.join(repo.root, ".workflow_artifacts", "memory", "checkpoints");
  return existsSync(dir) ? readdirSync(dir).map((n) => path.join(dir, n)) : [];
};

const headOf = (file: string) => parseCheckpoint(readFileSync(file, "utf8")).head;

function hook(repo: TempRepo, bundle: string, fields: Record<string, unknown>) {
  const r = runNode(bundle, [], {
    cwd: repo.root,
    env: { ...repo.env, QUOIN_SESSIONEND_DEADLINE_MS: "30000" },
    input: JSON.stringify({ session_id: BUSY.sid, cwd: repo.root, ...fields }),
  });
  expect(r.code, r.stderr).toBe(0);
}

describe("## Head", () => {
  it("every writer records HEAD: /checkpoint's save, the forced save, PreCompact, SessionEnd", () => {
    const repo = tempRepo();
    const t = transcriptFor(repo);
    const engine = (args: string[], input = "") => {
      const r = runNode(ENGINE, [...args, "--json", "--session", BUSY.sid], {
        cwd: repo.root,
        env: repo.env,
        input,
      });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { checkpoint: string };
    };
    // PreCompact first: it writes nothing once this session has a pending restore
    hook(repo, PRECOMPACT, {
      hook_event_name: "PreCompact",
      transcript_path: t,
      trigger: "auto",
      custom_instructions: "",
    });
    const [precompact, ...none] = checkpoints(repo);
    expect(none).toEqual([]);
    repo.git("commit", "-q", "--allow-empty", "-m", "second");
    const save = engine(
      ["save", "--mode", "restore", "--stdin-json", "--transcript", t],
      '{"task":"head-check","intent":"record the head"}',
    ).checkpoint;
    repo.git("commit", "-q", "--allow-empty", "-m", "third");
    // a second apart: the forced save is this session's newest checkpoint by `## Saved at`
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100);
    const snapshot = engine(["snapshot", "--kind", "forced", "--transcript", t]).checkpoint;
    expect(headOf(precompact!)).toBe(repo.git("rev-parse", "HEAD~2"));
    expect(headOf(save)).toBe(repo.git("rev-parse", "HEAD~1"));
    expect(headOf(snapshot)).toBe(repo.git("rev-parse", "HEAD"));

    // SessionEnd: its newest checkpoint (the forced save) names HEAD: unchanged, nothing written
    hook(repo, SESSIONEND, { hook_event_name: "SessionEnd", transcript_path: t, reason: "other" });
    expect(checkpoints(repo)).toHaveLength(3);
    repo.git("commit", "-q", "--allow-empty", "-m", "fourth");
    hook(repo, SESSIONEND, { hook_event_name: "SessionEnd", transcript_path: t, reason: "other" });
    const all = checkpoints(repo);
    expect(all).toHaveLength(4);
    expect(all.map(headOf)).toContain(repo.git("rev-parse", "HEAD"));
  });

  it("SessionEnd: a commit dated at or after the previous snapshot's second, but seen by it, is not new: no second identical snapshot", () => {
    const repo = tempRepo();
    const t = transcriptFor(repo);
    // git log --since=<Saved at> lists this commit on every later run: the time rule counted it
    // as made after the snapshot, although the snapshot already recorded it as its HEAD.
    const later = new Date(Date.now() + 3600_000).toISOString();
    const committed = spawnSync("git", ["commit", "-q", "--allow-empty", "-m", "same second"], {
      cwd: repo.root,
      env: { ...repo.env, GIT_AUTHOR_DATE: later, GIT_COMMITTER_DATE: later },
      encoding: "utf8",
    });
    expect(committed.status, committed.stderr).toBe(0);
    const end = () =>
      hook(repo, SESSIONEND, {
        hook_event_name: "SessionEnd",
        transcript_path: t,
        reason: "prompt_input_exit",
      });
    end();
    expect(checkpoints(repo)).toHaveLength(1);
    expect(headOf(checkpoints(repo)[0]!)).toBe(repo.git("rev-parse", "HEAD"));
    end();
    expect(checkpoints(repo)).toHaveLength(1);
  });
});
