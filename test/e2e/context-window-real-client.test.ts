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
  type RecordedRequest,
  type Usage,
} from "./loopback-model.ts";

// The window a session's hooks use, with the real client: a [1m] model chosen through --model,
// settings.json or ANTHROPIC_MODEL. The client sends claude-sonnet-4-5 (with the context-1m beta
// header) and writes claude-sonnet-4-5 in the transcript, so the hook sees [1m] only where the
// client leaves it: in settings.json and in ANTHROPIC_MODEL, never in --model.

let tmp: string;
let model: LoopbackModel;
let nextUsage: Usage = { input_tokens: 1200 };
const NEAR_200K: Usage = {
  input_tokens: 3,
  cache_read_input_tokens: 160_000,
  cache_creation_input_tokens: 100,
}; // 160,103: 95.8% of 167k, 16.5% of 967k
const NEAR_1M: Usage = {
  input_tokens: 3,
  cache_read_input_tokens: 950_000,
  cache_creation_input_tokens: 100,
}; // 950,103: 98.2% of 967k

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-window-"));
  model = await startLoopbackModel(() => ({ kind: "text", text: "ok", usage: nextUsage }));
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A fresh HOME and project whose user settings.json runs our prompt hook (plus `extra` keys). */
function world(name: string, extra: Record<string, unknown> = {}) {
  return hookWorld(path.join(tmp, name), { hooks: { UserPromptSubmit: "" }, settings: extra });
}

async function ask(
  w: ReturnType<typeof world>,
  prompt: string,
  opts: { resume?: string; flags?: string[]; env?: Record<string, string> } = {},
) {
  const args = [
    ...(opts.flags ?? []),
    ...(opts.resume ? ["--resume", opts.resume] : []),
    prompt,
    "--output-format=json",
  ];
  const before = model.requests.length;
  const run = await runClaude({
    home: w.home,
    cwd: w.project,
    baseUrl: model.url,
    args,
    ...(opts.env ? { env: opts.env } : {}),
  });
  const posts = model.requests
    .slice(before)
    .filter(
      (r: RecordedRequest) =>
        r.method === "POST" && r.url.startsWith("/v1/messages") && !r.url.includes("count_tokens"),
    );
  let sessionId = opts.resume;
  try {
    sessionId = (JSON.parse(run.stdout) as { session_id?: string }).session_id ?? opts.resume;
  } catch {
    // a blocked prompt prints no result object
  }
  const last = posts.at(-1);
  return {
    run,
    last,
    text: requestText(last?.body),
    beta: String(last?.headers["anthropic-beta"] ?? ""),
    sessionId,
  };
}

describe("the window the prompt hook uses, under the real client", () => {
  it("--model claude-sonnet-4-5[1m]: the hook cannot see [1m], so the window is a guess and the block tier advises", async () => {
    const w = world("flag");
    const flags = ["--model", "claude-sonnet-4-5[1m]"];
    nextUsage = NEAR_200K;
    const first = await ask(w, "hello there", { flags });
    expect(first.run.code).toBe(0);
    expect(first.last?.body?.model).toBe("claude-sonnet-4-5");
    expect(first.beta).toContain("context-1m-2025-08-07");
    const second = await ask(w, "next step please", { flags, resume: first.sessionId });
    expect(second.run.code).toBe(0);
    // Delivered, with the advice: 160k of an assumed 200k window is past the block tier.
    expect(second.text).toContain("next step please");
    expect(second.text).toContain(
      "[quoin-checkpoint] context 160k of 167k (95.8%); window 200k (assumed; claude-sonnet-4-5 offers 200k or 1M)",
    );
    expect(second.text).toContain(
      "the prompt went through because the window is assumed, not known",
    );
    expect(fs.existsSync(path.join(w.memory, `pending-prompt-${first.sessionId}.txt`))).toBe(false);
  }, 180_000);

  it("settings.json model claude-sonnet-4-5[1m]: the client leaves it there, the hook reads it: a known 1M window", async () => {
    const w = world("settings", { model: "claude-sonnet-4-5[1m]" });
    nextUsage = NEAR_200K;
    const first = await ask(w, "hello there");
    expect(first.run.code).toBe(0);
    expect(first.last?.body?.model).toBe("claude-sonnet-4-5");
    expect(first.beta).toContain("context-1m-2025-08-07");
    expect(JSON.parse(fs.readFileSync(w.settings, "utf8")).model).toBe("claude-sonnet-4-5[1m]");
    nextUsage = NEAR_1M;
    const second = await ask(w, "next step please", { resume: first.sessionId });
    expect(second.text).toContain("next step please");
    expect(second.text).not.toContain("[quoin-checkpoint]"); // 160k of 967k: quiet
    // Known, so the block tier holds the prompt.
    const third = await ask(w, "deploy to production", { resume: first.sessionId });
    expect(third.last === undefined || !third.text.includes("deploy to production")).toBe(true);
    expect(`${third.run.stdout}${third.run.stderr}`).toContain(
      `context 950k of 967k (98.2%); window 1M (model claude-sonnet-4-5[1m] in ${w.settings})`,
    );
    expect(
      fs.readFileSync(path.join(w.memory, `pending-prompt-${first.sessionId}.txt`), "utf8"),
    ).toContain("deploy to production");
  }, 240_000);

  it("ANTHROPIC_MODEL=claude-sonnet-4-5[1m] reaches the hook's environment: a known 1M window", async () => {
    const w = world("env");
    const env = { ANTHROPIC_MODEL: "claude-sonnet-4-5[1m]" };
    nextUsage = NEAR_200K;
    const first = await ask(w, "hello there", { env });
    expect(first.last?.body?.model).toBe("claude-sonnet-4-5");
    const second = await ask(w, "next step please", { env, resume: first.sessionId });
    expect(second.text).toContain("next step please");
    expect(second.text).not.toContain("[quoin-checkpoint]");
  }, 180_000);
});
