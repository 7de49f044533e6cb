import type { FixedValue, ReadFirstValue, WorkItemsValue } from "./checkpoint-lessons.ts";
// What each section of a checkpoint holds, as a value: the section table (checkpoint-sections.ts)
// writes a body from it and reads it back, and parse(render(v)) gives v. One type per idea: the
// writers (save, the hooks) and the readers (restore, the hooks' notes) share these.

export interface InFlightArtifacts {
  currentPlan: string | null;
  architecture: string | null;
  criticResponse: string | null;
  review: string | null;
  sessionState: string | null;
  sessionStateResolution: "uuid-anchor" | "mtime-fallback" | null;
}

export const NO_ARTIFACTS: InFlightArtifacts = {
  currentPlan: null,
  architecture: null,
  criticResponse: null,
  review: null,
  sessionState: null,
  sessionStateResolution: null,
};

export interface CommitRef {
  hash: string;
  subject: string;
}

export interface NextUp {
  item: string;
  prerequisitesMet: boolean;
}

/** One reply of the model (its last words, or a progress line), with its time when known. */
export interface LastWord {
  text: string;
  at: string | null;
}

/** present: the hash is in this clone; rebased: same subject reachable from HEAD, new hash; missing: not in this clone; unchecked: no git was asked. */
export type CommitState = "present" | "rebased" | "missing" | "unchecked";

export interface CheckedCommit {
  hash: string;
  subject: string;
  state: CommitState;
  /** the hash the transcript told, when rebased */
  oldHash?: string;
  subagent?: boolean;
}

/** A completed-section bullet: a checked commit, or (older files) a line that only names a hash. */
export type CompletedItem = CheckedCommit & { loose?: true };

export type UncommittedKind = "modified" | "added" | "deleted" | "untracked" | "renamed";
export interface UncommittedFile {
  path: string;
  kind: UncommittedKind | "unchecked";
}

/** A model field of free text: null when it says nothing; `cut` lines went to the 6 KB fit. */
export interface CutText {
  text: string | null;
  cut: number;
}
export interface CutList<T> {
  items: T[];
  cut: number;
}
/** Items shown, and how many more there were (`+12 more read files`). */
export interface Shown<T> {
  items: T[];
  more: number;
}

export interface DigestFile {
  path: string;
  count: number;
}
export interface DigestTodo {
  content: string;
  status: "pending" | "in_progress" | "completed";
}
export interface DigestFailure {
  command: string;
  error: string;
  at: string | null;
}
export interface LabelledRequest {
  text: string;
  at: string | null;
  /** null: an older file's bullet without a label */
  label: "first" | "earlier" | "newest" | null;
}

/** Each section's value, keyed as the section table is. */
export interface SectionValues {
  status: string;
  currentStage: string | null;
  task: string;
  branch: string;
  /** the commit HEAD pointed at; null: no repository or no commit yet */
  head: string | null;
  /** null: no usable session id at save time */
  sessionId: string | null;
  /** UTC ISO time, whole seconds */
  savedAt: string;
  /** `missing`: the transcript path a save looked at and did not find */
  sessionLink: { sessionId: string | null; projectHash: string; missing?: string };
  intent: string | null;
  planFile: string | null;
  artifacts: InFlightArtifacts;
  completed: {
    commits: CompletedItem[];
    more: number;
    /** commits since the session's first request that are not this session's */
    otherCommits: number | null;
    /** one line when git was skipped or did not answer in time */
    gitNote: string | null;
    /** the transcript path a save did not find: this session's commits are unknown */
    unknown?: string;
    /** tracker items the session closed: said when it made no commits, so "none" is not "nothing done" */
    closedItems?: number;
  };
  /** `notKnown`: git status's files, with no transcript to tell this session's from others' */
  uncommitted: { files: UncommittedFile[]; more: number; notKnown?: true };
  done: CutList<string>;
  inProgress: CutText;
  nextUp: CutList<NextUp>;
  blockers: CutList<string>;
  openQuestions: CutText;
  decisions: CutText;
  unfinished: CutText;
  lastWords: LastWord[];
  progress: Shown<LastWord>;
  /** `count`: requests typed in the read window (items.length when all are shown) */
  requests: Shown<LabelledRequest> & { count: number };
  todos: Shown<DigestTodo>;
  workingSet: { changed: DigestFile[]; changedMore: number; read: DigestFile[]; readMore: number };
  failures: Shown<DigestFailure>;
  /** the item in progress and the open items, in the tracker's words (checkpoint-lessons.ts) */
  workItems: WorkItemsValue & { more: number };
  /** failures a later run settled, newest first */
  fixedAlongTheWay: Shown<FixedValue>;
  /** the files to read first, in order */
  /** `moreRead`: how many of the files not listed were only read (the rest were changed) */
  readFirst: Shown<ReadFirstValue> & { moreRead?: number };
  compactionSummary: { transcript: string; uuid: string };
  /** the read budget ended before the session's start */
  transcriptDigest: boolean;
  notes: string[];
  restoreHint: { task: string; branch: string };
}

/** A checkpoint as values: a section is in the file exactly when its key is here. */
export type CheckpointValues = Partial<SectionValues>;
