import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookWorld } from "./hook-world.ts";
import {
  type LoopbackModel,
  requestText,
  runClaude,
  startLoopbackModel,
  type Usage,
} from "./loopback-model.ts";

// The auto-compact window the person sets, under the real client. With autoCompactWindow 100000
// (settings.json) or CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000 the client compacts once the last
// reply's context passes about 67k (100k minus the 33k buffer quoin assumes): not at 62k, at 70k.
// The prompt hook reads the same setting, so on claude-sonnet-4-5 (200k or 1M: the window is
// otherwise only assumed) its thresholds are relative to 100k, and the block tier holds a prompt.

let tmp: string;
let model: LoopbackModel;
let nextUsage: Usage = { input_tokens: 1200 };
const ctx = (n: number): Usage => ({ input_tokens: 3, cache_read_input_tokens: n - 3 });
const isSummaryRequest = (text: string) => /summary/i.test(text.slice(-3000));

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "quoin-e2e-autocompact-"));
  model = await startLoopbackModel((body) =>
    isSummaryRequest(requestText(body))
      ? { kind: "text", text: "Summary: the work so far.", usage: { input_tokens: 2000 } }
      : { kind: "text", text: "ok", usage: nextUsage },
  );
});
afterAll(async () => {
  await model?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function ask(
  w: { home: string; project: string },
  prompt: string,
  opts: { resume?: string; env?: Record<string, string> } = {},
) {
  const before = model.requests.length;
  const run = await runClaude({
    home: w.home,
    cwd: w.project,
    baseUrl: model.url,
    args: [
      "--model",
      "claude-sonnet-4-5",
      ...(opts.resume ? ["--resume", opts.resume] : []),
      prompt,
      "--output-format=json",
    ],
    ...(opts.env ? { env: opts.env } : {}),
  });
  const posts = model.requests
    .slice(before)
    .filter(
      (r) =>
        r.method === "POST" && r.url.startsWith("/v1/messages") && !r.url.includes("count_tokens"),
    );
  let sessionId = opts.resume;
  try {
    sessionId = (JSON.parse(run.stdout) as { session_id?: string }).session_id ?? opts.resume;
  } catch {
    // a held prompt prints no result object
  }
  const texts = posts.map((p) => requestText(p.body));
  return { run, sessionId, texts, compacted: texts.some(isSummaryRequest) };
}

/** Where the client compacts: a session whose replies report each context size in turn. */
async function compactsAt(
  name: string,
  levels: number[],
  settings: Record<string, unknown>,
  env?: Record<string, string>,
): Promise<boolean[]> {
  const w = hookWorld(path.join(tmp, name), { hooks: {}, settings });
  const seen: boolean[] = [];
  nextUsage = ctx(levels[0] ?? 1200);
  const first = await ask(w, "step one", env ? { env } : {});
  expect(first.run.code).toBe(0);
  expect(first.compacted).toBe(false);
  for (let i = 0; i < levels.length; i += 1) {
    // This turn checks the context levels[i] the last reply reported, and reports the next.
    nextUsage = ctx(levels[i + 1] ?? 1200);
    const r = await ask(w, `step after ${levels[i]}`, {
      ...(first.sessionId ? { resume: first.sessionId } : {}),
      ...(env ? { env } : {}),
    });
    expect(r.run.code).toBe(0);
    seen.push(r.compacted);
    if (r.compacted) break;
  }
  return seen;
}

describe("the auto-compact window, under the real client", () => {
  it("settings autoCompactWindow 100000: compacts after a 70k reply, not after 62k", async () => {
    expect(await compactsAt("settings", [62_000, 70_000], { autoCompactWindow: 100_000 })).toEqual([
      false,
      true,
    ]);
  }, 240_000);

  it("CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000: the same", async () => {
    expect(
      await compactsAt("env", [62_000, 70_000], {}, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000" }),
    ).toEqual([false, true]);
  }, 240_000);

  it("the environment variable wins over the setting: env 150000 with autoCompactWindow 100000 does not compact at 70k", async () => {
    expect(
      await compactsAt(
        "both",
        [70_000],
        { autoCompactWindow: 100_000 },
        { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "150000" },
      ),
    ).toEqual([false]);
  }, 240_000);

  it("the prompt hook puts its thresholds on it: 64k of 67k holds the prompt on an otherwise assumed window; without the setting it goes through", async () => {
    for (const [name, settings, held] of [
      ["held", { autoCompactWindow: 100_000 }, true],
      ["plain", {}, false],
    ] as const) {
      const w = hookWorld(path.join(tmp, `hook-${name}`), {
        hooks: { UserPromptSubmit: "" },
        settings,
      });
      nextUsage = ctx(64_000);
      const first = await ask(w, "hello there");
      expect(first.run.code).toBe(0);
      const second = await ask(w, "deploy to production", { resume: first.sessionId });
      const sent = second.texts.some((t) => t.includes("deploy to production"));
      expect(sent).toBe(!held);
      expect(second.compacted).toBe(false);
      const pending = path.join(w.memory, `pending-prompt-${first.sessionId}.txt`);
      expect(fs.existsSync(pending)).toBe(held);
      if (held)
        expect(`${second.run.stdout}${second.run.stderr}`).toContain(
          "context 64k of 67k (95.5%); window 100k (auto-compact window: autoCompactWindow 100000 in",
        );
    }
  }, 300_000);
});
