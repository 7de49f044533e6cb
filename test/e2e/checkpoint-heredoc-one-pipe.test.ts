import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { lastUserText } from "./loopback-model.ts";
import { runScriptedSkill } from "./skill-world.ts";

// The skill's save step as written now: the document as lines in a quoted heredoc (apostrophes and
// double quotes as typed, no '\'' escaping) on the --ask-mode call, and the answer
// `--mode M --asked` with no document (the engine kept it). Through the real client with no
// --allowedTools: both calls pass the permission check under the skill's own allowed-tools
// (`Bash(<engine> save *)`). A JSON object in the heredoc does not: both clients refuse a brace
// followed by a quote outside quotes ("Contains brace with quote character"), checked last.

const IN_PROGRESS = "the user's parser: it's half done, \"quoted\" too";
const DOC = [
  "task: heredoc-e2e",
  `inProgress: ${IN_PROGRESS}`,
  "decisions:",
  "- don't escape apostrophes",
].join("\n");

describe("e2e: /checkpoint's document in a heredoc, piped once", { timeout: 120_000 }, () => {
  it("the --ask-mode call keeps it, the --asked call saves it; no denial, the words kept as typed", async () => {
    const { env, run, bodies } = await runScriptedSkill({
      prefix: "quoin-e2e-heredoc-",
      commands: (engine, sid) => [
        `${engine} pidfile acquire checkpoint --session ${sid}`,
        `${engine} save --json --stdin-json --ask-mode --session ${sid} <<'QUOIN_DOC'\n${DOC}\nQUOIN_DOC`,
        `${engine} save --json --mode restore --asked --session ${sid}`,
      ],
      prompt: "/checkpoint",
    });
    expect(run.code, run.stderr).toBe(0);
    const askResult = lastUserText(bodies.at(-2)!);
    expect(askResult).not.toMatch(/permission|requires approval|not allowed/i);
    expect(askResult).toContain('"needsMode":true');
    const saveResult = lastUserText(bodies.at(-1)!);
    expect(saveResult).not.toMatch(/permission|requires approval|not allowed/i);
    expect(saveResult).toContain('"ok":true');
    const dir = path.join(env.project, ".workflow_artifacts", "memory", "checkpoints");
    const [name, ...rest] = readdirSync(dir);
    expect(rest).toEqual([]);
    const parsed = parseCheckpoint(readFileSync(path.join(dir, name!), "utf8"));
    expect(parsed.inProgress).toBe(IN_PROGRESS);
    expect(readdirSync(path.join(env.project, ".workflow_artifacts", "memory"))).not.toContain(
      expect.stringMatching(/^asked-document-/),
    );
  });
});

describe("e2e: a JSON object in a heredoc is refused by the client's check", {
  timeout: 120_000,
}, () => {
  it("so the skill passes lines, not JSON, in its heredoc", async () => {
    const { bodies } = await runScriptedSkill({
      prefix: "quoin-e2e-heredoc-json-",
      commands: (engine, sid) => [
        `${engine} save --json --stdin-json --mode restore --session ${sid} <<'QUOIN_DOC'\n{"task":"x"}\nQUOIN_DOC`,
      ],
      prompt: "/checkpoint",
    });
    expect(lastUserText(bodies.at(-1)!)).toContain("Contains brace with quote character");
  });
});
