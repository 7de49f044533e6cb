import { describe, expect, it } from "vitest";
import type { RunOptions } from "../../../lib/core/deps.ts";
import { DeadlineRunner, runGit, runTask } from "../../../lib/core/git-run.ts";
import { headTask } from "../../../lib/core/git-tasks.ts";
import { fakeDeps } from "../../helpers/memfs-deps.ts";

function recording(status: number | null = 0) {
  const deps = fakeDeps({ now: "2026-12-03T07:00:00Z", env: {} });
  const seen: { args: readonly string[]; opts: RunOptions | undefined }[] = [];
  deps.run = (_cmd, args, opts) => {
    seen.push({ args, opts });
    return { status, stdout: `${"a".repeat(40)}\n`, stderr: "" };
  };
  return { deps, seen };
}

describe("runGit", () => {
  it("adds nothing to a local call, the no-prompt environment to a network call, quoin's identity to a commit", () => {
    const { deps, seen } = recording();
    runGit(deps, "/r", ["status"]);
    runGit(deps, "/r", ["fetch", "origin"], { network: true });
    runGit(deps, "/r", ["commit-tree", "t"], { identityAt: deps.now(), input: "msg\n" });
    expect(seen[0]).toEqual({ args: ["-C", "/r", "status"], opts: { timeoutMs: 5000 } });
    expect(seen[1]!.opts).toEqual({
      timeoutMs: 30_000,
      env: {
        GIT_TERMINAL_PROMPT: "0",
        GIT_ASKPASS: "",
        SSH_ASKPASS: "",
        GCM_INTERACTIVE: "never",
        GIT_SSH_COMMAND: "ssh -o BatchMode=yes",
      },
    });
    expect(seen[2]!.opts).toMatchObject({
      input: "msg\n",
      env: { GIT_COMMITTER_NAME: "quoin-checkpoint", GIT_COMMITTER_DATE: "1796281200 +0000" },
    });
  });

  it("runs a task: its parsed output on exit 0, null otherwise", () => {
    expect(runTask({ run: (a) => runGit(recording().deps, "/r", a) }, headTask)).toBe(
      "a".repeat(40),
    );
    expect(runTask({ run: (a) => runGit(recording(128).deps, "/r", a) }, headTask)).toBeNull();
  });
});

describe("DeadlineRunner", () => {
  it("cuts each call to what is left, and starts none once a call was killed", () => {
    const { deps, seen } = recording(null);
    const at = deps.now().getTime();
    const g = new DeadlineRunner(deps, "/r", {
      callMs: 2000,
      deadlineAt: at + 500.6,
      reserveMs: 100,
    });
    expect(g.run(["log"]).status).toBeNull();
    expect(g.skipped).toBe(true);
    expect(g.run(["status"]).status).toBeNull();
    expect(seen.map((s) => s.opts?.timeoutMs)).toEqual([400]);
  });
});
