import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { lastUserText, requestText } from "./loopback-model.ts";
import { SKILL_MARKER } from "./skill-driver.ts";
import { runScriptedSkill } from "./skill-world.ts";

// /checkpoint --share through the real client, with no --allowedTools: the save, then the engine's
// share (no --json), pass the permission check under the skill's own allowed-tools, and the share
// lands on the project's remote (a bare repository on disk).

const DOC = `'${JSON.stringify({ task: "share-e2e", intent: "hand the retry work to the laptop" })}'`;

describe("e2e: /checkpoint --share", { timeout: 120_000 }, () => {
  it("saves, then share runs under the skill's allowed-tools and pushes refs/quoin/checkpoints", async () => {
    let bare = "";
    const { env, run, bodies } = await runScriptedSkill({
      prefix: "quoin-e2e-share-",
      prepare: ({ project }) => {
        bare = path.join(path.dirname(project), "remote.git");
        spawnSync("git", ["init", "-q", "--bare", bare]);
        spawnSync("git", ["-C", project, "remote", "add", "origin", bare]);
      },
      commands: (engine, sid) => [
        `${engine} pidfile acquire checkpoint --session ${sid}`,
        `echo -E ${DOC} | ${engine} save --json --stdin-json --mode restore --session ${sid}`,
        `${engine} share --session ${sid}`,
      ],
      prompt: "/checkpoint --share --mode restore",
    });
    expect(run.code, run.stderr).toBe(0);
    const skill = bodies.map((b) => requestText(b)).find((t) => t.includes(SKILL_MARKER)) ?? "";
    expect(skill).toContain("Arguments: `--share --mode restore`");
    expect(skill).toContain("`--share` in the arguments: run `E share` (no `--json`");
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
