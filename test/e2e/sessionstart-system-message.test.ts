import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookWorld, MATCHERS } from "./hook-world.ts";
import {
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
} from "./loopback-model.ts";

// Under the real client: the SessionStart banner reaches the model
// (additionalContext) and the person (systemMessage), and the client takes both without a hook error.

let tmp: string;
let home: string;
let project: string;
let model: LoopbackModel;
const OTHER = "e5e5e5e5-0000-4000-8000-00000000000e";

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-ss-"));
  let memory: string;
  ({ home, project, memory } = hookWorld(tmp, {
    hooks: { SessionStart: MATCHERS.sessionStartAndFork },
  }));
  const checkpoint = path.join(memory, "checkpoints", "2026-11-30T1000-parser.md");
  fs.mkdirSync(path.dirname(checkpoint), { recursive: true });
  fs.writeFileSync(
    checkpoint,
    // a whole checkpoint: one cut short is offered as damaged, not restored
    "## Status\ncheckpoint save (voluntary)\n\n## Active task\nparser\n\n## Branch\nmain\n\n## Restore hint\nRun /checkpoint --restore in a fresh session to resume task 'parser' from branch 'main'.\n",
  );
  fs.writeFileSync(path.join(memory, `pending-restore-${OTHER}.txt`), `${checkpoint}\n`);
  model = await startLoopbackModel(() => ({
    kind: "text",
    text: "ok",
    usage: { input_tokens: 1200 },
  }));
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("SessionStart banner under the real Claude Code client", () => {
  it("reaches the model as context and the person as one systemMessage line, with no hook error", async () => {
    const run = await runClaude({
      home,
      cwd: project,
      baseUrl: model.url,
      args: ["hello", "--output-format=json"],
    });
    expect(run.code).toBe(0);
    expect(requestText(model.messageBodies().at(-1))).toContain(
      `Another session (${OTHER}) left a checkpoint waiting`,
    );
    const sid = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const transcript = fs.readFileSync(
      path.join(
        home,
        ".claude",
        "projects",
        project.replace(/[^A-Za-z0-9-]/g, "-"),
        `${sid}.jsonl`,
      ),
      "utf8",
    );
    expect(transcript).not.toMatch(/hook_(non_blocking_)?error|hook_cancelled/);
    expect(transcript).toContain(
      '"type":"hook_system_message","content":"[quoin] another session left a checkpoint (2026-11-30T1000-parser.md): /checkpoint --restore picks it up"',
    );
  }, 120_000);
});
