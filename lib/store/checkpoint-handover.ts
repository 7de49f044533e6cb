import { sanitizeBody } from "../core/markdown-sections.ts";
import { FLOOR } from "./checkpoint-budget.ts";
import { oneLine } from "../core/text-cut.ts";
import type {
  CheckedCommit,
  CommitRef,
  SectionValues,
  UncommittedFile,
} from "./checkpoint-values.ts";

// The handover sections as a writer fills them: the session's own commits checked against git
// (the completed section) and its uncommitted files. Old checkpoints
// lack the second: a missing section parses as "not recorded", never an error.

/** What the git check at save time found (lib/save/session-git.ts), or the transcript alone. */
export interface Handover {
  commits: readonly CheckedCommit[];
  /** commits since the session's first request that are not this session's; null: not counted */
  otherCommits: number | null;
  /** null: not checked against git status */
  uncommitted: readonly UncommittedFile[] | null;
  /** one line when git was skipped or did not answer in time */
  gitNote: string | null;
}

/** The completed section: at most 10 commits (the newest), the count of the rest, the other commits. */
export function completedValue(
  h: Handover,
  clean: (s: string) => string = sanitizeBody,
): SectionValues["completed"] {
  const shown = h.commits.slice(-FLOOR.commitLines);
  return {
    commits: shown.map((c) => ({ ...c, subject: clean(c.subject).replace(/\n/g, " ") })),
    more: h.commits.length - shown.length,
    otherCommits: h.otherCommits || null,
    gitNote: h.gitNote,
  };
}

/** The completed section of a writer that has only commit ids and subjects (no git check). */
export function plainCommitsValue(
  commits: readonly CommitRef[] | undefined,
  clean: (s: string) => string,
): SectionValues["completed"] {
  return {
    commits: (commits ?? []).map((c) => ({
      hash: c.hash,
      subject: clean(c.subject).replace(/\n/g, " "),
      state: "present",
    })),
    more: 0,
    otherCommits: null,
    gitNote: null,
  };
}

/** The uncommitted section: the first 8 files, the count of the rest. */
export function uncommittedValue(files: readonly UncommittedFile[]): SectionValues["uncommitted"] {
  const shown = files.slice(0, FLOOR.uncommittedFiles);
  return {
    files: shown.map((f) => ({ path: oneLine(f.path, 300), kind: f.kind })),
    more: files.length - shown.length,
  };
}
