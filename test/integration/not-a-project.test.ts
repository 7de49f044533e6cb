import { existsSync, mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOK_SPECS } from "../../lib/install/install-layout.ts";
import { ENGINE, ensureBuilt, REPO_ROOT, runNode } from "../helpers/save-repo.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

// $HOME and / are never a project; no hook and no engine
// command writes there. Every hook bundle (HOOK_SPECS: a new hook is covered when it is listed)
// and every engine command that writes is run with cwd = $HOME and cwd = /, at the block tier so
// the prompt hook would save if it could.

beforeAll(ensureBuilt);

const SID = "d0d0d0d0-0000-4000-8000-00000000000d";
const TRANSCRIPT = path.join(REPO_ROOT, "test", "fixtures", "transcripts", "spotter-short.jsonl");
const ROOT_ARTIFACTS = "/.workflow_artifacts";
// This runs as whatever user the suite runs as (root in CI containers): / may be writable, so a
// failure here must not leave a folder in the real /. Only one created by this file is removed.
const rootHadArtifacts = existsSync(ROOT_ARTIFACTS);
afterAll(() => {
  if (!rootHadArtifacts) rmSync(ROOT_ARTIFACTS, { recursive: true, force: true });
});

function payload(cwd: string, event: string): string {
  // One object with every event's own fields (docs/claude-code-versions.md, "Hook payloads"); each hook reads its own.
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

// Each with the exit code of its refusal: pidfile keeps the seed's fail-open (quoin-S-2, exit 0).
const ENGINE_RUNS: [string[], number][] = [
  [["save", "--mode", "restore", "--session", SID], 2],
  [["restore", "--session", SID], 2],
  [["cleanup"], 2],
  [["defer", "--session", SID], 2],
  [["pidfile", "acquire", "implement", "--session", SID], 0],
];

describe.each([
  ["$HOME", (home: string) => home],
  ["/", () => "/"],
])("cwd = %s is never a project", (_label, cwdOf) => {
  it("no hook and no engine command creates .workflow_artifacts there", () => {
    expect(
      rootHadArtifacts,
      "a /.workflow_artifacts existed before this test; it cannot tell",
    ).toBe(false);
    const home = path.join(tempDir("quoin-noproj-"), "home");
    mkdirSync(home, { recursive: true });
    const cwd = cwdOf(home);
    // A limit of 1,000 tokens puts any transcript at the block tier: the prompt hook would save.
    const env = {
      PATH: process.env["PATH"],
      HOME: home,
      TZ: "UTC",
      QUOIN_EFFECTIVE_CONTEXT_LIMIT: "1000",
    };
    for (const spec of HOOK_SPECS) {
      const r = runNode(path.join(REPO_ROOT, "dist", "hooks", `${spec.bundle}.cjs`), [], {
        cwd,
        env,
        input: payload(cwd, spec.event),
      });
      expect(r.code, `${spec.bundle}: ${r.stderr}`).toBe(0);
      expect(
        existsSync(path.join(cwd, ".workflow_artifacts")),
        `${spec.bundle} wrote into ${cwd}`,
      ).toBe(false);
    }
    for (const [args, code] of ENGINE_RUNS) {
      const r = runNode(ENGINE, args, { cwd, env });
      expect(
        existsSync(path.join(cwd, ".workflow_artifacts")),
        `engine ${args.join(" ")} wrote into ${cwd}`,
      ).toBe(false);
      expect(r.stdout + r.stderr, `engine ${args[0]}`).toMatch(/is not a project/);
      expect(r.code, `engine ${args[0]}`).toBe(code);
    }
  });
});
