import { isRecord as isObj } from "../core/value-checks.ts";
import { resultText, type Line } from "./transcript-digest-line.ts";

// What the bounded reader keeps of a line while it reads a 32 MB window: only the fields the
// digest's pass reads, the long texts clipped.

const TEXT_KEEP = 16 * 1024;
/** A tool result keeps its head and its tail: test summaries and `[branch hash]` lines are at the end. */
const RESULT_HEAD_KEEP = 1024;
const RESULT_TAIL_KEEP = 3 * 1024;
const COMMAND_KEEP = 1024;
/** The only tool-input keys the digest reads (file contents and old/new strings are dropped; a description is clipped). */
const INPUT_KEYS = [
  "file_path",
  "notebook_path",
  "path",
  "command",
  "todos",
  "subject",
  "status",
  "taskId",
  "description",
] as const;
const ENVELOPE_KEYS = [
  "type",
  "subtype",
  "operation",
  "timestamp",
  "sessionId",
  "isSidechain",
  "uuid",
  "isMeta",
  "isCompactSummary",
  "isVisibleInTranscriptOnly",
  "promptSource",
  "wakeupSource",
  "isApiErrorMessage",
  "toolUseID",
  "parentToolUseID",
] as const;

const clip = (v: unknown, max: number): unknown =>
  typeof v === "string" && v.length > max ? v.slice(0, max) : v;

function headAndTail(text: string): string {
  if (text.length <= RESULT_HEAD_KEEP + RESULT_TAIL_KEEP) return text;
  return `${text.slice(0, RESULT_HEAD_KEEP)}\n...\n${text.slice(-RESULT_TAIL_KEEP)}`;
}

/** The model's replies are cut to 300 characters for the last words: this much of each is kept. */
const REPLY_KEEP = 1024;

function shrinkBlock(b: unknown, textKeep: number): Line | null {
  if (!isObj(b)) return null;
  if (b["type"] === "text") return { type: "text", text: clip(b["text"], textKeep) };
  if (b["type"] === "tool_result")
    return {
      type: "tool_result",
      tool_use_id: b["tool_use_id"],
      is_error: b["is_error"],
      content: headAndTail(resultText(b)),
    };
  if (b["type"] !== "tool_use") return null;
  const input: Line = {};
  const src = isObj(b["input"]) ? b["input"] : {};
  for (const k of INPUT_KEYS)
    if (src[k] !== undefined)
      input[k] = k === "command" || k === "description" ? clip(src[k], COMMAND_KEEP) : src[k];
  return { type: "tool_use", id: b["id"], name: b["name"], input };
}

/** TaskCreate's result object is kept (it carries the new id); any other result is only marked present. */
function shrinkToolUseResult(r: unknown): unknown {
  if (r === undefined) return undefined;
  return isObj(r) && isObj(r["task"]) ? { task: { id: r["task"]["id"] } } : true;
}

/** A hook's attachment: its kind, event and call, and the start of what it told the model. */
function shrinkHookAttachment(a: unknown): unknown {
  if (!isObj(a)) return undefined;
  const b = isObj(a["blockingError"]) ? a["blockingError"] : null;
  const content = a["content"];
  return {
    type: a["type"],
    hookEvent: a["hookEvent"],
    toolUseID: a["toolUseID"],
    ...(b
      ? {
          blockingError: {
            blockingError: clip(b["blockingError"], RESULT_HEAD_KEEP),
            command: clip(b["command"], COMMAND_KEEP),
          },
        }
      : {}),
    ...(Array.isArray(content)
      ? { content: content.slice(0, 4).map((c) => clip(c, RESULT_HEAD_KEEP)) }
      : {}),
  };
}

/**
 * What the digest reads of one entry, nothing more: envelope flags, typed text, tool_use names and
 * the inputs named above, tool_result error flags with the start of their text. Lets the bounded
 * reader hold a 32 MB window as a few MB of objects.
 */
export function shrinkEntry(e: Line): Line {
  const out: Line = {};
  for (const k of ENVELOPE_KEYS) if (e[k] !== undefined) out[k] = e[k];
  if (e["type"] === "queue-operation") out["content"] = clip(e["content"], TEXT_KEEP);
  if (e["type"] === "attachment") out["attachment"] = shrinkHookAttachment(e["attachment"]);
  if (e["type"] === "progress" && isObj(e["data"]))
    out["data"] = {
      type: e["data"]["type"],
      hookEvent: e["data"]["hookEvent"],
      command: clip(e["data"]["command"], COMMAND_KEEP),
    };
  if (e["type"] !== "user" && e["type"] !== "assistant") return out;
  const message = e["message"];
  const content = isObj(message) ? message["content"] : null;
  if (typeof content === "string") out["message"] = { content: clip(content, TEXT_KEEP) };
  else if (Array.isArray(content))
    out["message"] = {
      content: content
        .map((b) => shrinkBlock(b, e["type"] === "assistant" ? REPLY_KEEP : TEXT_KEEP))
        .filter((b) => b !== null),
    };
  const result = shrinkToolUseResult(e["toolUseResult"]);
  if (result !== undefined) out["toolUseResult"] = result;
  return out;
}
