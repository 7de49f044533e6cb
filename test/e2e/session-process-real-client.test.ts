import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { installFromDist, tempProject } from "./skill-driver.ts";
import { runClaude, startLoopbackModel, type ScriptedReply } from "./loopback-model.ts";

// Which pid is the session's Claude Code process, the one the registry of running sessions must
// name? The hook runs under a shell the client starts; the real client shows the answer. Needs
// dist/ (npm test builds first).

describe("e2e: SessionStart records the session's Claude Code process", { timeout: 90_000 }, () => {
  it("the registry names the client process the test spawned, alive while the session runs, outside the repository", async () => {
    const env = tempProject("quoin-e2e-proc-");
    installFromDist(env, "user");
    const state = path.join(env.home, ".claude", "quoin-checkpoint", "state");
    const seen: Array<{ pid: number; comm: string; cwd: string }> = [];
    const model = await startLoopbackModel((): ScriptedReply => {
      // asked while the session runs: SessionStart has fired by the first model request
      if (seen.length === 0 && existsSync(state)) {
        for (const name of readdirSync(state).filter((n) => n.startsWith("process-"))) {
          const rec = JSON.parse(readFileSync(path.join(state, name), "utf8")) as {
            pid: number;
            cwd: string;
          };
          const ps = spawnSync("ps", ["-o", "comm=", "-p", String(rec.pid)], { encoding: "utf8" });
          seen.push({ pid: rec.pid, comm: ps.stdout.trim(), cwd: rec.cwd });
        }
      }
      return { kind: "text", text: "ok" };
    });
    let run: Awaited<ReturnType<typeof runClaude>>;
    try {
      run = await runClaude({
        home: env.home,
        cwd: env.project,
        baseUrl: model.url,
        args: ["hello"],
      });
    } finally {
      await model.close();
    }
    expect(run.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      pid: run.pid,
      comm: expect.stringMatching(/claude/i),
      cwd: env.project,
    });
    expect(existsSync(path.join(env.project, ".workflow_artifacts", "memory", "state"))).toBe(
      false,
    );
  });
});
