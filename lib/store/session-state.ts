import * as path from "node:path";
import { firstLineOf, parseSections, sectionBody } from "../core/markdown-sections.ts";

/** A session-state file (sessions/<YYYY-MM-DD>-<task>.md), written by other tools and read here. */
export interface SessionState {
  task: string;
  phase?: string;
  currentStage?: string;
  sessionUuid?: string;
  openQuestions?: string;
  decisions?: string;
  unfinished?: string;
}

/** Task from the file name: strip the YYYY-MM-DD- prefix and .md. */
export function taskFromSessionFileName(file: string): string {
  return path
    .basename(file)
    .replace(/\.md$/, "")
    .replace(/^\d{4}-\d{2}-\d{2}-/, "");
}

const UUID_LINE = /^\s*(?:-\s*)?Session UUID:\s*([A-Za-z0-9-]+)/im;

function sessionUuidOf(text: string): string | undefined {
  return UUID_LINE.exec(text)?.[1];
}

/** The seed's grep: a line `Session UUID: <sid>` or `- Session UUID: <sid>`, case-insensitive. */
export function mentionsSessionUuid(text: string, sid: string): boolean {
  const escaped = sid.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^([ \\t]*-[ \\t]*)?(Session UUID:[ \\t]*)${escaped}`, "im").test(text);
}

function meaningful(body: string | undefined): string | undefined {
  const t = body?.trim();
  return t && t !== "(none)" ? t : undefined;
}

export function parseSessionState(file: string, text: string): SessionState {
  const sections = parseSections(text);
  const cost = sectionBody(sections, "Cost") ?? "";
  const phase = /^\s*(?:-\s*)?Phase:\s*(.+?)\s*$/im.exec(cost)?.[1];
  return {
    task: taskFromSessionFileName(file),
    phase,
    currentStage: firstLineOf(sectionBody(sections, "Current stage")),
    sessionUuid: sessionUuidOf(text),
    openQuestions: meaningful(sectionBody(sections, "Open questions")),
    decisions: meaningful(sectionBody(sections, "Decisions made")),
    unfinished: meaningful(sectionBody(sections, "Unfinished work")),
  };
}

/**
 * B3 (session-state synthesis) intent: the first non-empty line of `## Unfinished work`, stripped
 * of a list glyph, a number, and one status glyph. "- 1. ⏳ T-04 wire up X" -> "T-04 wire up X".
 */
export function intentFromUnfinished(unfinished: string | undefined): string | undefined {
  const line = unfinished?.split("\n").find((l) => l.trim() !== "");
  if (!line) return undefined;
  const stripped = line
    .replace(/^\s*/, "")
    .replace(/^[-*]\s*/, "")
    .replace(/^\d+[.)]\s*/, "")
    .replace(/^(?:\u2713|\u2717|\u23F3|\u{1F6AB})\s*/u, "")
    .replace(/\s*$/, "");
  return stripped || undefined;
}
