import { exactLine, firstLineOf, readExactLine } from "../core/markdown-sections.ts";
import {
  NO_ARTIFACTS,
  type InFlightArtifacts,
  type LastWord,
  type NextUp,
  type SectionValues,
} from "./checkpoint-values.ts";

// The lines a checkpoint's sections are made of, each written from a value and read back: the
// bullets, the "(none)" of an empty field, stored paths, the "+N more" counts, the model's cut
// lines, and the bodies of the head sections. The section table (checkpoint-sections.ts) uses them.

export const NONE = "(none)";
const NONE_FOUND = "(none found)";

/** Lines that are `- item` bullets (also `*` and `•`, as older and hand-written files use), their text trimmed. */
export function bulletItems(body: string | undefined): string[] {
  if (!body) return [];
  const out: string[] = [];
  for (const raw of body.split("\n")) {
    const m = /^[ \t]*[-*\u2022][ \t]+(\S.*)$/.exec(raw);
    if (m) out.push(m[1]!.trim());
  }
  return out;
}

/** A field's text, or null for "(none)" (and "(none found)", or nothing). */
export function noneToNull(body: string): string | null {
  const t = body.trim();
  return t === "" || t === NONE || t === NONE_FOUND ? null : t;
}

/** A path as stored: exactly (exactLine), or "(none found)"; read back, "(...)" is no path. */
export const storedPath = (p: string | null): string => (p ? exactLine(p) : NONE_FOUND);
export function pathOrNull(value: string | undefined): string | null {
  const v = value?.trim();
  return !v || v.startsWith("(") ? null : readExactLine(v);
}

/** `+12 more read files`: the count of the first such line with `noun`, 0 when none. */
export function moreCount(body: string, noun: string): number {
  for (const l of body.split("\n")) {
    const m = /^\+(\d+) more (.+)$/.exec(l.trim());
    if (m && m[2] === noun) return Number(m[1]);
  }
  return 0;
}

/** `+3 more decisions (cut to fit 6 KB)`: what the 6 KB fit took from a model field. */
export const cutLine = (n: number, noun: string) =>
  n ? [`+${n} more ${noun} (cut to fit 6 KB)`] : [];
/** A model field's body without its cut line, and the count that line gave. */
export function splitCut(body: string, noun: string): { lines: string[]; cut: number } {
  const lines = body.split("\n");
  const m = /^\+(\d+) more (.+) \(cut to fit 6 KB\)$/.exec(lines.at(-1)?.trim() ?? "");
  return m && m[2] === noun ? { lines: lines.slice(0, -1), cut: Number(m[1]) } : { lines, cut: 0 };
}

const PREREQ = /\s*\(?prerequisites met\?\s*(yes|no)\)?\s*$/i;
export const nextUpLine = (n: NextUp) =>
  `- ${n.item} (prerequisites met? ${n.prerequisitesMet ? "yes" : "no"})`;
export const parseNextUp = (item: string): NextUp => ({
  item: item.replace(PREREQ, "").trim(),
  prerequisitesMet: PREREQ.exec(item)?.[1]?.toLowerCase() === "yes",
});

/** A `- 2026-12-01T10:04Z text` line (last words, progress); the time is optional. */
export const wordLine = (w: LastWord) => `- ${w.at ? `${w.at} ` : ""}${w.text}`;
export function parseWords(body: string): LastWord[] {
  return bulletItems(body)
    .filter((b) => b !== NONE)
    .map((b) => {
      const m = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+Z?)\s+(.*)$/.exec(b);
      return m ? { at: m[1]!, text: m[2]! } : { at: null, text: b };
    });
}

const ARTIFACT_KEYS: [string, Exclude<keyof InFlightArtifacts, "sessionStateResolution">][] = [
  ["current-plan.md", "currentPlan"],
  ["architecture.md", "architecture"],
  ["latest critic-response", "criticResponse"],
  ["latest review", "review"],
  ["session-state", "sessionState"],
];

export const artifactsBody = (a: InFlightArtifacts) =>
  [
    ...ARTIFACT_KEYS.map(([label, k]) => `- ${label}: ${storedPath(a[k])}`),
    `- session-state-resolution: ${a.sessionStateResolution ?? NONE}`,
  ].join("\n");

export function parseArtifacts(body: string): InFlightArtifacts {
  const a: InFlightArtifacts = { ...NO_ARTIFACTS };
  for (const item of bulletItems(body)) {
    const colon = item.indexOf(":");
    if (colon < 0) continue;
    const key = item.slice(0, colon).trim().toLowerCase();
    const value = item.slice(colon + 1).trim();
    const field = ARTIFACT_KEYS.find(([k]) => k === key)?.[1];
    if (field) a[field] = pathOrNull(value);
    else if (key === "session-state-resolution")
      a.sessionStateResolution =
        value === "uuid-anchor" || value === "mtime-fallback" ? value : null;
  }
  return a;
}

const NOT_FOUND = /^- \(the transcript was not found at (.*)\)$/m;
export const sessionLinkBody = (v: SectionValues["sessionLink"]) =>
  (v.sessionId
    ? `- Resume: claude --resume ${v.sessionId}\n- JSONL: ~/.claude/projects/${v.projectHash}/${v.sessionId}.jsonl`
    : "- Resume: (session UUID unavailable)\n- JSONL: (session UUID unavailable)") +
  (v.missing ? `\n- (the transcript was not found at ${exactLine(v.missing)})` : "");
export function parseSessionLink(body: string): SectionValues["sessionLink"] {
  const m = /^- JSONL: ~\/\.claude\/projects\/(.*)\/([^/]*)\.jsonl$/m.exec(body);
  const missing = NOT_FOUND.exec(body)?.[1];
  return {
    ...(m ? { sessionId: m[2]!, projectHash: m[1]! } : { sessionId: null, projectHash: "" }),
    ...(missing !== undefined ? { missing: readExactLine(missing) } : {}),
  };
}

export const restoreHintBody = (v: SectionValues["restoreHint"]) =>
  `Run /checkpoint --restore in a fresh session to resume task '${v.task}' from branch '${exactLine(v.branch)}'.`;
export function parseRestoreHint(body: string): SectionValues["restoreHint"] {
  const m = /resume task '(.*)' from branch '(.*)'\.$/.exec(firstLineOf(body) ?? "");
  return m ? { task: m[1]!, branch: readExactLine(m[2]!) } : { task: "", branch: "" };
}
