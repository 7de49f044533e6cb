import {
  parseSections,
  sectionBody,
  unescapeBody,
  type Section,
} from "../core/markdown-sections.ts";
import type { Cuts, ModelField } from "./checkpoint-budget.ts";
import { parsedDigest, type ParsedDigest } from "./checkpoint-digest.ts";
import { SECTIONS, SECTION_KEYS, titleOf } from "./checkpoint-sections.ts";
import { kindOf, type CheckpointKind } from "./checkpoint-status.ts";
import {
  NO_ARTIFACTS,
  type CheckedCommit,
  type CheckpointValues,
  type CommitRef,
  type CutText,
  type InFlightArtifacts,
  type NextUp,
  type UncommittedFile,
} from "./checkpoint-values.ts";

// Reading a checkpoint file: every section the table knows, through its row, into
// ParsedCheckpoint, the one reader of a checkpoint file (old files and hand-made ones too: a
// missing section stays undefined, nothing throws).

export interface ParsedCheckpoint {
  /** every section as written (escapes undone), known or not */
  sections: Section[];
  /** the values of the sections the table knows: a key is here when its section is in the file */
  values: CheckpointValues;
  status?: string;
  currentStage?: string;
  /** the task line, first line, CR stripped; undefined when it cannot be parsed */
  task?: string;
  branch?: string;
  /** undefined when not recorded (older checkpoints), null when recorded as `(none)` */
  head?: string | null;
  /** undefined for legacy checkpoints without a session-id section; null when recorded as unknown */
  sessionId?: string | null;
  savedAt?: string;
  intent?: string;
  planFile: string | null;
  artifacts: InFlightArtifacts;
  artifactPaths: string[];
  commits: CommitRef[];
  /** the commits with their state (present, rebased, not in this clone, unchecked) */
  checkedCommits: CheckedCommit[];
  /** "N other commits since this session started"; null when not recorded */
  otherCommits: number | null;
  /** null when the checkpoint has no uncommitted section */
  uncommitted: UncommittedFile[] | null;
  done: string[];
  /** the model's free-text fields as written, a cut count line included */
  inProgress?: string;
  nextUp: NextUp[];
  blockers: string[];
  openQuestions?: string;
  decisions?: string;
  unfinished?: string;
  notes: string[];
  /** lines of the model's fields the 6 KB fit took, as the file counts them */
  cuts: Cuts;
  /** the transcript digest's sections (empty when the checkpoint has none) */
  digest: ParsedDigest;
  /** who wrote it and why, from its status line */
  kind: CheckpointKind;
}

const nonEmpty = (s: string | undefined) => (s === "" ? undefined : s);

/** A free-text model field as written: its text, then its cut line. */
function writtenText(key: ModelField, v: CutText | undefined): string | undefined {
  if (!v || (v.text === null && !v.cut)) return undefined;
  const render = SECTIONS[key].render as (x: CutText) => string;
  return render(v);
}

/** The values of every section the table knows, read from sections as parsed. */
export function sectionValues(sections: readonly Section[]): CheckpointValues {
  const v: Record<string, unknown> = {};
  for (const k of SECTION_KEYS) {
    const body = sectionBody(sections, SECTIONS[k].title);
    if (body !== undefined) v[k] = SECTIONS[k].parse(body);
  }
  return v as CheckpointValues;
}

/** A checkpoint's sections, each body line unescaped (renderSections escapes them). */
function checkpointSections(text: string): Section[] {
  return parseSections(text).map((s) => ({
    title: s.title,
    body: unescapeBody(s.body),
  }));
}

/** Parse any checkpoint, old or new; missing sections stay undefined, never throw. */
export function parseCheckpoint(text: string): ParsedCheckpoint {
  const sections = checkpointSections(text);
  const v = sectionValues(sections);
  const artifacts = { ...(v.artifacts ?? NO_ARTIFACTS) };
  const items = v.completed?.commits ?? [];
  const cuts: Cuts = {};
  for (const k of SECTION_KEYS) {
    const cut = (v[k] as { cut?: number } | undefined)?.cut;
    if (SECTIONS[k].cut && cut) cuts[k as ModelField] = cut;
  }
  return {
    sections,
    values: v,
    status: nonEmpty(v.status),
    currentStage: v.currentStage ?? undefined,
    task: nonEmpty(v.task),
    branch: nonEmpty(v.branch),
    head: v.head,
    sessionId: v.sessionId,
    savedAt: nonEmpty(v.savedAt),
    intent: v.intent ?? undefined,
    planFile: v.planFile ?? null,
    artifacts,
    artifactPaths: [
      artifacts.currentPlan,
      artifacts.architecture,
      artifacts.criticResponse,
      artifacts.review,
      artifacts.sessionState,
    ].filter((p): p is string => p !== null),
    commits: items.map((c) => ({ hash: c.hash, subject: c.subject })),
    checkedCommits: items.filter((c) => !c.loose).map(({ loose: _, ...c }) => c),
    otherCommits: v.completed?.otherCommits ?? null,
    uncommitted: v.uncommitted?.files ?? null,
    done: v.done?.items ?? [],
    inProgress: writtenText("inProgress", v.inProgress),
    nextUp: v.nextUp?.items ?? [],
    blockers: v.blockers?.items ?? [],
    openQuestions: writtenText("openQuestions", v.openQuestions),
    decisions: writtenText("decisions", v.decisions),
    unfinished: writtenText("unfinished", v.unfinished),
    notes: v.notes ?? [],
    cuts,
    digest: parsedDigest(v),
    kind: kindOf(v.status),
  };
}

/** The seed's awk: the line right after the task heading, CR stripped. Cheap; for pickers over many files. */
export function parseActiveTask(text: string): string | undefined {
  const heading = `## ${titleOf("task")}`;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? "").replace(/\r$/, "");
    if (line.startsWith(heading) && line.slice(heading.length).trim() === "") {
      const next = unescapeBody((lines[i + 1] ?? "").replace(/\r$/, "")).trim();
      return next === "" ? undefined : next;
    }
  }
  return undefined;
}
