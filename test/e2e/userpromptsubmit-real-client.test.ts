import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookWorld } from "./hook-world.ts";
import {
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type Usage,
} from "./loopback-model.ts";

// The real Claude Code client, offline, with our built UserPromptSubmit hook in its settings:
// the usage the scripted model reports is what the client writes to the transcript, so each
// test sets the context size the hook will see on the next prompt.

let tmp: string;
let home: string;
let project: string;
let model: LoopbackModel;
let nextUsage: Usage = { input_tokens: 1200 };

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-ups-"));
  ({ home, project } = hookWorld(tmp, { hooks: { UserPromptSubmit: "" } }));
  model = await startLoopbackModel(() => ({ kind: "text", text: "ok", usage: nextUsage }));
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const memory = () => path.join(project, ".workflow_artifacts", "memory");

async function ask(prompt: string, resume?: string) {
  const args = resume
    ? ["--resume", resume, prompt, "--output-format=json"]
    : [prompt, "--output-format=json"];
  const before = model.messageBodies().length;
  const run = await runClaude({ home, cwd: project, baseUrl: model.url, args });
  const bodies = model.messageBodies().slice(before);
  let sessionId = resume;
  try {
    sessionId = (JSON.parse(run.stdout) as { session_id?: string }).session_id ?? resume;
  } catch {
    // a blocked prompt prints no result object
  }
  return { run, bodies, sessionId };
}

describe("UserPromptSubmit under the real Claude Code client", () => {
  // Four prompts of one session, each building on the last, all run here in order; each \`it\`
  // only reads what its prompt left, so the \`it\`s hold in any order and alone.
  let sid: string | undefined;
  let first: Awaited<ReturnType<typeof ask>>;
  let second: Awaited<ReturnType<typeof ask>>;
  let third: Awaited<ReturnType<typeof ask>>;
  let fourth: Awaited<ReturnType<typeof ask>>;
  const seen = {
    artifactsAfterFirst: true,
    transcriptAfterSecond: "",
    pendingAfterThird: "",
    checkpointAfterThird: "",
    pendingAfterFourth: "",
  };
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");

  beforeAll(async () => {
    nextUsage = {
      input_tokens: 3,
      cache_read_input_tokens: 700_000,
      cache_creation_input_tokens: 100,
    };
    first = await ask("hello there");
    sid = first.sessionId;
    seen.artifactsAfterFirst = fs.existsSync(path.join(project, ".workflow_artifacts"));
    // The transcript now ends with a reply of 700,103 context tokens on claude-opus-4-8 (1M window).
    nextUsage = {
      input_tokens: 3,
      cache_read_input_tokens: 950_000,
      cache_creation_input_tokens: 100,
    };
    second = await ask("next step please", sid);
    seen.transcriptAfterSecond = read(
      path.join(
        home,
        ".claude",
        "projects",
        project.replace(/[^A-Za-z0-9-]/g, "-"),
        `${sid}.jsonl`,
      ),
    );
    third = await ask("deploy to production", sid);
    seen.pendingAfterThird = read(path.join(memory(), `pending-prompt-${sid}.txt`));
    const checkpoint = read(path.join(memory(), `pending-restore-${sid}.txt`)).trim();
    seen.checkpointAfterThird = checkpoint ? read(checkpoint) : "";
    fourth = await ask("/checkpoint --restore", sid);
    seen.pendingAfterFourth = read(path.join(memory(), `pending-prompt-${sid}.txt`));
  }, 240_000);

  it("is quiet on a small context and writes nothing into the repository", () => {
    expect(first.run.code).toBe(0);
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestText(first.bodies.at(-1))).not.toContain("[quoin-checkpoint]");
    expect(seen.artifactsAfterFirst).toBe(false);
  });

  it("advises on the next prompt with the real token count, and the model receives it", () => {
    expect(second.run.code).toBe(0);
    const text = requestText(second.bodies.at(-1));
    expect(text).toContain("[quoin-checkpoint] context 700k of 967k (72.3%)");
    expect(text).toContain("next step please");
    // The same answer carries a systemMessage for the person: the client accepts it (no hook error).
    expect(seen.transcriptAfterSecond).not.toMatch(/hook_(non_blocking_)?error|hook_cancelled/);
    // 2.1.197 records it as an attachment of type hook_system_message (seen in this transcript).
    expect(seen.transcriptAfterSecond).toContain(
      '"type":"hook_system_message","content":"[quoin] context 700k of 967k (72.3%): /checkpoint saves this session\'s place',
    );
  });

  it("holds the prompt at the block tier: saved to disk, never sent to the model", () => {
    expect(third.bodies.filter((b) => requestText(b).includes("deploy to production"))).toEqual([]);
    expect(seen.pendingAfterThird).toMatch(
      /^=== BLOCKED PROMPT \[\S+Z\] ===\ndeploy to production\n$/,
    );
    expect(seen.checkpointAfterThird).toContain(`## Session ID\n${sid}`);
    expect(`${third.run.stdout}${third.run.stderr}`).toContain("context 950k of 967k (98.2%)");
  });

  it("lets /compact-style exempt commands and /checkpoint through even at the block tier", () => {
    expect(seen.pendingAfterFourth).not.toContain("/checkpoint");
    expect(fourth.run.code).toBe(0);
  });
});
