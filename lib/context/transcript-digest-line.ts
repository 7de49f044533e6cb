import { isRecord as isObj } from "../core/value-checks.ts";

// One transcript line as the digest reads it: parsed loosely (a field of the wrong type is absent),
// whose it is (this session, main chain or subagent), and the text of its message or tool result.

export type Line = Record<string, unknown>;

export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** One transcript line as an object, or null for a partial write or garbage. */
export function parseLine(line: string): Line | null {
  if (line === "") return null;
  try {
    const v: unknown = JSON.parse(line);
    return isObj(v) ? v : null;
  } catch {
    return null; // a partial write or garbage: skip it
  }
}

/** Main chain of this session only: sidechain (subagent) lines and other sessions' lines are not ours. */
export function ours(e: Line, sessionId: string | undefined): boolean {
  if (e["isSidechain"] === true) return false;
  return ofSession(e, sessionId);
}

/** A line of this session, main chain or subagent (a subagent's lines count for its commits only). */
export function ofSession(e: Line, sessionId: string | undefined): boolean {
  const sid = e["sessionId"];
  return sessionId === undefined || typeof sid !== "string" || sid === sessionId;
}

/** A user line's text (a string, or its text blocks joined); null for tool results. */
export function lineText(e: Line): string | null {
  const message = e["message"];
  if (!isObj(message)) return null;
  const content = message["content"];
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  if (content.some((b) => isObj(b) && b["type"] === "tool_result")) return null;
  const texts = content
    .filter((b) => isObj(b) && b["type"] === "text")
    .map((b) => str((b as Line)["text"]) ?? "");
  return texts.length ? texts.join("\n") : null;
}

/** The text of a tool_result block (a string, or its blocks' text joined). */
export function resultText(block: Line): string {
  const c = block["content"];
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b) => (isObj(b) ? (str(b["text"]) ?? "") : "")).join("\n");
  return "";
}

/** The model's text reply and how many tool calls came before it (the pass records both). */
export interface PlacedWord {
  text: string;
  afterCalls: number;
}
