import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  CLAUDE_BIN,
  requestText,
  runClaude,
  startLoopbackModel,
  type Responder,
} from "./loopback-model.ts";
import { installFromDist, tempProject } from "./skill-driver.ts";

// A session killed without SessionEnd (SIGKILL, as a closed terminal or an OOM kill would) leaves
// its transcript and no checkpoint. The next session's SessionStart recovers it: the first request
// the new client sends carries the note naming the recovered checkpoint.

/** Wait (blocking, at most `ms`) until a transcript under `home` holds `needle`. */
function waitForTranscript(home: string, needle: string, ms: number): void {
  const projects = path.join(home, ".claude", "projects");
  const until = Date.now() + ms;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  while (Date.now() < until) {
    const files = existsSync(projects)
      ? readdirSync(projects, { recursive: true, encoding: "utf8" }).filter((f) =>
          f.endsWith(".jsonl"),
        )
      : [];
    if (files.some((f) => readFileSync(path.join(projects, f), "utf8").includes(needle))) return;
    Atomics.wait(sleeper, 0, 0, 50);
  }
}

describe("e2e: a killed session is recovered at the next startup", { timeout: 180_000 }, () => {
  it("SIGKILL mid-session, then a new session: its first request names the recovered checkpoint", async () => {
    const env = tempProject("quoin-e2e-killed-");
    installFromDist(env, "user");
    const notes = path.join(env.project, "notes.md");
    // A killed client leaves its temp files: they go to a folder of this test's own.
    const tmp = path.join(env.home, "tmp");
    mkdirSync(tmp);
    let killed = false;
    let child: ReturnType<typeof spawn> | null = null;
    // The killed session: writes notes.md, and is killed while its next request is in flight.
    const worker: Responder = (body) => {
      const sent = JSON.stringify(body.messages ?? []);
      if (!sent.includes('"tool_result"'))
        return {
          kind: "tool_use",
          name: "Write",
          input: { file_path: notes, content: "parser notes\n" },
        };
      if (!killed && child) {
        killed = true;
        // The client writes its transcript lines asynchronously: kill it once the Write's result
        // is on disk, as it would be minutes into a real session (else, on a loaded machine, the
        // killed session holds no work and rightly nothing is recovered).
        waitForTranscript(env.home, '"tool_result"', 10_000);
        child.kill("SIGKILL");
      }
      return { kind: "text", text: "ok" };
    };
    const first = await startLoopbackModel(worker);
    try {
      const envVars: Record<string, string> = {};
      for (const key of ["PATH", "LANG", "TERM", "TZ", "SHELL", "USER", "LOGNAME", "TMPDIR"])
        if (process.env[key] !== undefined) envVars[key] = process.env[key]!;
      Object.assign(envVars, {
        HOME: env.home,
        ANTHROPIC_BASE_URL: first.url,
        ANTHROPIC_API_KEY: "x",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        TMPDIR: tmp,
      });
      const c = spawn(CLAUDE_BIN, ["-p", "write the notes file", "--allowedTools=Write"], {
        cwd: env.project,
        env: envVars,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = c;
      const timer = setTimeout(() => c.kill("SIGKILL"), 90_000);
      const signal = await new Promise<string | null>((resolve) =>
        c.on("close", (_code, sig) => resolve(sig)),
      );
      clearTimeout(timer);
      expect(killed).toBe(true);
      expect(signal).toBe("SIGKILL");
    } finally {
      await first.close();
    }
    expect(existsSync(notes)).toBe(true);
    const memory = path.join(env.project, ".workflow_artifacts", "memory");
    const ckpts = () =>
      existsSync(path.join(memory, "checkpoints"))
        ? readdirSync(path.join(memory, "checkpoints")).filter((n) => n.endsWith(".md"))
        : [];
    expect(ckpts()).toEqual([]); // no SessionEnd ran

    const second = await startLoopbackModel(() => ({ kind: "text", text: "ok" }));
    let firstRequest = "";
    try {
      const run = await runClaude({
        home: env.home,
        cwd: env.project,
        baseUrl: second.url,
        args: ["hello"],
        env: { TMPDIR: tmp },
      });
      expect(run.code, run.stderr).toBe(0);
      firstRequest = requestText(second.messageBodies()[0]);
    } finally {
      await second.close();
    }
    const [recovered, ...rest] = ckpts();
    expect(rest).toEqual([]);
    const text = readFileSync(path.join(memory, "checkpoints", recovered!), "utf8");
    expect(text).toContain("checkpoint save (session end, recovered)");
    expect(text).toContain("(recovered: the session ended without SessionEnd)");
    expect(text).toContain("notes.md");
    expect(firstRequest).toContain(recovered);
  });
});
