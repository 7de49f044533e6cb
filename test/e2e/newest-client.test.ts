import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookWorld, MATCHERS } from "./hook-world.ts";
import {
  CLAUDE_BIN,
  E2E_CLIENT,
  requestText,
  runClaude,
  startLoopbackModel,
  type LoopbackModel,
} from "./loopback-model.ts";

// What the newest client added (vitest project claude-2.1.332 only): a fork's banner names the
// session it forked from and its checkpoint; a resume after the prompt cache expired gets the
// client's re-cache figures; the prompt hook's payload, as the client really sends it. A second
// hook beside ours records every payload, so the assertions use the client's own numbers.

let tmp: string;
let home: string;
let project: string;
let captured: string;
let model: LoopbackModel;
let parent = "";
let fork: Awaited<ReturnType<typeof runClaude>>;
let forkBodies: unknown[] = [];
let resumeBodies: unknown[] = [];
const CHECKPOINT = () =>
  path.join(project, ".workflow_artifacts", "memory", "checkpoints", "2026-12-01T1000-lexer.md");

type Payload = Record<string, unknown>;
const payloads = (): Payload[] =>
  fs
    .readFileSync(captured, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Payload);

function transcriptOf(sid: string): string {
  return path.join(
    home,
    ".claude",
    "projects",
    project.replace(/[^A-Za-z0-9-]/g, "-"),
    `${sid}.jsonl`,
  );
}

/** Every timestamp in a transcript moved back two hours: the client then calls its cache cold. */
function ageTranscript(file: string): void {
  const text = fs
    .readFileSync(file, "utf8")
    .replace(
      /"timestamp":"([^"]+)"/g,
      (_, iso: string) => `"timestamp":"${new Date(Date.parse(iso) - 2 * 3600_000).toISOString()}"`,
    );
  fs.writeFileSync(file, text);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-new-"));
  captured = path.join(tmp, "payloads.jsonl");
  const recorder = path.join(tmp, "record.cjs");
  fs.writeFileSync(
    recorder,
    `let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>require("fs").appendFileSync(${JSON.stringify(captured)},JSON.stringify(JSON.parse(s))+"\\n"));`,
  );
  const record = `node ${JSON.stringify(recorder)}`;
  ({ home, project } = hookWorld(tmp, {
    hooks: { SessionStart: MATCHERS.sessionStartAndFork, UserPromptSubmit: "" },
    besides: { SessionStart: [record], UserPromptSubmit: [record] },
  }));
  model = await startLoopbackModel(() => ({
    kind: "text",
    text: "ok",
    usage: { input_tokens: 41000 },
  }));

  const first = await runClaude({
    home,
    cwd: project,
    baseUrl: model.url,
    args: ["hello", "--output-format=json"],
  });
  parent = (JSON.parse(first.stdout) as { session_id: string }).session_id;
  fs.mkdirSync(path.dirname(CHECKPOINT()), { recursive: true });
  fs.writeFileSync(
    CHECKPOINT(),
    `## Status\ncheckpoint save (voluntary)\n\n## Active task\nlexer\n\n## Session ID\n${parent}\n\n## Saved at\n${new Date().toISOString().slice(0, 19)}Z\n\n## Notes\n${"the lexer's state. ".repeat(100)}\n`,
  );
  ageTranscript(transcriptOf(parent));
  let before = model.messageBodies().length;
  fork = await runClaude({
    home,
    cwd: project,
    baseUrl: model.url,
    args: ["--resume", parent, "--fork-session", "go on", "--output-format=json"],
  });
  forkBodies = model.messageBodies().slice(before);
  before = model.messageBodies().length;
  await runClaude({
    home,
    cwd: project,
    baseUrl: model.url,
    args: ["--resume", parent, "again", "--output-format=json"],
  });
  resumeBodies = model.messageBodies().slice(before);
}, 240_000);
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe(`Claude Code ${E2E_CLIENT === "newest" ? "2.1.332" : "(run on 2.1.332 only)"}: fork, resume, prompt source`, () => {
  it("runs the newest client's own binary", () => {
    expect(CLAUDE_BIN).toContain(path.join("claude-code-newest", "bin"));
  });

  it("a forked session's banner names the session it forked from and offers that session's checkpoint", () => {
    expect(fork.code).toBe(0);
    const start = payloads().find((p) => p["source"] === "fork");
    expect(start).toBeDefined();
    expect(start?.["session_id"]).not.toBe(parent);
    const text = requestText(forkBodies.at(-1) as never);
    expect(text).toContain(`This session is a fork of session ${parent}.`);
    expect(text).toContain(`newest checkpoint, ${CHECKPOINT()}`);
    expect(text).toContain("(task 'lexer'");
  });

  it("a resume after the cache went cold says what resuming re-sends, with the client's figures, and the brief's size", () => {
    const start = payloads()
      .filter((p) => p["source"] === "resume")
      .at(-1);
    expect(start?.["prompt_cache_likely_expired"]).toBe(true);
    const tokens = start?.["context_tokens"] as number;
    const usd = start?.["estimated_cache_write_usd"] as number;
    expect(tokens).toBeGreaterThan(40_000);
    const text = requestText(resumeBodies.at(-1) as never);
    expect(text).toContain("The prompt cache has likely expired (last response 2h");
    expect(text).toContain(
      `resuming re-sends ${tokens.toLocaleString("en-US")} tokens of context, an estimated cache write of $${usd.toFixed(2)} (the client's figure)`,
    );
    const brief = Math.ceil(fs.statSync(CHECKPOINT()).size / 8);
    expect(text).toContain(
      `continues from ${CHECKPOINT()} instead, a brief of about ${brief.toLocaleString("en-US")} tokens`,
    );
  });

  it("the prompt hook's payload: what 2.1.332 sends (no `source` yet: declared in its schema, not sent)", () => {
    const prompts = payloads().filter((p) => p["hook_event_name"] === "UserPromptSubmit");
    expect(prompts.map((p) => p["prompt"])).toEqual(["hello", "go on", "again"]);
    for (const p of prompts) {
      expect(Object.keys(p).sort()).toEqual([
        "cwd",
        "hook_event_name",
        "permission_mode",
        "prompt",
        "prompt_id",
        "session_id",
        "transcript_path",
      ]);
    }
  });
});
