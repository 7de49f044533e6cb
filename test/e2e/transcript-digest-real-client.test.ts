import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FsApi } from "../../lib/core/deps.ts";
import { readTranscriptDigest } from "../../lib/context/transcript-digest-read.ts";
import {
  E2E_CLIENT,
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
  type MessagesBody,
  type ScriptedReply,
} from "./loopback-model.ts";
import { toolCallsSoFar, transcriptOf } from "./skill-driver.ts";

// The real client writes the transcript the digest reads: the scripted model creates three tasks,
// completes one, starts one, deletes one, writes a file and runs a failing command; the digest
// rebuilds the task list from what the client recorded (TaskCreate's id comes back in its result).

let tmp: string;
let home: string;
let project: string;
let model: LoopbackModel;

/** The ids the client gave the created tasks, in order, read from the tool results it sent back. */
function createdIds(body: MessagesBody): string[] {
  return [...requestText(body).matchAll(/Task #(\w+) created/g)].map((m) => m[1]!);
}

const toolNames = (body: MessagesBody): string[] =>
  ((body["tools"] as { name?: string }[] | undefined) ?? []).map((t) => t.name ?? "");

const loadTaskTools = (): ScriptedReply => ({
  kind: "tool_use",
  name: "ToolSearch",
  input: { query: "select:TaskCreate,TaskUpdate" },
});

function script(body: MessagesBody): ScriptedReply {
  const text = requestText(body);
  if (!text.includes("plan the parser")) return { kind: "text", text: "ok" };
  const ids = createdIds(body);
  const steps: (() => ScriptedReply)[] = [
    // 2.1.332 defers TaskCreate/TaskUpdate: their names are listed in a system message and their
    // schemas come with ToolSearch's result; calling them before that fails validation.
    ...(E2E_CLIENT === "newest" ? [loadTaskTools] : []),
    () => ({
      kind: "tool_use",
      name: "TaskCreate",
      input: { subject: "Write the parser", description: "parse the input" },
    }),
    () => ({
      kind: "tool_use",
      name: "TaskCreate",
      input: { subject: "Test the parser", description: "cover the edge cases" },
    }),
    () => ({
      kind: "tool_use",
      name: "TaskCreate",
      input: { subject: "Drop me", description: "a task to delete" },
    }),
    () => ({
      kind: "tool_use",
      name: "TaskUpdate",
      input: { taskId: ids[0], status: "completed" },
    }),
    () => ({
      kind: "tool_use",
      name: "TaskUpdate",
      input: { taskId: ids[1], status: "in_progress" },
    }),
    () => ({ kind: "tool_use", name: "TaskUpdate", input: { taskId: ids[2], status: "deleted" } }),
    () => ({
      kind: "tool_use",
      name: "Write",
      input: { file_path: path.join(project, "src", "parser.ts"), content: "export {};\n" },
    }),
    () => ({ kind: "tool_use", name: "Bash", input: { command: "ls missing-quoin-dir" } }),
  ];
  const step = steps[toolCallsSoFar(body)];
  return step ? step() : { kind: "text", text: "planned" };
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-digest-"));
  home = path.join(tmp, "home");
  project = path.join(home, "proj");
  fs.mkdirSync(path.join(project, ".git"), { recursive: true });
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/feat/parser\n");
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  model = await startLoopbackModel(script);
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the digest of a transcript the real client wrote", () => {
  it("rebuilds the todo list from TaskCreate/TaskUpdate, names the written file and the failed command", async () => {
    const run = await runClaude({
      home,
      cwd: project,
      baseUrl: model.url,
      args: [
        "plan the parser",
        "--output-format=json",
        "--allowedTools=Write,Bash(ls:*),TaskCreate,TaskUpdate,ToolSearch",
      ],
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const bodies = model.messageBodies().filter((b) => requestText(b).includes("plan the parser"));
    if (E2E_CLIENT === "newest") {
      // 2.1.332: the first request names the task tools as deferred and sends no schema for them;
      // the request after ToolSearch's result carries both (docs/claude-code-versions.md).
      expect(toolNames(bodies[0]!)).not.toContain("TaskCreate");
      expect(requestText(bodies[0]!)).toMatch(
        /deferred tools[\s\S]*\nTaskCreate\n[\s\S]*\nTaskUpdate\n/,
      );
      expect(toolNames(bodies[1]!)).toEqual(expect.arrayContaining(["TaskCreate", "TaskUpdate"]));
    } else {
      expect(toolNames(bodies[0]!)).toEqual(expect.arrayContaining(["TaskCreate", "TaskUpdate"]));
    }
    const sid = (JSON.parse(run.stdout) as { session_id: string }).session_id;

    const transcript = transcriptOf(home, sid);
    expect(transcript, `no transcript for ${sid}`).toBeDefined();
    const digest = readTranscriptDigest(fs as unknown as FsApi, transcript!, {
      projectRoot: project,
      sessionId: sid,
    })!;
    expect(digest.todos).toEqual([
      { content: "Write the parser", status: "completed" },
      { content: "Test the parser", status: "in_progress" },
    ]);
    expect(digest.changed.map((f) => f.path)).toEqual(["src/parser.ts"]);
    expect(fs.readFileSync(path.join(project, "src", "parser.ts"), "utf8")).toBe("export {};\n");
    expect(digest.failures).toHaveLength(1);
    expect(digest.failures[0]!.command).toBe("ls missing-quoin-dir");
    expect(digest.failures[0]!.error).toMatch(/No such file or directory/);
    expect(digest.firstRequest?.text).toBe("plan the parser");
    expect(digest.truncated).toBe(false);
  }, 180_000);
});
