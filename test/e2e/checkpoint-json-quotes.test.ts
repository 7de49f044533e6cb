import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { lastUserText } from "./loopback-model.ts";
import { runScriptedSkill } from "./skill-world.ts";

// The skill tells the model that double quotes and JSON escapes are fine in its document. Through
// the real client, with no --allowedTools: the SAVE line holding \" and \n passes the permission
// check under the skill's own allowed-tools (`Bash(<engine> save *)`), and the engine keeps them.

const DOC = { task: "quotes-e2e", intent: 'keep "this" quoted\nand C:\\tmp as typed' };
const quoted = `'${JSON.stringify(DOC).replaceAll("'", "'\\''")}'`;

describe("e2e: /checkpoint saves a JSON document holding double quotes and escapes", {
  timeout: 120_000,
}, () => {
  it("passes the permission check under the skill's allowed-tools and the checkpoint keeps the values", async () => {
    const { env, run, bodies } = await runScriptedSkill({
      prefix: "quoin-e2e-quotes-",
      commands: (engine, sid) => [
        `${engine} pidfile acquire checkpoint --session ${sid}`,
        `echo -E ${quoted} | ${engine} save --json --stdin-json --mode restore --session ${sid}`,
      ],
      prompt: "/checkpoint --mode restore",
    });
    expect(run.code, run.stderr).toBe(0);
    // the request after the save call carries its tool result: the engine's answer, no denial
    const saveResult = lastUserText(bodies.at(-1)!);
    expect(saveResult).not.toMatch(/permission|requires approval|not allowed/i);
    expect(saveResult).toContain('"ok":true');
    const dir = path.join(env.project, ".workflow_artifacts", "memory", "checkpoints");
    const [name, ...rest] = readdirSync(dir);
    expect(rest).toEqual([]);
    expect(name).toContain("quotes-e2e");
    expect(parseCheckpoint(readFileSync(path.join(dir, name!), "utf8")).intent).toBe(DOC.intent);
  });
});
