import { firstLineOf, parseSections, sectionBody } from "../core/markdown-sections.ts";
import type { SessionStateFile } from "./memory-listing.ts";
import { intentFromUnfinished, taskFromSessionFileName } from "../store/session-state.ts";
import { utcHuman } from "../core/time-format.ts";

/**
 * What B3 (the seed's session-state synthesis, Tier 4) offers and, on yes, restores: the freshest
 * session-state file in place of a checkpoint.
 */
export interface B3Synthesis {
  file: string;
  name: string;
  mtime: string;
  task: string;
  currentStage: string;
  branch: string;
  intent: string;
  openQuestions?: string;
}

const B3_BRANCH = "(unknown - session-state has no branch field)";

// The seed's awk: the first non-heading, non-blank line under `## Current stage`.
function firstContentLine(body: string | undefined): string | undefined {
  return body
    ?.split("\n")
    .find((l) => l.trim() !== "" && !l.startsWith("#"))
    ?.trim();
}

/** B3 session-state fallback: task from the FILE NAME (the heading is rarely present), intent stripped of glyphs. */
export function synthesizeFromSessionState(s: SessionStateFile): B3Synthesis {
  const sections = parseSections(s.text);
  const open = sectionBody(sections, "Open questions")?.trim();
  return {
    file: s.path,
    name: s.name,
    mtime: utcHuman(new Date(s.mtimeMs)),
    task: taskFromSessionFileName(s.name),
    currentStage: firstContentLine(sectionBody(sections, "Current stage")) ?? "(stage unknown)",
    branch: B3_BRANCH,
    intent:
      intentFromUnfinished(sectionBody(sections, "Unfinished work")) ??
      firstLineOf(sectionBody(sections, "Current stage")) ??
      "(none)",
    openQuestions: open && open !== "(none)" ? open : undefined,
  };
}

export function b3Offer(b: B3Synthesis): string[] {
  return [
    "No usable checkpoint to auto-pick, but a recent session-state file exists:",
    `  ${b.name}  (mtime: ${b.mtime})`,
    `  Active task: ${b.task}`,
    `  Current stage: ${b.currentStage}`,
    "Synthesize a minimal restore from session-state only? [y / n]",
  ];
}
