import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInstall } from "../../lib/installer.ts";
import { nodeDeps } from "../../lib/node-deps.ts";
import { runClaude, startLoopbackModel, type LoopbackModel } from "./loopback-model.ts";
import { scriptedCommands } from "./skill-driver.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

// The skill's save and defer paths through the real client, with the engine commands the other
// branches provide. Each test runs only when the built engine has the command it needs.

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const ENGINE = path.join(ROOT, "dist", "quoin-checkpoint.mjs");
const help = existsSync(ENGINE) ? spawnSync(process.execPath, [ENGINE, "--help"], { encoding: "utf8" }).stdout : "";
const engineHas = (cmd: string) => new RegExp(`^  ${cmd} `, "m").test(help);

/** The pidfile acquire, then the given commands. */
const scripted = (steps: (engine: string, session: string) => string[]) =>
  scriptedCommands((engine, session) => [`${engine} pidfile acquire checkpoint --session ${session}`, ...steps(engine, session)]);

describe("e2e: /checkpoint save and defer", { timeout: 90_000 }, () => {
  let home = "";
  let project = "";
  let model: LoopbackModel | undefined;

  beforeAll(() => {
    const base = tempDir("quoin-e2e-save-");
    home = path.join(base, "home");
    project = path.join(base, "proj");
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    spawnSync("git", ["init", "-q", project]);
    const outcome = runInstall(nodeDeps({ home, cwd: project, env: {} }), {
      scope: "user",
      uninstall: false,
      dryRun: false,
      statusLine: false,
      distDir: path.join(ROOT, "dist"),
    });
    if (!outcome.ok) throw new Error(outcome.reason);
  });
  afterAll(async () => model?.close());

  it.skipIf(!engineHas("save"))("/checkpoint <note> saves in restore mode and relays the report", async () => {
    model = await startLoopbackModel(scripted((engine, sid) => [`${engine} save --json --intent 'wire the installer' --session ${sid}`]));
    const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint wire the installer"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("RELAY");
    expect(run.stdout).toContain("Checkpoint saved to:");
    expect(run.stdout).toContain("Mode: restore");
    const memory = path.join(project, ".workflow_artifacts", "memory");
    const checkpoints = readdirSync(path.join(memory, "checkpoints"));
    expect(checkpoints).toHaveLength(1);
    expect(readFileSync(path.join(memory, "checkpoints", checkpoints[0] as string), "utf8")).toContain("wire the installer");
    expect(readdirSync(memory).some((f) => f.startsWith("pending-restore-"))).toBe(true);
    await model.close();
    model = undefined;
  });

  it.skipIf(!engineHas("defer"))("/checkpoint --defer writes the defer marker", async () => {
    model = await startLoopbackModel(scripted((engine, sid) => [`${engine} defer --json --session ${sid}`]));
    const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint --defer"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("RELAY");
    const memory = path.join(project, ".workflow_artifacts", "memory");
    expect(readdirSync(memory).some((f) => f.startsWith("checkpoint-defer-"))).toBe(true);
    await model.close();
    model = undefined;
  });
});

describe("e2e: /checkpoint --restore", { timeout: 90_000 }, () => {
  it.skipIf(!engineHas("restore"))("a fresh session finds the other session's checkpoint through the engine", async () => {
    const base = tempDir("quoin-e2e-restore-");
    const home = path.join(base, "home");
    const project = path.join(base, "proj");
    mkdirSync(home, { recursive: true });
    spawnSync("git", ["init", "-q", project]);
    const outcome = runInstall(nodeDeps({ home, cwd: project, env: {} }), { scope: "user", uninstall: false, dryRun: false, statusLine: false, distDir: path.join(ROOT, "dist") });
    if (!outcome.ok) throw new Error(outcome.reason);
    // A checkpoint in the seed's format, saved by an earlier session, with its pending-restore sentinel.
    const memory = path.join(project, ".workflow_artifacts", "memory");
    const earlier = "11111111-2222-4333-8444-555555555555";
    const file = path.join(memory, "checkpoints", "2026-11-29T2100-wire-installer.md");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      ["## Status", "checkpoint save (voluntary)", "", "## Active task", "wire-installer", "", "## Branch", "main", "", "## Session ID", earlier, "",
        "## Last user intent", "wire the installer", "", "## In-flight artifacts", "- current-plan.md: (none found)", "", "## Restore hint",
        "Run /checkpoint --restore in a fresh session.", ""].join("\n"),
    );
    writeFileSync(path.join(memory, `pending-restore-${earlier}.txt`), `${file}\n`);
    const model = await startLoopbackModel(scripted((engine, sid) => [`${engine} restore --json --session ${sid}`]));
    try {
      const run = await runClaude({ home, cwd: project, baseUrl: model.url, args: ["/checkpoint --restore"] });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("RELAY");
      expect(run.stdout).toMatch(/"action":"(restore|choose)"/);
      expect(run.stdout).toContain("wire-installer");
    } finally {
      await model.close();
    }
  });
});
