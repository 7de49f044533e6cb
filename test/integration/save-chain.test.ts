import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import {
  ENGINE,
  ensureBuilt,
  PRECOMPACT,
  runNode,
  SESSIONSTART,
  tempRepo,
  type TempRepo,
} from "../helpers/save-repo.ts";

beforeAll(ensureBuilt);

const SID = "c0c0c0c0-0000-4000-8000-000000000003";

function transcriptFor(repo: TempRepo, tokens: number): string {
  const dir = path.join(repo.home, ".claude", "projects", repo.root.replace(/[^A-Za-z0-9-]/g, "-"));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${SID}.jsonl`);
  const line = {
    type: "assistant",
    isSidechain: false,
    timestamp: new Date().toISOString(),
    message: {
      model: "claude-sonnet-4-5",
      usage: { input_tokens: tokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  };
  writeFileSync(file, `${JSON.stringify(line)}\n`);
  return file;
}

describe("save through the whole chain (built bundles)", () => {
  it("after PreCompact and SessionStart(compact), a save without --mode is skipped as compact-already-ran", () => {
    const repo = tempRepo();
    mkdirSync(path.join(repo.root, ".workflow_artifacts"), { recursive: true });
    const hookInput = (event: string, extra: object) =>
      JSON.stringify({ session_id: SID, cwd: repo.root, hook_event_name: event, ...extra });
    runNode(PRECOMPACT, [], {
      cwd: repo.root,
      env: repo.env,
      input: hookInput("PreCompact", { trigger: "auto", custom_instructions: "" }),
    });
    runNode(SESSIONSTART, [], {
      cwd: repo.root,
      env: repo.env,
      input: hookInput("SessionStart", { source: "compact" }),
    });
    const precompact = readFileSync(
      path.join(repo.root, ".workflow_artifacts", "memory", `pending-restore-${SID}.txt`),
      "utf8",
    ).trim();
    const before = repo.files();
    const r = runNode(ENGINE, ["save", "--json", "--session", SID], {
      cwd: repo.root,
      env: repo.env,
    });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, mode: "compact-already-ran", checkpoint: precompact });
    // nothing new: no checkpoint, and no ledger row without a task folder quoin's workflow made
    expect(repo.files().filter((f) => !before.includes(f))).toEqual([]);
  });

  it("at the panic tier, writes only a skeleton checkpoint and the sentinel (the memory folder's .gitignore with it)", () => {
    const repo = tempRepo();
    transcriptFor(repo, 180_000);
    const env = { ...repo.env, QUOIN_CONTEXT_WINDOW: "200000" };
    const r = runNode(ENGINE, ["save", "--json", "--session", SID], { cwd: repo.root, env });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      ok: true,
      mode: "panic",
      highUtil: true,
      utilization: { tokens: 180000, limit: 167000, bps: 10778 },
    });
    expect(repo.files().map((f) => f.replace(/\d{4}-\d{2}-\d{2}T\d{4}/, "DATE"))).toEqual([
      ".workflow_artifacts/memory/.gitignore",
      ".workflow_artifacts/memory/checkpoints/DATE-unknown.md",
      `.workflow_artifacts/memory/pending-restore-${SID}.txt`,
    ]);
    expect(parseCheckpoint(readFileSync(out.checkpoint, "utf8")).status).toBe(
      "checkpoint save (panic mode)",
    );
  });

  it("past QUOIN_COMPACT_FIRST_BPS: a full save with the high-use notice, cleanup skipped", () => {
    const repo = tempRepo();
    transcriptFor(repo, 155_000);
    const env = { ...repo.env, QUOIN_CONTEXT_WINDOW: "200000" };
    const r = runNode(ENGINE, ["save", "--session", SID], { cwd: repo.root, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("[checkpoint] cleanup skipped (high-util)");
    expect(r.stdout).toContain(
      "The context 155k of 167k (92.8%) is at or past 90.0% = 150k of 167k",
    );
    expect(r.stdout).toContain("2. Run /compact in this session");
  });
});
