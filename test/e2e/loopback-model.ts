import { spawn } from "node:child_process";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so the real Claude Code client
// (node_modules/.bin/claude) runs offline in tests. The client sends every request to ANTHROPIC_BASE_URL, so no traffic leaves the machine.
// Every request is recorded; a responder decides each reply (text, or a tool_use block that makes
// the client run a tool and come back with its result).

export interface Usage {
  input_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens?: number;
}

export type ScriptedReply =
  | { kind: "text"; text: string; usage?: Usage }
  | {
      kind: "tool_use";
      name: string;
      input: Record<string, unknown>;
      text?: string;
      usage?: Usage;
    };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** parsed JSON body (POST /v1/messages), else undefined */
  body: MessagesBody | undefined;
}

export interface MessagesBody {
  model?: string;
  system?: unknown;
  messages?: Array<{ role: string; content: unknown }>;
  stream?: boolean;
  [key: string]: unknown;
}

/** Called for each POST /v1/messages; `index` counts those requests from 0. */
export type Responder = (body: MessagesBody, index: number) => ScriptedReply;

export interface LoopbackModel {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** only the POST /v1/messages bodies, in order */
  messageBodies: () => MessagesBody[];
  close: () => Promise<void>;
}

const DEFAULT_USAGE: Usage = {
  input_tokens: 1200,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  output_tokens: 20,
};

/** All the text a request carries (system prompt, every message, tool results), for assertions. */
export function requestText(body: MessagesBody | undefined): string {
  if (!body) return "";
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const key of ["text", "content", "input"]) if (key in o) walk(o[key]);
    }
  };
  walk(body.system);
  walk(body.messages);
  return out.join("\n");
}

/**
 * The text of the newest user turn: the last user message's blocks (tool results included).
 * 2.1.332 may put a `role: "system"` message after it (the model's name, tokens left, "The user
 * hasn't heard from you in a while"); 2.1.197's requests in these tests end with the user turn.
 */
export function lastUserText(body: MessagesBody): string {
  const last = (body.messages ?? []).filter((m) => m.role === "user").at(-1);
  return last ? requestText({ messages: [last] }) : "";
}

function sse(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function writeReply(
  res: http.ServerResponse,
  model: string,
  reply: ScriptedReply,
  n: number,
): void {
  const usage = { ...DEFAULT_USAGE, ...reply.usage };
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  sse(res, "message_start", {
    type: "message_start",
    message: {
      id: `msg_loopback_${n}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
        output_tokens: 1,
      },
    },
  });
  let index = 0;
  const text = reply.kind === "text" ? reply.text : reply.text;
  if (text) {
    sse(res, "content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "text", text: "" },
    });
    sse(res, "content_block_delta", {
      type: "content_block_delta",
      index,
      delta: { type: "text_delta", text },
    });
    sse(res, "content_block_stop", { type: "content_block_stop", index });
    index += 1;
  }
  if (reply.kind === "tool_use") {
    sse(res, "content_block_start", {
      type: "content_block_start",
      index,
      content_block: {
        type: "tool_use",
        id: `toolu_loopback_${n}_${index}`,
        name: reply.name,
        input: {},
      },
    });
    sse(res, "content_block_delta", {
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(reply.input) },
    });
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  }
  sse(res, "message_delta", {
    type: "message_delta",
    delta: {
      stop_reason: reply.kind === "tool_use" ? "tool_use" : "end_turn",
      stop_sequence: null,
    },
    usage: { output_tokens: usage.output_tokens ?? 20 },
  });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

const STUCK_REPEATS = 12;

export async function startLoopbackModel(responder: Responder): Promise<LoopbackModel> {
  const requests: RecordedRequest[] = [];
  let count = 0;
  // A script whose condition never matches repeats one tool call until the test times out; stop it
  // after STUCK_REPEATS identical calls so the run ends at once with a text that names the cause.
  let lastCall = "";
  let repeats = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: MessagesBody | undefined;
      try {
        body = raw ? (JSON.parse(raw) as MessagesBody) : undefined;
      } catch {
        body = undefined;
      }
      const url = req.url ?? "/";
      requests.push({ method: req.method ?? "", url, headers: req.headers, body });
      if (req.method === "POST" && url.startsWith("/v1/messages/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 1000 }));
        return;
      }
      if (req.method === "POST" && url.startsWith("/v1/messages")) {
        const n = count++;
        let reply: ScriptedReply;
        try {
          reply = responder(body ?? {}, n);
        } catch (err) {
          reply = { kind: "text", text: `loopback responder failed: ${(err as Error).message}` };
        }
        const call = reply.kind === "tool_use" ? JSON.stringify(reply.input) : "";
        repeats = call !== "" && call === lastCall ? repeats + 1 : 0;
        lastCall = call;
        if (repeats >= STUCK_REPEATS)
          reply = {
            kind: "text",
            text: `loopback: the script sent one tool call ${STUCK_REPEATS + 1} times in a row (stuck)`,
          };
        if (body?.stream === false) {
          res.writeHead(200, { "content-type": "application/json" });
          const content =
            reply.kind === "text"
              ? [{ type: "text", text: reply.text }]
              : [{ type: "tool_use", id: `toolu_${n}`, name: reply.name, input: reply.input }];
          res.end(
            JSON.stringify({
              id: `msg_${n}`,
              type: "message",
              role: "assistant",
              model: body.model,
              content,
              stop_reason: reply.kind === "text" ? "end_turn" : "tool_use",
              usage: { ...DEFAULT_USAGE, ...reply.usage },
            }),
          );
          return;
        }
        writeReply(res, body?.model ?? "claude-loopback", reply, n);
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    messageBodies: () =>
      requests
        .filter(
          (r) =>
            r.method === "POST" &&
            r.url.startsWith("/v1/messages") &&
            !r.url.includes("count_tokens"),
        )
        .map((r) => r.body ?? {}),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The two clients the e2e suite runs on, each its own devDependency: the oldest supported (the
 * package's own name) and the newest (an npm alias). NOTE: both packages declare the bin `claude`,
 * so node_modules/.bin/claude is whichever npm linked last; the binary is found by package path.
 */
export const E2E_CLIENTS = {
  oldest: { pkg: "@anthropic-ai/claude-code", version: "2.1.197" },
  newest: { pkg: "claude-code-newest", version: "2.1.332" },
} as const;
export type E2eClient = keyof typeof E2E_CLIENTS;

/** QUOIN_E2E_CLIENT=newest (vitest.config.ts's claude-2.1.332 project) picks 2.1.332; else 2.1.197. */
export const E2E_CLIENT: E2eClient =
  process.env["QUOIN_E2E_CLIENT"] === "newest" ? "newest" : "oldest";

export const CLAUDE_BIN = path.resolve(
  import.meta.dirname,
  "..",
  "..",
  "node_modules",
  ...E2E_CLIENTS[E2E_CLIENT].pkg.split("/"),
  "bin",
  "claude.exe",
);

export interface ClaudeRun {
  /** the client process this run spawned */
  pid: number;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Run the real client headless against a loopback model: HOME isolates ~/.claude, no traffic
 * leaves the machine. `args` go after `-p`; put flags that take several values last, with `=`.
 */
export function runClaude(opts: {
  home: string;
  cwd: string;
  baseUrl: string;
  args: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ClaudeRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const env: Record<string, string> = {};
    for (const key of ["PATH", "LANG", "TERM", "TZ", "SHELL", "USER", "LOGNAME", "TMPDIR"]) {
      const v = process.env[key];
      if (v !== undefined) env[key] = v;
    }
    Object.assign(env, {
      HOME: opts.home,
      ANTHROPIC_BASE_URL: opts.baseUrl,
      ANTHROPIC_API_KEY: "x",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      ...opts.env,
    });
    const child = spawn(CLAUDE_BIN, ["-p", ...opts.args], {
      cwd: opts.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 90_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ pid: child.pid ?? 0, code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
