import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { newestRequestOf } from "../store/checkpoint-digest.ts";
import type { ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import type { FixedValue, WorkItemValue } from "../store/checkpoint-lessons.ts";
import { readOrder } from "./brief/read-order.ts";
import type {
  DigestFailure,
  DigestFile,
  DigestTodo,
  LabelledRequest,
  LastWord,
  NextUp,
  UncommittedFile,
} from "../store/checkpoint-values.ts";

// What `restore --json` hands the resumed session beside the seed's summary: the transcript
// digest and the model's own state, as fields, and the files to re-read.

/** Lines of a list section, bullets and numbers stripped; "(none)" dropped. */
export function listLines(text: string | undefined): string[] {
  return (text ?? "")
    .split("\n")
    .map((l) => l.replace(/^\s*(?:[-*]|\d+[.)])\s*/, "").trim())
    .filter((l) => l !== "" && l !== "(none)");
}

/** The transcript digest and the model's own state, as fields of `restore --json`. */
export interface ResumeSession {
  firstRequest: string | null;
  newestRequest: string | null;
  requests: LabelledRequest[];
  todos: DigestTodo[] | null;
  changed: DigestFile[];
  read: DigestFile[];
  failures: DigestFailure[];
  /** "+12 more read files" and the like: what the checkpoint counted but did not list */
  omitted: string[];
  compactionSummary: { transcript: string; uuid: string } | null;
  historyCutShort: boolean;
  done: string[];
  inProgress: string | null;
  nextUp: NextUp[];
  blockers: string[];
  decisions: string[];
  /** The `lastWords` section: the model's newest replies, newest last ([] when not recorded) */
  lastWords: LastWord[];
  progress: LastWord[];
  /** The `uncommitted` section: files changed after the session's last commit, dirty at the save */
  uncommitted: UncommittedFile[];
  /** the uncommitted files are git status's: the save found no transcript to tell the session's own */
  uncommittedNotKnown: boolean;
  /** The `workItems` section: the item in progress, in the tracker's words, and how it was taken up */
  workItem: (WorkItemValue & { how: string }) | null;
  /** the open items other than the one in progress, and how many more the checkpoint counted */
  openItems: { id: string; title: string }[];
  openItemsMore: number;
  /** the last edits were not followed by a build, test or lint run: the line saying so */
  unverified: string | null;
  /** The `fixedAlongTheWay` section: failures a later run settled, newest first, and how many more */
  fixed: FixedValue[];
  fixedMore: number;
}

/** Files re-read on restore (brief/read-order.ts): the uncommitted ones first, so the fresh context holds what was being edited. */
const REREAD_FILES = 8;

export const EMPTY_SESSION: ResumeSession = {
  firstRequest: null,
  newestRequest: null,
  requests: [],
  todos: null,
  changed: [],
  read: [],
  failures: [],
  omitted: [],
  compactionSummary: null,
  historyCutShort: false,
  done: [],
  inProgress: null,
  nextUp: [],
  blockers: [],
  decisions: [],
  lastWords: [],
  progress: [],
  uncommitted: [],
  uncommittedNotKnown: false,
  workItem: null,
  openItems: [],
  openItemsMore: 0,
  unverified: null,
  fixed: [],
  fixedMore: 0,
};

/** The same tracker item: the same id, or (items without one) the same title. */
const sameItem = (a: { id: string; title: string }, b: { id: string; title: string }) =>
  a.id === b.id && (a.id !== "" || a.title === b.title);

export function resumeSession(p: ParsedCheckpoint): ResumeSession {
  const d = p.digest;
  const work = p.values.workItems;
  const current = work?.current ?? null;
  return {
    workItem: current,
    openItems: (work?.open ?? []).filter((i) => !current || !sameItem(i, current)),
    openItemsMore: work?.more ?? 0,
    unverified: work?.unverified ?? null,
    fixed: p.values.fixedAlongTheWay?.items ?? [],
    fixedMore: p.values.fixedAlongTheWay?.more ?? 0,
    lastWords: d.lastWords ?? [],
    progress: d.progress ?? [],
    uncommitted: p.uncommitted ?? [],
    uncommittedNotKnown: p.values.uncommitted?.notKnown === true,
    firstRequest: d.requests.find((r) => r.label === "first")?.text ?? null,
    newestRequest: newestRequestOf(d),
    requests: d.requests,
    todos: d.todos,
    changed: d.changed,
    read: d.read,
    failures: d.failures,
    omitted: d.omitted,
    compactionSummary: d.summary,
    historyCutShort: d.truncated,
    done: p.done,
    inProgress: p.inProgress ?? null,
    nextUp: p.nextUp,
    blockers: p.blockers,
    decisions: listLines(p.decisions),
  };
}

/** The artifacts, then the session's files in reading order (brief/read-order.ts) that exist under the project root (absolute paths). */
export function rereadList(deps: Deps, root: string, p: ParsedCheckpoint): string[] {
  const files = readOrder(p)
    .map((f) => (path.isAbsolute(f.path) ? f.path : path.join(root, f.path)))
    .filter((f) => deps.fs.existsSync(f))
    .slice(0, REREAD_FILES);
  return [...new Set([...p.artifactPaths, ...files])];
}

/** Each file's size in bytes now (0: gone or unreadable): the model skims the large ones. */
export function rereadBytes(deps: Deps, files: readonly string[]): number[] {
  return files.map((f) => {
    try {
      return Number(deps.fs.statSync(f).size);
    } catch {
      return 0;
    }
  });
}
