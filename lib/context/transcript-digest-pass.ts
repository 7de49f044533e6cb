import { isRecord as isObj } from "../core/value-checks.ts";
import { isApiErrorText, type LastWord } from "./transcript-handover.ts";
import { lineText, resultText, str, type Line } from "./transcript-digest-line.ts";
import type { PlacedWord } from "./transcript-digest-line.ts";
import { HookLog } from "./transcript-digest-hooks.ts";
import {
  isInjectedUserLine,
  RequestLog,
  typedText,
  userLineText,
} from "./transcript-digest-requests.ts";

// The one pass over the lines, oldest first: the requests, the model's text replies, every tool
// call with its outcome, the newest compaction summary and the last timestamp. What the calls add
// up to (files, todos, failures, commits) is settled afterwards, in call order.

export interface DigestOptions {
  projectRoot: string;
  sessionId?: string;
  /** recorded in `summary.transcript`; the reader passes the file it read */
  transcriptPath?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  at: string | null;
  /** from a subagent's line: counts for commits only */
  subagent: boolean;
}
export interface ToolOutcome {
  isError: boolean;
  text: string;
  rejected: boolean;
  /** the line's top-level toolUseResult (TaskCreate's carries the new task's id) */
  result: unknown;
}

const REJECTED = "The user doesn't want to proceed";

export interface Pass {
  opts: DigestOptions;
  requests: RequestLog;
  calls: ToolCall[];
  outcomes: Map<string, ToolOutcome>;
  summary: { transcript: string; uuid: string } | null;
  afterBoundary: boolean;
  lastAt: string | null;
  words: LastWord[];
  /** the same replies with the number of tool calls made before each (to place them among the calls) */
  placed: PlacedWord[];
  /** what the session's PostToolUse hooks told the model after each call */
  hooks: HookLog;
}

export function newPass(opts: DigestOptions): Pass {
  return {
    opts,
    requests: new RequestLog(),
    calls: [],
    outcomes: new Map(),
    summary: null,
    afterBoundary: false,
    lastAt: null,
    words: [],
    placed: [],
    hooks: new HookLog(),
  };
}

function onAssistant(p: Pass, e: Line, at: string | null, subagent: boolean): void {
  const message = e["message"];
  const content = isObj(message) ? message["content"] : null;
  if (!Array.isArray(content)) return;
  const apiError = e["isApiErrorMessage"] === true;
  for (const b of content) {
    if (!isObj(b)) continue;
    if (b["type"] === "text" && !subagent && !apiError) {
      const text = str(b["text"]);
      if (text !== null && text.trim() !== "" && !isApiErrorText(text)) {
        p.words.push({ text, at });
        p.placed.push({ text, afterCalls: p.calls.length });
      }
    }
    if (b["type"] !== "tool_use") continue;
    const id = str(b["id"]);
    const name = str(b["name"]);
    if (id === null || name === null) continue;
    if (subagent && name !== "Bash") continue;
    p.calls.push({ id, name, input: isObj(b["input"]) ? b["input"] : {}, at, subagent });
  }
}

function onUser(p: Pass, e: Line, at: string | null, subagent: boolean): void {
  if (
    !subagent &&
    p.afterBoundary &&
    e["isCompactSummary"] === true &&
    typeof e["uuid"] === "string"
  ) {
    p.summary = { transcript: p.opts.transcriptPath ?? "", uuid: e["uuid"] };
    p.afterBoundary = false;
    return;
  }
  const message = e["message"];
  const content = isObj(message) ? message["content"] : null;
  if (Array.isArray(content)) {
    for (const b of content) {
      if (!isObj(b) || b["type"] !== "tool_result") continue;
      const id = str(b["tool_use_id"]);
      if (id === null) continue;
      const text = resultText(b);
      p.outcomes.set(id, {
        isError: b["is_error"] === true,
        text,
        rejected: text.startsWith(REJECTED),
        result: e["toolUseResult"],
      });
    }
  }
  if (subagent) return;
  if (isInjectedUserLine(e)) {
    const text = lineText(e);
    if (text !== null) p.requests.injected(text);
    return;
  }
  const typed = userLineText(e);
  if (typed !== null) p.requests.typed(typed, at, str(e["uuid"]));
}

export function onLine(p: Pass, e: Line): void {
  const at = str(e["timestamp"]);
  const type = e["type"];
  const subagent = e["isSidechain"] === true;
  if (type === "assistant") onAssistant(p, e, at, subagent);
  else if (type === "user") onUser(p, e, at, subagent);
  else if (subagent) return;
  else if (type === "system" && e["subtype"] === "compact_boundary") {
    p.afterBoundary = true;
    p.summary = null;
  } else if (type === "attachment") p.hooks.attachment(e);
  else if (type === "progress") p.hooks.progress(e);
  else if (type === "queue-operation") {
    if (e["operation"] === "popAll") p.requests.poppedAll();
    const content = str(e["content"]);
    const typed = e["operation"] === "enqueue" && content !== null ? typedText(content) : null;
    if (typed !== null) p.requests.enqueued(typed, at);
  }
  if (at !== null) p.lastAt = at;
}
