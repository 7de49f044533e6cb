import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastUserText, requestText, runClaude, startLoopbackModel, type LoopbackModel } from "./loopback-model.ts";
import { installFromDist, scriptedCommands, tempProject } from "./skill-driver.ts";

// The skill's save, defer and restore paths through the real client: one session saves with
// /checkpoint, a fresh session finds that checkpoint with /checkpoint --restore.

/** The pidfile acquire, then the given commands. */
const scripted = (steps: (engine: string, session: string) => string[]) =>
  scriptedCommands((engine, session) => [`${engine} pidfile acquire checkpoint --session ${session}`, ...steps(engine, session)]);

describe("e2e: /checkpoint save and defer", { timeout: 90_000 }, () => {
  let home = "";
  let project = "";
  let model: LoopbackModel | undefined;

  beforeAll(() => {
    ({ home, project } = tempProject("quoin-e2e-save-"));
    installFromDist({ home, project }, "user");
  });
  afterAll(async () => model?.close());

  it("/checkpoint <note>: the engine's checks run before the mode question (--ask-mode), then the answer saves in restore mode", async () => {
    model = await startLoopbackModel(
      scripted((engine, sid) => [
        `${engine} save --json --ask-mode --intent 'wire the installer' --session ${sid}`,
        `${engine} save --json --mode restore --asked --intent 'wire the installer' --session ${sid}`,
      ]),
    );
    const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint wire the installer"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("RELAY");
    expect(run.stdout).toContain("Checkpoint saved to:");
    expect(run.stdout).toContain("Mode: restore");
    // the skill text tells the model to call the engine before it asks; that call answered needsMode
    expect(model.messageBodies().some((b) => requestText(b).includes("before asking anything, run SAVE `--ask-mode`"))).toBe(true);
    expect(model.messageBodies().some((b) => lastUserText(b).includes('"needsMode":true'))).toBe(true);
    const memory = path.join(project, ".workflow_artifacts", "memory");
    const checkpoints = readdirSync(path.join(memory, "checkpoints"));
    expect(checkpoints).toHaveLength(1);
    expect(readFileSync(path.join(memory, "checkpoints", checkpoints[0] as string), "utf8")).toContain("wire the installer");
    expect(readdirSync(memory).some((f) => f.startsWith("pending-restore-"))).toBe(true);
    await model.close();
    model = undefined;
  });

  it("/checkpoint --defer writes the defer marker", async () => {
    model = await startLoopbackModel(scripted((engine, sid) => [`${engine} defer --json --session ${sid}`]));
    const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint --defer"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("RELAY");
    const memory = path.join(project, ".workflow_artifacts", "memory");
    expect(readdirSync(memory).some((f) => f.startsWith("checkpoint-defer-"))).toBe(true);
    await model.close();
    model = undefined;
  });

  it("a fresh session resumes that checkpoint with /checkpoint --restore, and the sentinel moves to trash", async () => {
    const memory = path.join(project, ".workflow_artifacts", "memory");
    const sentinel = readdirSync(memory).find((f) => f.startsWith("pending-restore-"));
    expect(sentinel).toBeDefined();
    const saved = readFileSync(path.join(memory, sentinel as string), "utf8").trim();
    const savedBy = (sentinel as string).slice("pending-restore-".length, -".txt".length);
    model = await startLoopbackModel(scripted((engine, sid) => [`${engine} restore --json --session ${sid}`]));
    const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint --restore"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("RELAY");
    expect(run.stdout).toContain('"action":"restore"');
    expect(run.stdout).toContain(saved);
    expect(run.stdout).toContain(`claude --resume ${savedBy}`);
    expect(existsSync(path.join(memory, sentinel as string))).toBe(false);
    expect(readdirSync(path.join(memory, "trash"), { recursive: true }).map(String)).toContainEqual(expect.stringContaining(sentinel as string));
    await model.close();
    model = undefined;
  });
});
