import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { lastUserText, requestText, runClaude, startLoopbackModel } from "./loopback-model.ts";
import { installFromDist, scriptedCommands, tempProject } from "./skill-driver.ts";

// The skill's save, defer and restore paths through the real client: one session saves with
// /checkpoint, a fresh session finds that checkpoint with /checkpoint --restore.

/** The pidfile acquire, then the given commands. */
const scripted = (steps: (engine: string, session: string) => string[]) =>
  scriptedCommands((engine, session) => [
    `${engine} pidfile acquire checkpoint --session ${session}`,
    ...steps(engine, session),
  ]);

/** One session of the real client with a scripted model; what a test needs of it, read before the model closes. */
async function session(
  env: { home: string; project: string },
  steps: (engine: string, session: string) => string[],
  prompt: string,
) {
  const model = await startLoopbackModel(scripted(steps));
  try {
    const run = await runClaude({
      home: env.home,
      cwd: env.project,
      baseUrl: model.url,
      args: [prompt],
    });
    return { run, bodies: model.messageBodies() };
  } finally {
    await model.close();
  }
}

describe("e2e: /checkpoint saves, and a fresh session's --restore resumes it", {
  timeout: 120_000,
}, () => {
  // Both sessions run here, in order; each \`it\` only reads what they left, so the \`it\`s hold in
  // any order and alone.
  const env = tempProject("quoin-e2e-save-");
  const memory = path.join(env.project, ".workflow_artifacts", "memory");
  let save: Awaited<ReturnType<typeof session>>;
  let restore: Awaited<ReturnType<typeof session>>;
  let afterSave = {
    checkpoints: [] as string[],
    checkpointText: "",
    sentinel: "",
    sentinelText: "",
  };

  beforeAll(async () => {
    installFromDist(env, "user");
    save = await session(
      env,
      (engine, sid) => [
        `${engine} save --json --ask-mode --intent 'wire the installer' --session ${sid}`,
        `${engine} save --json --mode restore --asked --intent 'wire the installer' --session ${sid}`,
      ],
      "/checkpoint wire the installer",
    );
    const checkpoints = readdirSync(path.join(memory, "checkpoints"));
    const sentinel = readdirSync(memory).find((f) => f.startsWith("pending-restore-")) ?? "";
    afterSave = {
      checkpoints,
      checkpointText: checkpoints[0]
        ? readFileSync(path.join(memory, "checkpoints", checkpoints[0]), "utf8")
        : "",
      sentinel,
      sentinelText: sentinel ? readFileSync(path.join(memory, sentinel), "utf8").trim() : "",
    };
    restore = await session(
      env,
      (engine, sid) => [`${engine} restore --json --session ${sid}`],
      "/checkpoint --restore",
    );
  }, 120_000);

  it("/checkpoint <note>: the engine's checks run before the mode question (--ask-mode), then the answer saves in restore mode", () => {
    expect(save.run.code).toBe(0);
    expect(save.run.stdout).toContain("RELAY");
    expect(save.run.stdout).toContain("Checkpoint saved to:");
    expect(save.run.stdout).toContain("Mode: restore");
    // the skill text tells the model to call the engine before it asks; that call answered needsMode
    expect(
      save.bodies.some((b) =>
        requestText(b).includes("before asking anything, run SAVE `--ask-mode`"),
      ),
    ).toBe(true);
    expect(save.bodies.some((b) => lastUserText(b).includes('"needsMode":true'))).toBe(true);
    expect(afterSave.checkpoints).toHaveLength(1);
    expect(afterSave.checkpointText).toContain("wire the installer");
    expect(afterSave.sentinel).not.toBe("");
  });

  it("a fresh session resumes that checkpoint with /checkpoint --restore, and the sentinel moves to trash", () => {
    const savedBy = afterSave.sentinel.slice("pending-restore-".length, -".txt".length);
    expect(restore.run.code).toBe(0);
    expect(restore.run.stdout).toContain("RELAY");
    expect(restore.run.stdout).toContain('"action":"restore"');
    expect(restore.run.stdout).toContain(afterSave.sentinelText);
    expect(restore.run.stdout).toContain(`claude --resume ${savedBy}`);
    expect(existsSync(path.join(memory, afterSave.sentinel))).toBe(false);
    expect(readdirSync(path.join(memory, "trash"), { recursive: true }).map(String)).toContainEqual(
      expect.stringContaining(afterSave.sentinel),
    );
  });
});

describe("e2e: /checkpoint --defer", { timeout: 90_000 }, () => {
  it("writes the defer marker", async () => {
    const env = tempProject("quoin-e2e-defer-");
    installFromDist(env, "user");
    const { run } = await session(
      env,
      (engine, sid) => [`${engine} defer --json --session ${sid}`],
      "/checkpoint --defer",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("RELAY");
    const memory = path.join(env.project, ".workflow_artifacts", "memory");
    expect(readdirSync(memory).some((f) => f.startsWith("checkpoint-defer-"))).toBe(true);
  });
});
