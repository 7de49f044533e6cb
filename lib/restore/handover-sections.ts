import { firstLineOf, sectionBody } from "../core/markdown-sections.ts";
import type { ParsedCheckpoint } from "../store/checkpoint-format.ts";
import { isCuratedStatus } from "../store/checkpoint-status.ts";

// The handover sections (what was happening, beyond the files touched) as a restore reads them
// back (the on-disk contract shared with the writers): `## Head`, `## Last words`,
// `## Uncommitted`, and the marks on `## Completed this session` bullets. A checkpoint without them
// (every older one) reads as "not recorded".

export interface LastWord {
  /** the bullet's time, `2026-12-01T10:04Z`, or null when the bullet has none */
  at: string | null;
  text: string;
}

export interface UncommittedFile {
  path: string;
  kind: string;
}

export interface Handover {
  /** the 40-hex HEAD at save time; null for `(none)`; undefined when not recorded (older checkpoint) */
  head: string | null | undefined;
  lastWords: LastWord[];
  /** `## Progress`: what the model said it finished and the tracker items it closed, newest last */
  progress: LastWord[];
  /** undefined when the checkpoint has no `## Uncommitted` section */
  uncommitted: UncommittedFile[] | undefined;
}

const bulletsOf = (body: string | undefined): string[] =>
  (body ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[-*]\s+/.test(l))
    .map((l) => l.replace(/^[-*]\s+/, "").trim());

export function parseHandover(p: ParsedCheckpoint): Handover {
  const get = (t: string) => sectionBody(p.sections, t);
  const headBody = get("Head");
  const headLine = firstLineOf(headBody)?.trim();
  const head =
    headBody === undefined || headLine === undefined
      ? undefined
      : /^[0-9a-f]{40}$/i.test(headLine)
        ? headLine.toLowerCase()
        : headLine === "(none)"
          ? null
          : undefined;
  const timed = (title: string) =>
    bulletsOf(get(title))
      .filter((b) => b !== "(none)")
      .map((b) => {
        const m = /^(\d{4}-\d{2}-\d{2}T[0-9:.]+Z?)\s+(.*)$/.exec(b);
        return m ? { at: m[1]!, text: m[2]! } : { at: null, text: b };
      });
  const lastWords = timed("Last words");
  const progress = timed("Progress");
  const unBody = get("Uncommitted");
  const uncommitted =
    unBody === undefined
      ? undefined
      : bulletsOf(unBody).flatMap((b) => {
          const m = /^(.*\S)\s+\(([a-z]+)\)$/.exec(b);
          return m ? [{ path: m[1]!, kind: m[2]! }] : b === "(none)" ? [] : [{ path: b, kind: "" }];
        });
  return { head, lastWords, progress, uncommitted };
}

/** A commit bullet's subject without the writer's marks, and what they said. */
export function commitMarks(subject: string): {
  subject: string;
  subagent: boolean;
  rebasedFrom: string | null;
  notInClone: boolean;
} {
  let s = subject.trim();
  const subagent = / \[subagent\]$/.test(s);
  if (subagent) s = s.replace(/\s*\[subagent\]$/, "");
  const rebased = /\s*\(rebased from ([0-9a-f]{4,40})\)$/i.exec(s);
  if (rebased) s = s.slice(0, rebased.index);
  const notInClone = /\s*\(not in this clone\)$/.test(s);
  if (notInClone) s = s.replace(/\s*\(not in this clone\)$/, "");
  return { subject: s.trim(), subagent, rebasedFrom: rebased?.[1] ?? null, notInClone };
}

export type CheckpointKind =
  | { kind: "curated"; line: string }
  | { kind: "automatic"; line: string };

/** What kind of checkpoint this is, from its `## Status` line; the first line of the brief. */
export function checkpointKind(status: string | undefined): CheckpointKind {
  const s = status ?? "";
  if (isCuratedStatus(s) || /\bcurated\b|\bvoluntary\b/i.test(s))
    return {
      kind: "curated",
      line: "Checkpoint kind: curated (/checkpoint): it holds the model's own notes (done, in progress, next up).",
    };
  const why = /precompact/i.test(s)
    ? "PreCompact"
    : /forced/i.test(s)
      ? "forced save"
      : /session end/i.test(s)
        ? "session end"
        : s
          ? s.replace(/^checkpoint save \(?|\)$/g, "") || "hook"
          : "status not recorded";
  return {
    kind: "automatic",
    line: `Checkpoint kind: automatic (${why}): no notes of the model; the last words and commits are the record.`,
  };
}
