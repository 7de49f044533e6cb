import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST, runBundle } from "../helpers/run-bundle.ts";
import {
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type MessagesBody,
  type ScriptedReply,
} from "./loopback-model.ts";
import { tempProject, toolCallsSoFar, transcriptOf } from "./skill-driver.ts";

// A project's own PostToolUse hook that compiles each edited file is often the only check an edit
// gets before a compaction, and its errors reach the model only as the hook's feedback. The real
// client records that feedback in the transcript; the checkpoint PreCompact writes from it says
// what the hook told the model, so a fresh session knows the edit left an error.

let home: string;
let project: string;
let model: LoopbackModel;

const ERROR = "error: lib/x.ex:171: cannot invoke remote function Access.get/2 inside a guard";

function script(body: MessagesBody): ScriptedReply {
  if (!requestText(body).includes("add the guard")) return { kind: "text", text: "ok" };
  if (toolCallsSoFar(body) === 0)
    return {
      kind: "tool_use",
      name: "Write",
      input: { file_path: path.join(project, "lib", "x.ex"), content: "defmodule X do\nend\n" },
    };
  return { kind: "text", text: "Written; the hook says the guard does not compile." };
}

beforeAll(async () => {
  ({ home, project } = tempProject("quoin-e2e-posttooluse-"));
  fs.mkdirSync(path.join(project, "lib"));
  const hook = path.join(home, "compile-check.sh");
  fs.writeFileSync(hook, `#!/bin/sh\ncat >/dev/null\necho '${ERROR}' >&2\nexit 2\n`, {
    mode: 0o755,
  });
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  fs.writeFileSync(
    path.join(home, ".claude", "settings.json"),
    JSON.stringify({
      hooks: { PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: hook }] }] },
    }),
  );
  model = await startLoopbackModel(script);
});
afterAll(async () => {
  await model?.close();
});

describe("e2e: what a PostToolUse hook told the model reaches the checkpoint", () => {
  it("the client records the hook's error; PreCompact's checkpoint quotes it in the state of the last edit", async () => {
    const run = await runClaude({
      home,
      cwd: project,
      baseUrl: model.url,
      args: ["add the guard", "--output-format=json", "--allowedTools=Write"],
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    // the model was told (the loopback saw it) ...
    expect(requestText(model.messageBodies().at(-1))).toContain(ERROR);
    const sid = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const transcript = transcriptOf(home, sid);
    expect(transcript, `no transcript for ${sid}`).toBeDefined();
    // ... and PreCompact, run as the client runs it, reads it from the transcript
    const payload = {
      session_id: sid,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    };
    const res = runBundle(path.join(DIST, "hooks", "precompact.cjs"), [], {
      input: JSON.stringify(payload),
      env: { HOME: home },
      cwd: project,
    });
    expect(res.status, res.stderr).toBe(0);
    const dir = path.join(project, ".workflow_artifacts", "memory", "checkpoints");
    const [file] = fs.readdirSync(dir);
    const text = fs.readFileSync(path.join(dir, file!), "utf8");
    const state = text.split("\n").find((l) => l.startsWith("- state: "));
    expect(state).toBe(
      `- state: lib/x.ex was changed at ${/changed at (\S+Z)/.exec(state ?? "")?.[1]} and no build or test command ran since; run the project's build and tests first: after the edit a PostToolUse hook told the model \`${ERROR}\` (compile-check.sh)`,
    );
  }, 180_000);
});
