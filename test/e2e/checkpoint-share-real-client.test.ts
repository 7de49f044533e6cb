import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { lastUserText, requestText, runClaude, startLoopbackModel } from "./loopback-model.ts";
import { installFromDist, scriptedCommands, SKILL_MARKER, tempProject } from "./skill-driver.ts";

// /checkpoint --share through the real client, with no --allowedTools: the save, then the engine's
// share (no --json), pass the permission check under the skill's own allowed-tools, and the share
// lands on the project's remote (a bare repository on disk).

const DOC = `'${JSON.stringify({ task: "share-e2e", intent: "hand the retry work to the laptop" })}'`;

describe("e2e: /checkpoint --share", { timeout: 120_000 }, () => {
  it("saves, then share runs under the skill's allowed-tools and pushes refs/quoin/checkpoints", async () => {
    const env = tempProject("quoin-e2e-share-");
    const bare = path.join(path.dirname(env.project), "remote.git");
    spawnSync("git", ["init", "-q", "--bare", bare]);
    spawnSync("git", ["-C", env.project, "remote", "add", "origin", bare]);
    installFromDist(env, "user");
    const model = await startLoopbackModel(
      scriptedCommands((engine, sid) => [
        `${engine} pidfile acquire checkpoint --session ${sid}`,
        `echo -E ${DOC} | ${engine} save --json --stdin-json --mode restore --session ${sid}`,
        `${engine} share --session ${sid}`,
      ]),
    );
    let bodies: ReturnType<typeof model.messageBodies>;
    let run: Awaited<ReturnType<typeof runClaude>>;
    try {
      run = await runClaude({
        home: env.home,
        cwd: env.project,
        baseUrl: model.url,
        args: ["/checkpoint --share --mode restore"],
      });
      bodies = model.messageBodies();
    } finally {
      await model.close();
    }
    expect(run.code, run.stderr).toBe(0);
    const skill = bodies.map((b) => requestText(b)).find((t) => t.includes(SKILL_MARKER)) ?? "";
    expect(skill).toContain("Arguments: `--share --mode restore`");
    expect(skill).toContain("then run `E share` (no `--json`");
    // the request after the share call carries its tool result: the engine's one line, no denial
    const shared = lastUserText(bodies.at(-1)!);
    expect(shared).not.toMatch(/permission|requires approval|not allowed/i);
    expect(shared).toMatch(
      /\[checkpoint\] shared share-e2e\/[0-9a-f-]{36}\/\S+\.md, pushed refs\/quoin\/checkpoints to origin/,
    );
    const onRemote = spawnSync(
      "git",
      ["-C", bare, "ls-tree", "-r", "--name-only", "refs/quoin/checkpoints"],
      {
        encoding: "utf8",
      },
    );
    expect(onRemote.stdout).toMatch(/^share-e2e\/[0-9a-f-]{36}\/\S+share-e2e\.md$/m);
    expect(
      spawnSync("git", ["-C", env.project, "status", "--porcelain"], { encoding: "utf8" }).stdout,
    ).toBe("");
  });
});
