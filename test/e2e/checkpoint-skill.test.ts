import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireThenAnswer, engineFrom, installFromDist, tempProject } from "./skill-driver.ts";
import {
  CLAUDE_BIN,
  lastUserText,
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type MessagesBody,
  type ScriptedReply,
} from "./loopback-model.ts";

// The real client (node_modules/.bin/claude) loads the installed /checkpoint skill offline: the
// `!` injection runs, the frontmatter's allowed-tools let the model's engine commands through, and
// the installed hooks fire. Needs dist/ (npm test builds first).

const ROOT = path.resolve(import.meta.dirname, "..", "..");

// A project that already uses quoin (its memory folder exists), so the prompt hook records each
// prompt there: that line is how these tests see the hook fire. A plain prompt in a fresh
// repository writes nothing (test/integration/footprint.test.ts).
const setupProject = () => {
  const env = tempProject("quoin-e2e-");
  mkdirSync(path.join(env.project, ".workflow_artifacts", "memory"), { recursive: true });
  return env;
};

describe("e2e: /checkpoint installed with the settings installer", { timeout: 90_000 }, () => {
  let model: LoopbackModel;
  const env = setupProject();
  const bodies: MessagesBody[] = [];

  beforeAll(async () => {
    installFromDist(env, "user");
    // The scripted model: acquire the pidfile, release it, answer. Any other request gets text.
    model = await startLoopbackModel((body): ScriptedReply => {
      bodies.push(body);
      const all = requestText(body);
      if (!all.includes("## 0c. Pidfile lifecycle")) return { kind: "text", text: "ok" };
      const { engine, session } = engineFrom(all);
      const last = lastUserText(body);
      if (last.includes("This command requires approval"))
        return { kind: "text", text: "[checkpoint] scripted run finished" };
      // negative control: `status` is not among this skill's allowed-tools, so the client must refuse it
      if (last.includes("checkpoint released"))
        return {
          kind: "tool_use",
          name: "Bash",
          input: { command: `${engine} status --json --session ${session}` },
        };
      if (last.includes(") active: ")) {
        return {
          kind: "tool_use",
          name: "Bash",
          input: {
            command: `${engine} pidfile release checkpoint --session ${session}`,
            description: "release",
          },
        };
      }
      return {
        kind: "tool_use",
        name: "Bash",
        input: {
          command: `${engine} pidfile acquire checkpoint --session ${session}`,
          description: "mark checkpoint active",
        },
      };
    });
  });
  afterAll(async () => model?.close());

  it("loads the skill, injects the 1M check, lets the engine commands through, and the hooks fire", async () => {
    const run = await runClaude({
      home: env.home,
      cwd: env.project,
      baseUrl: model.url,
      args: ["/checkpoint --defer"],
    });
    expect(run.stdout + run.stderr).toContain("scripted run finished");
    expect(run.code).toBe(0);

    const skillRequest = bodies.find((b) => requestText(b).includes("## 0c. Pidfile lifecycle"));
    expect(skillRequest).toBeDefined();
    const text = requestText(skillRequest);
    // the rendered skill reached the model, with Claude Code's substitutions done ...
    expect(text).toContain("# /checkpoint");
    expect(text).toContain("Arguments: `--defer`");
    expect(text).not.toContain("${CLAUDE_SESSION_ID}");
    // ... and the `!` injection replaced by the engine's answer
    expect(text).toMatch(/line 2 config\|cache\|probe\):\n\ndispatch\nprobe\n/);
    expect(text).not.toContain("!`node");
    // model: sonnet in the frontmatter
    expect(skillRequest?.model).toMatch(/sonnet/);

    // the two engine commands ran (allowed-tools pre-approved them) and answered the model
    const results = bodies.map((b) => lastUserText(b)).join("\n");
    expect(results).toMatch(/\[checkpoint\] checkpoint \(pid \d+\) active: /);
    expect(results).toContain("[checkpoint] checkpoint released");
    expect(results).toContain("This command requires approval");
    expect(results).not.toContain('"tokens"');
    const { session } = engineFrom(text);
    const trash = path.join(env.project, ".workflow_artifacts", "memory", "trash");
    const trashed = readdirSync(trash).flatMap((d) => readdirSync(path.join(trash, d)));
    expect(trashed).toContain(`checkpoint-${session}.pidfile.lock`);

    // the UserPromptSubmit hook fired in the project
    const recent = readFileSync(
      path.join(env.project, ".workflow_artifacts", "memory", "recent-sessions.md"),
      "utf8",
    );
    expect(recent).toContain(session);
    expect(run.ms).toBeLessThan(60_000);
  });

  it("the pidfile names the live Claude Code process (comm claude), not the short-lived shell", async () => {
    bodies.length = 0;
    let recordedPid = 0;
    let alive = false;
    const probe = await startLoopbackModel((body): ScriptedReply => {
      const all = requestText(body);
      if (!all.includes("## 0c. Pidfile lifecycle")) return { kind: "text", text: "ok" };
      const { engine, session } = engineFrom(all);
      const last = lastUserText(body);
      const pid = /cleanup \(pid (\d+)\) active/.exec(last)?.[1];
      if (!pid)
        return {
          kind: "tool_use",
          name: "Bash",
          input: { command: `${engine} pidfile acquire cleanup --session ${session}` },
        };
      if (!recordedPid) {
        recordedPid = Number(pid);
        // asked while the session still runs: the shell that ran the engine is gone by now
        const ps = spawnSync("ps", ["-o", "comm=", "-p", String(recordedPid)], {
          encoding: "utf8",
        });
        alive = ps.status === 0 && /claude/i.test(ps.stdout);
      }
      return { kind: "text", text: "done" };
    });
    try {
      const run = await runClaude({
        home: env.home,
        cwd: env.project,
        baseUrl: probe.url,
        args: ["/cleanup --dry-run"],
      });
      expect(run.code).toBe(0);
    } finally {
      await probe.close();
    }
    expect(recordedPid).toBeGreaterThan(1);
    expect(alive).toBe(true);
  });
});

describe("e2e: the plugin folder", { timeout: 90_000 }, () => {
  it("loads with --plugin-dir: the namespaced skill's injection and allowed-tools work from ${CLAUDE_PLUGIN_ROOT}, its hook fires", async () => {
    const env = setupProject();
    const seen: MessagesBody[] = [];
    const model = await startLoopbackModel((body): ScriptedReply => {
      seen.push(body);
      const all = requestText(body);
      if (!all.includes("## 0c. Pidfile lifecycle")) return { kind: "text", text: "ok" };
      const { engine, session } = engineFrom(all);
      // the plugin's allowed-tools (with ${CLAUDE_PLUGIN_ROOT}) must let the model's command through
      if (lastUserText(body).includes("cleanup (pid ")) return { kind: "text", text: "plugin ok" };
      if (lastUserText(body).includes("requires approval"))
        return { kind: "text", text: "plugin command refused" };
      return {
        kind: "tool_use",
        name: "Bash",
        input: { command: `${engine} pidfile acquire cleanup --session ${session}` },
      };
    });
    try {
      const run = await runClaude({
        home: env.home,
        cwd: env.project,
        baseUrl: model.url,
        args: ["/quoin-checkpoint:cleanup --dry-run", "--plugin-dir", path.join(ROOT, "plugin")],
      });
      expect(run.stdout + run.stderr).toContain("plugin ok");
      expect(engineFrom(seen.map((b) => requestText(b)).join("\n")).engine).toBe(
        `node "${path.join(ROOT, "plugin")}/quoin-checkpoint.cjs"`,
      );
      const text = seen.map((b) => requestText(b)).join("\n");
      expect(text).toContain("# /quoin-checkpoint:cleanup");
      expect(text).toMatch(/line 2 config\|cache\|probe\):\n\ndispatch\nprobe\n/);
      expect(
        existsSync(path.join(env.project, ".workflow_artifacts", "memory", "recent-sessions.md")),
      ).toBe(true);
    } finally {
      await model.close();
    }
  });
});

describe("e2e: a project-scope install", { timeout: 90_000 }, () => {
  it("loads the skill from <repo>/.claude/skills and runs the ${CLAUDE_PROJECT_DIR} hook command", async () => {
    const env = setupProject();
    installFromDist(env, "project");
    expect(existsSync(path.join(env.home, ".claude", "settings.json"))).toBe(false);
    let engine = "";
    const model = await startLoopbackModel(acquireThenAnswer("project ok", (e) => (engine = e)));
    try {
      const run = await runClaude({
        home: env.home,
        cwd: env.project,
        baseUrl: model.url,
        args: ["/checkpoint"],
      });
      expect(run.stdout).toContain("project ok");
    } finally {
      await model.close();
    }
    expect(engine).toContain(path.join(env.project, ".claude", "skills", "checkpoint"));
    expect(
      existsSync(path.join(env.project, ".workflow_artifacts", "memory", "recent-sessions.md")),
    ).toBe(true);
  });
});

describe("e2e: installed from the marketplace", { timeout: 120_000 }, () => {
  it("claude plugin marketplace add + install: .claude-plugin/marketplace.json leads to plugin/, whose skill and hook run", async () => {
    const env = setupProject();
    const cli = (args: string[]) =>
      spawnSync(CLAUDE_BIN, args, {
        cwd: env.project,
        encoding: "utf8",
        timeout: 60_000,
        env: {
          PATH: process.env["PATH"] ?? "",
          HOME: env.home,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
      });
    const added = cli(["plugin", "marketplace", "add", ROOT]);
    expect(added.stdout + added.stderr).toContain("Successfully added marketplace");
    const installed = cli([
      "plugin",
      "install",
      "quoin-checkpoint@quoin-checkpoint",
      "--scope",
      "user",
    ]);
    expect(installed.stdout + installed.stderr).toContain("Successfully installed plugin");
    let engine = "";
    const model = await startLoopbackModel(
      acquireThenAnswer("marketplace ok", (e) => (engine = e)),
    );
    try {
      const run = await runClaude({
        home: env.home,
        cwd: env.project,
        baseUrl: model.url,
        args: ["/quoin-checkpoint:checkpoint --defer"],
      });
      expect(run.stdout).toContain("marketplace ok");
    } finally {
      await model.close();
    }
    // NOTE: a local-directory marketplace runs the plugin in place; a git marketplace would run a cached clone.
    expect([`node "${path.join(ROOT, "plugin")}/quoin-checkpoint.cjs"`]).toContain(
      engine.replace(
        /"[^"]*\/plugins\/cache\/[^"]*\/quoin-checkpoint\.cjs"/,
        `"${path.join(ROOT, "plugin")}/quoin-checkpoint.cjs"`,
      ),
    );
    expect(
      existsSync(path.join(env.project, ".workflow_artifacts", "memory", "recent-sessions.md")),
    ).toBe(true);
  });
});
