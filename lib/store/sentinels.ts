import * as path from "node:path";
import { isUsableSessionId, SESSION_ID_PATTERN } from "../core/ids.ts";

/**
 * The one registry of sentinel families. Every writer, reader, sweep and test uses it.
 * Each sentinel is <memory>/<family>-<sid>.txt.
 */
export const SENTINEL_FAMILIES = [
  "pending-restore",
  "pending-prompt",
  "compact-happened",
  "postcompact-reset",
  "pending-resume-ref",
  "mid-agent-handoff",
  "checkpoint-defer",
  "idle-advisory-pending",
  // Written by the optional status-line command: the window size Claude Code reports.
  "context-window",
  // Per-session prompt count and start, only while a rotation budget is set.
  "rotation-budget",
  // The document a `save --ask-mode` was given, kept 10 minutes for `save --mode M --asked`.
  "asked-document",
  // Legacy: had no writer upstream; only swept.
  "checkpoint-pending-compact",
] as const;

export type SentinelFamily = (typeof SENTINEL_FAMILIES)[number];

export function sentinelName(family: SentinelFamily, sid: string): string {
  if (!isUsableSessionId(sid))
    throw new Error(
      `refusing to build a ${family} sentinel name from session id ${JSON.stringify(sid)}`,
    );
  return `${family}-${sid}.txt`;
}

/** How much of a sentinel is ever read: every sentinel this tool writes is a few lines. */
export const SENTINEL_HEAD_BYTES = 4096;

export function sentinelPath(memoryDir: string, family: SentinelFamily, sid: string): string {
  return path.join(memoryDir, sentinelName(family, sid));
}

// Longest family first so that "pending-restore" never claims a "pending-resume-ref" file.
const FAMILIES_BY_LENGTH = [...SENTINEL_FAMILIES].sort((a, b) => b.length - a.length);

/** Which family a file name in the memory folder belongs to, and whose it is. sid may be "" for orphans. */
export function parseSentinelName(name: string): { family: SentinelFamily; sid: string } | null {
  if (!name.endsWith(".txt")) return null;
  for (const family of FAMILIES_BY_LENGTH) {
    const prefix = `${family}-`;
    if (name.startsWith(prefix)) {
      const sid = name.slice(prefix.length, -".txt".length);
      if (sid !== "" && !SESSION_ID_PATTERN.test(sid)) return null;
      return { family, sid };
    }
  }
  return null;
}

/** key=value lines, as in compact-happened, pending-resume-ref, mid-agent-handoff. */
export function parseKeyValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

export function renderKeyValues(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v.replace(/[\r\n]+/g, " ")}`)
    .join("\n")
    .concat("\n");
}
