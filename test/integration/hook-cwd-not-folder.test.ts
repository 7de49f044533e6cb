import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HOOK_SPECS } from "../../lib/install/install-layout.ts";
import { ensureBuilt, REPO_ROOT, runNode, tempRepo } from "../helpers/save-repo.ts";

// A payload whose cwd names a file (or nothing) is refused by every hook: exit 0, no answer,
// nothing written, one log line where a hook logs without a project (the process's cwd, only when
// that project already uses quoin). Before, PreCompact wrote a checkpoint of session `unknown`
// into the repository around the file.

beforeAll(ensureBuilt);

const SID = "e1e1e1e1-0000-4000-8000-00000000000e";
const TRANSCRIPT = path.join(REPO_ROOT, "test", "fixtures", "transcripts", "spotter-short.jsonl");

function payload(cwd: string, event: string): string {
  return JSON.stringify({
    session_id: SID,
    transcript_path: TRANSCRIPT,
    cwd,
    hook_event_name: event,
    prompt: "go on with the refactor",
    source: "compact",
    trigger: "auto",
    custom_instructions: "",
    reason: "other",
  });
}

function runEveryHook(root: string, env: NodeJS.ProcessEnv, cwd: string) {
  return HOOK_SPECS.map((spec) => ({
    spec,
    r: runNode(path.join(REPO_ROOT, "dist", "hooks", `${spec.bundle}.cjs`), [], {
      cwd: root,
      // A limit of 1,000 tokens puts the transcript at the block tier: the prompt hook would save.
      env: { ...env, QUOIN_EFFECTIVE_CONTEXT_LIMIT: "1000" },
      input: payload(cwd, spec.event),
    }),
  }));
}

describe.each([
  ["names a file", (root: string) => path.join(root, "README.md")],
  ["names nothing", (root: string) => path.join(root, "gone", "away")],
])("a payload cwd that %s", (_label, cwdOf) => {
  it("is refused by every hook in a repository without quoin: exit 0, no answer, nothing written", () => {
    const repo = tempRepo();
    writeFileSync(path.join(repo.root, "README.md"), "# readme\n");
    const before = repo.files();
    for (const { spec, r } of runEveryHook(repo.root, repo.env, cwdOf(repo.root))) {
      expect(r.code, `${spec.bundle}: ${r.stderr}`).toBe(0);
      expect(r.stdout, spec.bundle).toBe("");
    }
    expect(repo.files()).toEqual(before);
  });

  it("is refused in a project that uses quoin, with one log line per hook and nothing else", () => {
    const repo = tempRepo();
    writeFileSync(path.join(repo.root, "README.md"), "# readme\n");
    mkdirSync(path.join(repo.root, ".workflow_artifacts", "memory"), { recursive: true });
    const before = repo.files();
    const runs = runEveryHook(repo.root, repo.env, cwdOf(repo.root));
    for (const { spec, r } of runs) {
      expect(r.code, `${spec.bundle}: ${r.stderr}`).toBe(0);
      expect(r.stdout, spec.bundle).toBe("");
    }
    // The log is outside the repository: the repository gains nothing at all.
    expect(repo.files()).toEqual(before);
    const log = path.join(repo.home, ".claude/quoin-checkpoint/logs/hooks.log");
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(runs.length);
    for (const line of lines) expect(line).toContain("is not a folder; nothing written");
  });
});
