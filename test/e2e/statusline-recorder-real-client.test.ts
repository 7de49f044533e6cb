import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DIST, runBundle } from "../helpers/run-bundle.ts";
import {
  E2E_CLIENT,
  lastUserText,
  type LoopbackModel,
  type MessagesBody,
  requestText,
  startLoopbackModel,
} from "./loopback-model.ts";
import { type PtyClient, skipFirstRunDialogs, startPtyClient } from "./pty-client.ts";
import { tempProject, transcriptOf } from "./skill-driver.ts";

// The default install's status-line recorder (`statusline.cjs --quiet`) under the real,
// interactive client: the only place a client reports the session's window
// (context_window.context_window_size) is the status line's stdin, and the status line never draws
// under `claude -p`. claude-sonnet-4-5 offers 200k or 1M, so without the record the prompt hook
// only assumes 200k: a prompt past the hold threshold goes through with advice. With the record,
// the same numbers hold the prompt on a 200k session and say nothing on a 1M one.

const API_KEY = "sk-loopback-statusline-0001";
/** Every reply's context: 160,000 tokens, 95.8% of 167k (200k minus the 33k buffer). */
const USAGE = { input_tokens: 3, cache_read_input_tokens: 159_997 };
const IN_TRANSCRIPT = '"cache_read_input_tokens":159997';

function windowRecords(home: string): string[] {
  const state = path.join(home, ".claude", "quoin-checkpoint", "state");
  return existsSync(state)
    ? readdirSync(state)
        .filter((f) => /^window-.+\.json$/.test(f))
        .map((f) => path.join(state, f))
    : [];
}

/** The one session under `home` with a transcript, by its file name. */
function sessionWithReply(home: string): string | undefined {
  const projects = path.join(home, ".claude", "projects");
  if (!existsSync(projects)) return undefined;
  const files = readdirSync(projects, { recursive: true, encoding: "utf8" }).filter((f) =>
    /^[0-9a-f-]{36}\.jsonl$/.test(path.basename(f)),
  );
  return files.length === 1 ? path.basename(files[0] as string, ".jsonl") : undefined;
}

/**
 * The session's own request for `prompt` (it carries the tools), not the side request 2.1.197
 * makes from a new prompt to title the session.
 */
function turnFor(model: LoopbackModel, from: number, prompt: string): MessagesBody | undefined {
  return model
    .messageBodies()
    .slice(from)
    .find(
      (b) => Array.isArray(b["tools"]) && b["tools"].length > 0 && lastUserText(b).includes(prompt),
    );
}

interface Session {
  env: { home: string; project: string };
  model: LoopbackModel;
  client: PtyClient;
  sid: string;
  recordFile: string;
  record: Record<string, unknown>;
  pending: string;
  started: number;
}

/**
 * Install as a person would (the installer's command line: no flags, or `--no-statusline` with
 * `optOut`), start the client interactively with `--model <modelFlag>`, wait for the recorder's
 * first write (for the prompt box without a recorder), then send one prompt whose reply puts the
 * context at 160k. `ownStatusLine`: the person's status line, there before the install.
 */
async function openSession(
  modelFlag: string,
  opts: { ownStatusLine?: string; optOut?: boolean } = {},
): Promise<Session> {
  const { ownStatusLine, optOut } = opts;
  const env = tempProject("quoin-e2e-statusline-");
  if (ownStatusLine) {
    mkdirSync(path.join(env.home, ".claude"));
    writeFileSync(
      path.join(env.home, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command: ownStatusLine } }),
    );
  }
  const install = spawnSync(
    process.execPath,
    [path.join(DIST, "bin.cjs"), "install", ...(optOut ? ["--no-statusline"] : [])],
    {
      cwd: env.project,
      env: { PATH: process.env["PATH"], HOME: env.home, TZ: "UTC" },
      encoding: "utf8",
    },
  );
  expect(install.status, install.stderr).toBe(0);
  const settings = JSON.parse(
    readFileSync(path.join(env.home, ".claude", "settings.json"), "utf8"),
  ) as { statusLine?: { command?: string } };
  if (optOut) expect(settings.statusLine).toBeUndefined();
  else
    expect(settings.statusLine?.command).toMatch(
      ownStatusLine ? /statusline\.cjs"? --quiet --wrap '/ : /statusline\.cjs"? --quiet$/,
    );
  skipFirstRunDialogs(env.home, env.project, API_KEY);
  // A killed client leaves its temp files: they go to a folder of this test's own.
  const tmp = path.join(env.home, "tmp");
  mkdirSync(tmp);
  const model = await startLoopbackModel(() => ({ kind: "text", text: "ok", usage: USAGE }));
  const started = Date.now();
  const client = startPtyClient({
    home: env.home,
    cwd: env.project,
    baseUrl: model.url,
    apiKey: API_KEY,
    args: ["--model", modelFlag],
    env: { TMPDIR: tmp },
  });
  try {
    // The first draw, before any prompt: the recorder writes the window the client reports.
    // Without a recorder: the welcome box, drawn with the prompt box, names the model.
    if (optOut) await client.waitFor("the welcome box", () => client.showed("Sonnet 4.5"), 30_000);
    else
      await client.waitFor(
        "the recorder wrote the window",
        () => windowRecords(env.home).length === 1,
        30_000,
      );
    const recordFile = windowRecords(env.home)[0] ?? "";
    const record = recordFile
      ? (JSON.parse(readFileSync(recordFile, "utf8")) as Record<string, unknown>)
      : {};
    await client.submit("hello-there");
    let sid = /window-(.+)\.json$/.exec(recordFile)?.[1] ?? "";
    await client.waitFor(
      "the first reply's usage reached the transcript",
      () => {
        sid ||= sessionWithReply(env.home) ?? "";
        const t = sid ? transcriptOf(env.home, sid) : undefined;
        return t !== undefined && readFileSync(t, "utf8").includes(IN_TRANSCRIPT);
      },
      30_000,
    );
    const pending = path.join(
      env.project,
      ".workflow_artifacts",
      "memory",
      `pending-prompt-${sid}.txt`,
    );
    return { env, model, client, sid, recordFile, record, pending, started };
  } catch (err) {
    await client.stop();
    await model.close();
    throw err;
  }
}

/** The installed prompt hook's answer for this session with the record gone, as under `claude -p`. */
function answerWithoutRecord(s: Session, prompt: string) {
  rmSync(s.recordFile);
  const hook = runBundle(
    path.join(s.env.home, ".claude", "quoin-checkpoint", "hooks", "userpromptsubmit.cjs"),
    [],
    {
      cwd: s.env.project,
      env: { HOME: s.env.home },
      input: JSON.stringify({
        session_id: s.sid,
        transcript_path: transcriptOf(s.env.home, s.sid),
        cwd: s.env.project,
        hook_event_name: "UserPromptSubmit",
        prompt,
        permission_mode: "default",
      }),
    },
  );
  expect(hook.status).toBe(0);
  return JSON.parse(hook.stdout) as {
    decision?: string;
    systemMessage?: string;
    hookSpecificOutput?: { additionalContext?: string };
  };
}

const ASSUMED =
  "context 160k of 167k (95.8%); window 200k (assumed; claude-sonnet-4-5 offers 200k or 1M)";

describe(`e2e: the default install's status-line recorder makes the window known (${E2E_CLIENT} client, interactive)`, () => {
  it("claude-sonnet-4-5 at 200k: recorded at the first draw, then a prompt at 95.8% is held", async () => {
    const s = await openSession("claude-sonnet-4-5");
    try {
      expect(s.record).toMatchObject({ context_window_size: 200_000, model: "claude-sonnet-4-5" });
      const held = "deploy-to-production";
      await s.client.submit(held);
      await s.client.waitFor(
        "the prompt hook held the prompt",
        () => existsSync(s.pending) && s.client.showed("Prompt held"),
        30_000,
      );
      expect(s.client.showed("context 160k of 167k (95.8%); window 200k (the status line)")).toBe(
        true,
      );
      expect(readFileSync(s.pending, "utf8")).toContain(held);
      expect(s.model.messageBodies().some((b) => lastUserText(b).includes(held))).toBe(false);
      // The recorder is invisible: no gauge of its own on the screen.
      expect(s.client.screen()).not.toMatch(/ctx \d+k of/);
      await s.client.stop();
      // The same session and numbers without the record: the prompt goes through with advice.
      const answer = answerWithoutRecord(s, `${held}-again`);
      expect(answer.decision).toBeUndefined();
      expect(answer.hookSpecificOutput?.additionalContext).toContain(ASSUMED);
      expect(answer.hookSpecificOutput?.additionalContext).toContain(
        "the prompt went through because the window is assumed",
      );
      expect(answer.systemMessage?.length).toBeLessThanOrEqual(200);
      expect(readFileSync(s.pending, "utf8")).not.toContain(`${held}-again`);
    } finally {
      await s.client.stop();
      await s.model.close();
    }
  }, 90_000);

  it("claude-sonnet-4-5[1m]: the status line reports 1M, so 160k is quiet (assumed, it was 95.8% of 200k)", async () => {
    const s = await openSession("claude-sonnet-4-5[1m]");
    try {
      // The status line's model id keeps [1m], which no hook payload and no request carries.
      expect(s.record).toMatchObject({
        context_window_size: 1_000_000,
        model: "claude-sonnet-4-5[1m]",
      });
      const quiet = "next-step-please";
      const before = s.model.messageBodies().length;
      await s.client.submit(quiet);
      await s.client.waitFor(
        "the prompt reached the model",
        () => turnFor(s.model, before, quiet) !== undefined,
        30_000,
      );
      const sent = turnFor(s.model, before, quiet);
      expect(requestText(sent)).not.toContain("[quoin-checkpoint]");
      expect(existsSync(s.pending)).toBe(false);
      await s.client.stop();
      const answer = answerWithoutRecord(s, `${quiet}-again`);
      expect(answer.hookSpecificOutput?.additionalContext).toContain(ASSUMED);
      expect(answer.systemMessage).toMatch(/^\[quoin\] context 160k of 167k \(95\.8%\)/);
    } finally {
      await s.client.stop();
      await s.model.close();
    }
  }, 90_000);

  it("the person's own status line, wrapped: drawn as their command prints it, the window recorded all the same", async () => {
    // Their line reads the stdin the client gives it: the model's display name.
    const own = `sed -n 's/.*"display_name":"\\([^"]*\\)".*/mine: \\1/p'`;
    const s = await openSession("claude-sonnet-4-5", { ownStatusLine: own });
    try {
      expect(s.record).toMatchObject({ context_window_size: 200_000 });
      expect(s.client.showed("mine: Sonnet 4.5")).toBe(true);
      expect(s.client.screen()).not.toMatch(/ctx \d+k of/);
    } finally {
      await s.client.stop();
      await s.model.close();
    }
  }, 90_000);

  it("installed with --no-statusline: nothing recorded, the same prompt goes through, the person told in one line", async () => {
    const s = await openSession("claude-sonnet-4-5", { optOut: true });
    try {
      const sent = "deploy-to-production";
      const before = s.model.messageBodies().length;
      await s.client.submit(sent);
      await s.client.waitFor(
        "the prompt reached the model",
        () => turnFor(s.model, before, sent) !== undefined,
        30_000,
      );
      // The model is told; the person sees one short line.
      expect(requestText(turnFor(s.model, before, sent))).toContain(ASSUMED);
      await s.client.waitFor("the person's line", () => s.client.showed("sent, not held"), 10_000);
      expect(windowRecords(s.env.home)).toEqual([]);
      expect(existsSync(s.pending)).toBe(false);
    } finally {
      await s.client.stop();
      await s.model.close();
    }
  }, 90_000);
});
