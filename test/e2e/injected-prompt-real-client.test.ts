import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FsApi } from "../../lib/core/deps.ts";
import { readTranscriptDigest } from "../../lib/context/transcript-digest-read.ts";
import { hookWorld } from "./hook-world.ts";
import {
  E2E_CLIENT,
  lastUserText,
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type MessagesBody,
  type ScriptedReply,
} from "./loopback-model.ts";
import { toolCallsSoFar } from "./skill-driver.ts";

// Under the real client: a turn the client injects (nobody typed it) reaches the prompt hook at
// the block tier and passes untouched. The one such turn a `-p` run produces within seconds is a
// background task's end: the model starts `sleep 1` in the background and ends its turn; the
// client then runs UserPromptSubmit with a `<task-notification>` prompt (no `source`: neither
// client sends it) and sends that turn to the model. A /loop wakeup fires 60 s at the soonest and
// carries nothing that tells it from a typed prompt (docs/claude-code-versions.md).

let tmp: string;
let home: string;
let project: string;
let model: LoopbackModel;
/** every payload the client gave UserPromptSubmit, from a second hook beside quoin's */
let payloads: () => Record<string, unknown>[];

// 950,103 context tokens: 98.2 % of the default model's 967k, above the block threshold.
const FULL = {
  input_tokens: 3,
  cache_read_input_tokens: 950_000,
  cache_creation_input_tokens: 100,
};
const NOTIFICATION = "<task-notification>";

function script(body: MessagesBody): ScriptedReply {
  const text = requestText(body);
  if (!text.includes("start the build")) return { kind: "text", text: "ok", usage: FULL };
  if (lastUserText(body).includes(NOTIFICATION))
    return { kind: "text", text: "the build finished", usage: FULL };
  if (toolCallsSoFar(body) === 0)
    return {
      kind: "tool_use",
      name: "Bash",
      input: { command: "sleep 1; echo BUILD-DONE", run_in_background: true, description: "build" },
      usage: FULL,
    };
  return { kind: "text", text: "building in the background", usage: FULL };
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-injected-"));
  const record = path.join(tmp, "prompt-payloads.jsonl");
  const recorder = `sh -c 'cat >> "$0"; echo >> "$0"' ${JSON.stringify(record)}`;
  ({ home, project } = hookWorld(tmp, {
    hooks: { UserPromptSubmit: "" },
    besides: { UserPromptSubmit: [recorder] },
  }));
  payloads = () =>
    fs
      .readFileSync(record, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  model = await startLoopbackModel(script);
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const memory = () => path.join(project, ".workflow_artifacts", "memory");
const transcriptOf = (sid: string) =>
  path.join(home, ".claude", "projects", project.replace(/[^A-Za-z0-9-]/g, "-"), `${sid}.jsonl`);

describe("a turn the real client injects, at the block tier", () => {
  it("a background task's notification passes the prompt hook untouched and is not among the user's requests; a typed prompt then is held", async () => {
    const run = await runClaude({
      home,
      cwd: project,
      baseUrl: model.url,
      args: ["start the build", "--output-format=json", "--allowedTools=Bash(sleep:*)"],
    });
    expect(run.code, run.stderr).toBe(0);
    const sid = (JSON.parse(run.stdout) as { session_id: string }).session_id;

    // the client ran the hook with the notification as the prompt, and no `source`
    const injected = payloads().filter((p) => String(p["prompt"]).startsWith(NOTIFICATION));
    expect(injected).toHaveLength(1);
    expect(injected[0]).not.toHaveProperty("source");
    expect(String(injected[0]!["prompt"])).toMatch(/<status>completed<\/status>/);

    // ... and the turn reached the model as it was: not held, no advisory beside it
    const turn = model.messageBodies().find((b) => lastUserText(b).includes(NOTIFICATION));
    expect(turn).toBeDefined();
    expect(requestText(turn)).not.toContain("[quoin-checkpoint]");
    expect(run.stdout).toContain("the build finished");
    expect(fs.existsSync(path.join(memory(), `pending-prompt-${sid}.txt`))).toBe(false);
    expect(fs.existsSync(path.join(memory(), `pending-restore-${sid}.txt`))).toBe(false);

    const transcript = fs.readFileSync(transcriptOf(sid), "utf8");
    // 2.1.332 marks the injected line; 2.1.197 writes it with promptSource "sdk", as the typed
    // prompt, so there the digest leaves it out by its <task-notification> opening
    if (E2E_CLIENT === "newest")
      expect(transcript).toMatch(/"promptSource":"system"[^\n]*"turnOrigin":"task_notification"/);
    const digest = readTranscriptDigest(fs as unknown as FsApi, transcriptOf(sid), {
      projectRoot: project,
      sessionId: sid,
    })!;
    expect(digest.requests.map((r) => r.text)).toEqual(["start the build"]);
    expect(digest.requestCount).toBe(1);

    // control: the same context holds a typed prompt, so the tier above was the block tier
    const typed = await runClaude({
      home,
      cwd: project,
      baseUrl: model.url,
      args: ["--resume", sid, "deploy to production"],
    });
    expect(`${typed.stdout}${typed.stderr}`).toContain("context 950k of 967k (98.2%)");
    expect(fs.readFileSync(path.join(memory(), `pending-prompt-${sid}.txt`), "utf8")).toMatch(
      /^=== BLOCKED PROMPT \[\S+Z\] ===\ndeploy to production\n$/,
    );
    expect(model.messageBodies().filter((b) => lastUserText(b).includes("deploy"))).toEqual([]);
  }, 120_000);
});
