import { TEXT_LIMITS } from "../core/text-limits.ts";
import type { CheckpointDigest } from "../store/checkpoint-digest.ts";
import {
  lastWordsOf,
  progressOf,
  type LastWord,
  type SessionCommit,
} from "./transcript-handover.ts";
import {
  CHANGERS,
  FileTally,
  filePathOf,
  projectPath,
  type WorkingFile,
} from "./transcript-digest-files.ts";
import { ofSession, ours, parseLine, type Line } from "./transcript-digest-line.ts";
import { newPass, onLine, type DigestOptions, type Pass } from "./transcript-digest-pass.ts";
import { plain, type DigestRequest } from "./transcript-digest-requests.ts";
import { RunLog, type FailedCommand, type FixedFailure } from "./transcript-digest-runs.ts";
import { TaskBoard, todoWriteList, type TodoItem } from "./transcript-digest-todos.ts";
import { WorkLog, type WorkItems } from "./transcript-digest-work.ts";
import { readFirstOf, type ReadFirstFile } from "./transcript-digest-readfirst.ts";
import { unverifiedLine, VerifyLog } from "./transcript-digest-verify.ts";

/**
 * What a fresh session needs from this session's transcript, built without the model
 * (most users have no session-state files, but every session has a transcript). Pure over the
 * lines it is given; the bounded reader is transcript-digest-read.ts. The pass over the lines is
 * transcript-digest-pass.ts; what the calls
 * add up to is settled here from transcript-digest-files.ts, -todos.ts and -runs.ts.
 */
export interface TranscriptDigest extends CheckpointDigest {
  firstRequest: DigestRequest | null;
  requests: DigestRequest[];
  changed: WorkingFile[];
  read: WorkingFile[];
  todos: TodoItem[] | null;
  todosAt: string | null;
  /**
   * only failures that still stand: a later passing run of the same program and subcommand on the
   * same target settles one (transcript-digest-fixes.ts)
   */
  failures: FailedCommand[];
  /** failures a later run settled, newest first, at most 5, with the model's words after each */
  fixed: FixedFailure[];
  /** the item claimed or named last and the items still open, in the tracker's own words */
  work: WorkItems;
  /** the files to read first, in order (transcript-digest-readfirst.ts; the save adds git's uncommitted files in front) */
  readFirst: ReadFirstFile[];
  /** the model's newest text replies on the main chain, newest last */
  lastWords: LastWord[];
  /** what the model said it finished (older than the last words) and tracker items it closed, newest last */
  progress: LastWord[];
  /** this session's commits (main chain and subagents), oldest first, as the tool results told them */
  commits: SessionCommit[];
  /** project paths changed after the session's last commit (all changed files when it made none), newest first */
  changedAfterCommit: string[];
  /** the last edits were not followed by a build, test or lint run: one line saying so, else null */
  unverified: string | null;
  lastAt: string | null;
}

export const EMPTY_DIGEST: TranscriptDigest = Object.freeze({
  firstRequest: null,
  requests: [],
  requestCount: 0,
  changed: [],
  read: [],
  todos: null,
  todosAt: null,
  failures: [],
  fixed: [],
  work: { current: null, open: [] },
  readFirst: [],
  lastWords: [],
  progress: [],
  commits: [],
  changedAfterCommit: [],
  unverified: null,
  summary: null,
  lastAt: null,
  truncated: false,
}) as TranscriptDigest;

type Settled = Pick<
  TranscriptDigest,
  | "changed"
  | "read"
  | "todos"
  | "todosAt"
  | "failures"
  | "fixed"
  | "work"
  | "readFirst"
  | "commits"
  | "changedAfterCommit"
  | "unverified"
>;

/** Working set, todos, failures and commits from the calls, in call order; calls whose result was an error do not count. */
function settle(p: Pass): Settled & { closes: LastWord[] } {
  const changed = new FileTally();
  const read = new FileTally();
  const board = new TaskBoard();
  const runs = new RunLog();
  const work = new WorkLog();
  const verify = new VerifyLog();
  let todoWrite: { list: TodoItem[]; at: string | null; index: number } | null = null;
  let boardIndex = -1;
  p.calls.forEach((call, index) => {
    const outcome = p.outcomes.get(call.id);
    runs.run(call, outcome, index);
    work.call(call, outcome, index);
    verify.run(call, outcome, index);
    if (outcome?.isError || call.subagent) return;
    const file = filePathOf(call);
    if (file !== null) {
      const at = projectPath(file, p.opts.projectRoot);
      (CHANGERS.has(call.name) ? changed : read).touch(at, call.at);
      if (CHANGERS.has(call.name)) {
        runs.changed(at);
        verify.changed(at, call.at, index, call.id);
        if (p.hooks.recordsOutcomes) runs.hookedEdit(call, at, p.hooks.notesOf(call.id), index);
      }
    }
    if (call.name === "TodoWrite") {
      const list = todoWriteList(call.input);
      if (list !== null) todoWrite = { list, at: call.at, index };
    } else if (call.name === "TaskCreate" || call.name === "TaskUpdate") {
      if (call.name === "TaskCreate") board.create(call, outcome);
      else board.update(call);
      boardIndex = index;
    }
  });
  const tw = todoWrite as { list: TodoItem[]; at: string | null; index: number } | null;
  const useBoard = board.seen && boardIndex > (tw?.index ?? -1);
  const todos = useBoard ? board.list() : (tw?.list ?? null);
  const newestChanged = changed.newestFirst();
  const newestRead = read.newestFirst(changed);
  const lastCommitAt = runs.commits.filter((c) => !c.subagent).at(-1)?.at ?? null;
  const claimedAt = work.claimedAt();
  // a tracker close ends one item's work: what was edited before it is the finished item's
  const lastCloseAt = runs.closes.at(-1)?.at ?? null;
  // the latest of the three (ISO times compare as text)
  const workStart =
    [lastCommitAt, claimedAt, lastCloseAt]
      .filter((t) => t !== null)
      .sort()
      .at(-1) ?? null;
  return {
    changed: newestChanged,
    read: newestRead,
    readFirst: readFirstOf(newestChanged, newestRead, runs.afterCommit, workStart),
    todos,
    todosAt: useBoard ? board.at : (tw?.at ?? null),
    failures: runs.standing(),
    fixed: runs.fixed(p.placed),
    work: work.result(p.placed, todos),
    commits: runs.commits,
    changedAfterCommit: [...runs.afterCommit].reverse(),
    unverified: ((u) => (u ? unverifiedLine(u) : null))(verify.result(p.hooks)),
    closes: runs.closes,
  };
}

/** The digest of these parsed transcript entries (oldest first); the reader hands over shrunken ones. */
export function digestEntries(
  entries: Iterable<Line | null>,
  opts: DigestOptions,
): TranscriptDigest {
  const p = newPass(opts);
  for (const e of entries) if (e !== null && ofSession(e, opts.sessionId)) onLine(p, e);
  const all = p.requests.all;
  const { closes, ...settled } = settle(p);
  const lastWords = lastWordsOf(p.words);
  return {
    firstRequest: all[0] ? plain(all[0]) : null,
    requests: all.slice(-TEXT_LIMITS.digest.requests).map(plain),
    requestCount: all.length,
    ...settled,
    lastWords,
    progress: progressOf(p.words, closes, lastWords),
    closedItems: closes.length,
    summary: p.summary,
    lastAt: p.lastAt,
    truncated: false,
  };
}

/** The digest of these transcript lines (oldest first). Unparseable lines are skipped. */
export function digestLines(lines: readonly string[], opts: DigestOptions): TranscriptDigest {
  return digestEntries(
    (function* () {
      for (const line of lines) yield parseLine(line);
    })(),
    opts,
  );
}

/** The first typed request among these lines (the reader's bounded head read), or null. */
export function firstRequestOf(
  lines: readonly string[],
  opts: DigestOptions,
): DigestRequest | null {
  const p = newPass(opts);
  for (const line of lines) {
    const e = parseLine(line);
    if (e === null || !ours(e, opts.sessionId)) continue;
    if (e["type"] !== "user" && e["type"] !== "queue-operation") continue;
    onLine(p, e);
    // An enqueued prompt can still be popped back; a user line is final.
    const first = p.requests.all[0];
    if (first && !first.queued) return plain(first);
  }
  const first = p.requests.all[0];
  return first ? plain(first) : null;
}
