import { isRecord as isObj } from "../core/value-checks.ts";
import type {
  BashInput,
  FileEditInput,
  FileReadInput,
  FileWriteInput,
  GlobInput,
  GrepInput,
  NotebookEditInput,
  TaskCreateOutput,
  TaskUpdateInput,
  TodoWriteInput,
} from "@anthropic-ai/claude-code/sdk-tools.d.ts";
import {
  addCommits,
  commandKey,
  commitCall,
  commitsInResult,
  isApiErrorText,
  lastWordsOf,
  progressOf,
  runPassed,
  trackerClose,
  type LastWord,
  type SessionCommit,
} from "./transcript-handover.ts";

/**
 * What a fresh session needs from this session's transcript, built without the model (issue 9,
 * DESIGN.md "What a checkpoint holds"). Pure over the lines it is given; the bounded reader is
 * transcript-digest-read.ts.
 */
export interface DigestRequest {
  text: string;
  at: string | null;
  uuid: string | null;
}
export interface WorkingFile {
  path: string;
  count: number;
  lastAt: string | null;
}
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}
export interface FailedCommand {
  command: string;
  error: string;
  at: string | null;
}
export interface TranscriptDigest {
  firstRequest: DigestRequest | null;
  requests: DigestRequest[];
  requestCount: number;
  changed: WorkingFile[];
  read: WorkingFile[];
  todos: TodoItem[] | null;
  todosAt: string | null;
  /** only failures that still stand: a later passing run of the same command key drops one */
  failures: FailedCommand[];
  /** the model's newest text replies on the main chain, newest last */
  lastWords: LastWord[];
  /** what the model said it finished (older than the last words) and tracker items it closed, newest last */
  progress: LastWord[];
  /** this session's commits (main chain and subagents), oldest first, as the tool results told them */
  commits: SessionCommit[];
  /** project paths changed after the session's last commit (all changed files when it made none), newest first */
  changedAfterCommit: string[];
  summary: { transcript: string; uuid: string } | null;
  lastAt: string | null;
  truncated: boolean;
}

export interface DigestOptions {
  projectRoot: string;
  sessionId?: string;
  /** recorded in `summary.transcript`; the reader passes the file it read */
  transcriptPath?: string;
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
  lastWords: [],
  progress: [],
  commits: [],
  changedAfterCommit: [],
  summary: null,
  lastAt: null,
  truncated: false,
}) as TranscriptDigest;

export const REQUEST_CHARS = 200;
const NEWEST_REQUESTS = 5;
const NEWEST_FAILURES = 5;
const COMMAND_CHARS = 160;
const ERROR_CHARS = 160;

/** The one shape of a file-editing tool the pinned client no longer describes in sdk-tools.d.ts. */
interface MultiEditInput {
  file_path: string;
}
export type Line = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Whitespace collapsed to single spaces, cut on a word boundary near `max` characters. */
export function cutText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const hard = flat.slice(0, max - 3);
  const space = hard.lastIndexOf(" ");
  return `${space > max * 0.6 ? hard.slice(0, space) : hard}...`;
}

// ---------------------------------------------------------------------------------------------
// Typed requests

/**
 * Built-in commands that act on the client, not on the work (`/mcp`, `/clear`...): not requests.
 * Any other slash command (a skill, a custom command, `/init`, `/review`) is what the person asked
 * for, kept as `/name args`.
 */
const CLIENT_COMMANDS = new Set(
  "add-dir agents bashes clear compact config context cost doctor exit export help hooks ide login logout mcp memory model permissions plugin plugins quit release-notes resume rewind status statusline terminal-setup theme upgrade usage vim".split(
    " ",
  ),
);
/** Wrappers Claude Code writes around what it generated itself (hook output, local commands, notifications). */
const WRAPPER =
  /^<(system-reminder|local-command-[a-z]+|task-notification|bash-(input|stdout|stderr)|user-prompt-submit-hook|command-stdout|command-stderr)\b/;

/** `<command-name>/x</command-name>...<command-args>y</command-args>` as `/x y`, or null when not a command line. */
function slashCommand(text: string): string | null {
  const name = /<command-name>\s*([^<]*?)\s*<\/command-name>/.exec(text)?.[1];
  if (name === undefined) return null;
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1] ?? "";
  const slashed = name.startsWith("/") ? name : `/${name}`;
  return `${slashed} ${args}`.trim();
}

/** What the person typed, or null when the text is generated, a wrapper, a client command or an interruption marker. */
export function typedText(raw: string): string | null {
  let text = raw.trim();
  if (text === "" || text.startsWith("[Request interrupted")) return null;
  if (text.includes("<command-name>")) text = slashCommand(text) ?? "";
  else if (WRAPPER.test(text) || text.startsWith("<command-")) return null;
  text = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
  if (text === "") return null;
  if (text.startsWith("/")) {
    const name = /^\/([A-Za-z0-9_:-]+)/.exec(text)?.[1];
    if (name !== undefined && CLIENT_COMMANDS.has(name.toLowerCase())) return null;
  }
  return text;
}

/**
 * A user line the client injected, not the person: NOTE: 2.1.332 marks a /loop or scheduled-task
 * fire with `wakeupSource` (loop_wakeup, schedule_wakeup) and other machine turns (peer messages,
 * task notifications, auto-continuation) with `promptSource: "system"`; typed lines carry
 * `promptSource` typed, queued, suggestion_accepted or sdk. Older clients write neither key.
 */
function isInjectedUserLine(e: Line): boolean {
  return typeof e["wakeupSource"] === "string" || e["promptSource"] === "system";
}

/** The typed text of a main-chain user line, or null (tool results, meta, compaction summaries, injected turns). */
function userLineText(e: Line): string | null {
  if (
    isInjectedUserLine(e) ||
    e["isMeta"] === true ||
    e["isCompactSummary"] === true ||
    e["isVisibleInTranscriptOnly"] === true
  )
    return null;
  if (e["toolUseResult"] !== undefined) return null;
  const text = lineText(e);
  return text === null ? null : typedText(text);
}

/** A user line's text (a string, or its text blocks joined); null for tool results. */
function lineText(e: Line): string | null {
  const message = e["message"];
  if (!isObj(message)) return null;
  const content = message["content"];
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  if (content.some((b) => isObj(b) && b["type"] === "tool_result")) return null;
  const texts = content
    .filter((b) => isObj(b) && b["type"] === "text")
    .map((b) => str((b as Line)["text"]) ?? "");
  return texts.length ? texts.join("\n") : null;
}

const matchKey = (text: string): string => text.replace(/\s+/g, " ").trim();

interface RequestSlot extends DigestRequest {
  key: string;
  /** came from a queue-operation enqueue not yet seen again as a user line */
  queued: boolean;
}

/**
 * Requests in order. A prompt typed while the model was busy is an `enqueue` line; when it is later
 * also written as a user line (dequeued into a new turn), that line is the same request, not a second
 * one. `popAll` hands queued prompts back to the input box: they count only if sent again.
 */
class RequestLog {
  readonly all: RequestSlot[] = [];

  typed(text: string, at: string | null, uuid: string | null): void {
    const key = matchKey(text);
    const queued = this.all.findIndex((r) => r.queued && r.key === key);
    if (queued >= 0) {
      const slot = this.all[queued]!;
      slot.queued = false;
      slot.uuid = uuid;
      return;
    }
    this.all.push({ text: cutText(text, REQUEST_CHARS), at, uuid, key, queued: false });
  }

  enqueued(text: string, at: string | null): void {
    this.all.push({
      text: cutText(text, REQUEST_CHARS),
      at,
      uuid: null,
      key: matchKey(text),
      queued: true,
    });
  }

  /**
   * NOTE: 2.1.332 first enqueues an injected turn (a /loop wakeup) like a typed prompt, then
   * writes it as an injected user line: the queued slot it matches was never the person's.
   */
  injected(text: string): void {
    const key = matchKey(typedText(text) ?? text);
    const queued = this.all.findIndex((r) => r.queued && r.key === key);
    if (queued >= 0) this.all.splice(queued, 1);
  }

  poppedAll(): void {
    for (let i = this.all.length - 1; i >= 0; i--) if (this.all[i]!.queued) this.all.splice(i, 1);
  }
}

const plain = (r: RequestSlot): DigestRequest => ({ text: r.text, at: r.at, uuid: r.uuid });

// ---------------------------------------------------------------------------------------------
// Tool calls

interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  at: string | null;
  /** from a subagent's line: counts for commits only */
  subagent: boolean;
}
interface ToolOutcome {
  isError: boolean;
  text: string;
  rejected: boolean;
  /** the line's top-level toolUseResult (TaskCreate's carries the new task's id) */
  result: unknown;
}

function resultText(block: Line): string {
  const c = block["content"];
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b) => (isObj(b) ? (str(b["text"]) ?? "") : "")).join("\n");
  return "";
}

const REJECTED = "The user doesn't want to proceed";

/** The line that says what went wrong: not "Exit code 1", not a tool_use_error tag, not an npm warning. */
function errorLine(text: string): string {
  const lines = text
    .replace(/<\/?tool_use_error>/g, "")
    .split(/\r?\n|\\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^Exit code \d+$/.test(l) && !/^npm (warn|notice)\b/i.test(l));
  const telling = lines.find((l) =>
    /error|fatal|fail|cannot|can't|not found|no such|denied|refused/i.test(l),
  );
  return cutText(telling ?? lines[0] ?? "", ERROR_CHARS);
}

// ---------------------------------------------------------------------------------------------
// Working set

const CHANGERS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
const SEARCHERS = new Set(["Grep", "Glob"]);
const EXTENSIONLESS_FILES =
  /^(Makefile|Dockerfile|Gemfile|Rakefile|Procfile|Justfile|Containerfile|LICENSE|README|CHANGELOG)$/;

/**
 * Whether a Grep/Glob `path` names a file rather than a folder. The pure part cannot stat, so: the
 * last segment has an extension (`x.ts`, `mix.exs`; not a dot-folder like `.github`) or is a
 * well-known extensionless file name. A trailing `/` or a glob character means a folder or pattern.
 */
export function looksLikeFile(p: string): boolean {
  if (p.endsWith("/") || /[*?[\]{}]/.test(p)) return false;
  const last = p.slice(p.lastIndexOf("/") + 1);
  return /^[^.].*\.[A-Za-z0-9]{1,10}$/.test(last) || EXTENSIONLESS_FILES.test(last);
}

/** Relative to the project root when inside it; `./` dropped; otherwise as the tool saw it. */
export function projectPath(p: string, root: string): string {
  const base = root.replace(/\/+$/, "");
  if (base !== "" && p.startsWith(`${base}/`)) return p.slice(base.length + 1);
  return p.startsWith("./") ? p.slice(2) : p;
}

function filePathOf(call: ToolCall): string | null {
  if (call.name === "NotebookEdit")
    return str((call.input as unknown as NotebookEditInput).notebook_path);
  if (call.name === "Edit") return str((call.input as unknown as FileEditInput).file_path);
  if (call.name === "Write") return str((call.input as unknown as FileWriteInput).file_path);
  if (call.name === "MultiEdit") return str((call.input as unknown as MultiEditInput).file_path);
  if (call.name === "Read") return str((call.input as unknown as FileReadInput).file_path);
  if (SEARCHERS.has(call.name)) {
    const p = str((call.input as unknown as GrepInput | GlobInput).path);
    return p !== null && looksLikeFile(p) ? p : null;
  }
  return null;
}

class FileTally {
  private readonly files = new Map<string, WorkingFile>();

  touch(path: string, at: string | null): void {
    const seen = this.files.get(path);
    // Re-inserting keeps the Map in recency order: the newest touch is last.
    this.files.delete(path);
    this.files.set(path, {
      path,
      count: (seen?.count ?? 0) + 1,
      lastAt: at ?? seen?.lastAt ?? null,
    });
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  newestFirst(skip?: FileTally): WorkingFile[] {
    return [...this.files.values()].filter((f) => !skip?.has(f.path)).reverse();
  }
}

// ---------------------------------------------------------------------------------------------
// Todos

type TodoStatus = TodoItem["status"];
const STATUSES: readonly string[] = ["pending", "in_progress", "completed"];
const asStatus = (v: unknown): TodoStatus | null =>
  typeof v === "string" && STATUSES.includes(v) ? (v as TodoStatus) : null;

function todoWriteList(input: Record<string, unknown>): TodoItem[] | null {
  const todos = (input as unknown as Partial<TodoWriteInput>).todos;
  if (!Array.isArray(todos)) return null;
  const out: TodoItem[] = [];
  for (const t of todos) {
    const content = isObj(t) ? str(t["content"]) : null;
    const status = isObj(t) ? asStatus(t["status"]) : null;
    if (content !== null && status !== null) out.push({ content, status });
  }
  return out;
}

/** The id TaskCreate's result gives the new task: `toolUseResult.task.id`, else "Task #N" in the text. */
function createdTaskId(outcome: ToolOutcome): string | null {
  const result = outcome.result as Partial<TaskCreateOutput> | undefined;
  if (isObj(result) && isObj(result.task)) {
    const id = result.task.id as unknown;
    if (typeof id === "string" || typeof id === "number") return String(id);
  }
  return /Task #?(\w+)/.exec(outcome.text)?.[1] ?? null;
}

/** The list rebuilt from TaskCreate/TaskUpdate in call order; deleted tasks dropped. */
class TaskBoard {
  private readonly tasks = new Map<string, TodoItem>();
  at: string | null = null;
  seen = false;

  create(call: ToolCall, outcome: ToolOutcome | undefined): void {
    const subject = str(call.input["subject"]);
    const id = outcome ? createdTaskId(outcome) : null;
    if (subject === null) return;
    this.tasks.set(id ?? `pending-${call.id}`, { content: subject, status: "pending" });
    this.note(call.at);
  }

  update(call: ToolCall): void {
    const input = call.input as unknown as Partial<TaskUpdateInput>;
    const id = input.taskId === undefined ? null : String(input.taskId);
    if (id === null) return;
    if (input.status === "deleted") {
      this.tasks.delete(id);
      this.note(call.at);
      return;
    }
    const known = this.tasks.get(id);
    const subject = str(input.subject) ?? known?.content;
    // A task created before the read window and never renamed since has no subject we know of.
    if (subject === undefined) return;
    this.tasks.set(id, {
      content: subject,
      status: asStatus(input.status) ?? known?.status ?? "pending",
    });
    this.note(call.at);
  }

  private note(at: string | null): void {
    this.seen = true;
    this.at = at ?? this.at;
  }

  list(): TodoItem[] {
    return [...this.tasks.values()];
  }
}

// ---------------------------------------------------------------------------------------------
// The pass over the lines

interface Pass {
  opts: DigestOptions;
  requests: RequestLog;
  calls: ToolCall[];
  outcomes: Map<string, ToolOutcome>;
  summary: { transcript: string; uuid: string } | null;
  afterBoundary: boolean;
  lastAt: string | null;
  words: LastWord[];
}

/** One transcript line as an object, or null for a partial write or garbage. */
export function parseLine(line: string): Line | null {
  if (line === "") return null;
  try {
    const v: unknown = JSON.parse(line);
    return isObj(v) ? v : null;
  } catch {
    return null; // a partial write or garbage: skip it
  }
}

/** Main chain of this session only: sidechain (subagent) lines and other sessions' lines are not ours. */
export function ours(e: Line, sessionId: string | undefined): boolean {
  if (e["isSidechain"] === true) return false;
  return ofSession(e, sessionId);
}

/** A line of this session, main chain or subagent (a subagent's lines count for its commits only). */
export function ofSession(e: Line, sessionId: string | undefined): boolean {
  const sid = e["sessionId"];
  return sessionId === undefined || typeof sid !== "string" || sid === sessionId;
}

function onAssistant(p: Pass, e: Line, at: string | null, subagent: boolean): void {
  const message = e["message"];
  const content = isObj(message) ? message["content"] : null;
  if (!Array.isArray(content)) return;
  const apiError = e["isApiErrorMessage"] === true;
  for (const b of content) {
    if (!isObj(b)) continue;
    if (b["type"] === "text" && !subagent && !apiError) {
      const text = str(b["text"]);
      if (text !== null && text.trim() !== "" && !isApiErrorText(text)) p.words.push({ text, at });
    }
    if (b["type"] !== "tool_use") continue;
    const id = str(b["id"]);
    const name = str(b["name"]);
    if (id === null || name === null) continue;
    if (subagent && name !== "Bash") continue;
    p.calls.push({ id, name, input: isObj(b["input"]) ? b["input"] : {}, at, subagent });
  }
}

function onUser(p: Pass, e: Line, at: string | null, subagent: boolean): void {
  if (
    !subagent &&
    p.afterBoundary &&
    e["isCompactSummary"] === true &&
    typeof e["uuid"] === "string"
  ) {
    p.summary = { transcript: p.opts.transcriptPath ?? "", uuid: e["uuid"] };
    p.afterBoundary = false;
    return;
  }
  const message = e["message"];
  const content = isObj(message) ? message["content"] : null;
  if (Array.isArray(content)) {
    for (const b of content) {
      if (!isObj(b) || b["type"] !== "tool_result") continue;
      const id = str(b["tool_use_id"]);
      if (id === null) continue;
      const text = resultText(b);
      p.outcomes.set(id, {
        isError: b["is_error"] === true,
        text,
        rejected: text.startsWith(REJECTED),
        result: e["toolUseResult"],
      });
    }
  }
  if (subagent) return;
  if (isInjectedUserLine(e)) {
    const text = lineText(e);
    if (text !== null) p.requests.injected(text);
    return;
  }
  const typed = userLineText(e);
  if (typed !== null) p.requests.typed(typed, at, str(e["uuid"]));
}

function onLine(p: Pass, e: Line): void {
  const at = str(e["timestamp"]);
  const type = e["type"];
  const subagent = e["isSidechain"] === true;
  if (type === "assistant") onAssistant(p, e, at, subagent);
  else if (type === "user") onUser(p, e, at, subagent);
  else if (subagent) return;
  else if (type === "system" && e["subtype"] === "compact_boundary") {
    p.afterBoundary = true;
    p.summary = null;
  } else if (type === "queue-operation") {
    if (e["operation"] === "popAll") p.requests.poppedAll();
    const content = str(e["content"]);
    const typed = e["operation"] === "enqueue" && content !== null ? typedText(content) : null;
    if (typed !== null) p.requests.enqueued(typed, at);
  }
  if (at !== null) p.lastAt = at;
}

/** Failures that still stand and this session's commits, in call order (issue 19). */
class RunLog {
  private readonly failed: (FailedCommand & { key: string })[] = [];
  readonly commits: SessionCommit[] = [];
  /** tracker items the model closed (`bd close X`, `gh issue close 12`), in call order */
  readonly closes: LastWord[] = [];
  /** changed paths since the newest commit, newest last */
  afterCommit: string[] = [];

  run(call: ToolCall, outcome: ToolOutcome | undefined): void {
    const command = str((call.input as unknown as Partial<BashInput>).command);
    if (call.name !== "Bash" || command === null) return;
    const committing = commitCall(command);
    if (committing && outcome && !outcome.rejected) {
      const found = commitsInResult(outcome.text, call.at, call.subagent);
      addCommits(this.commits, found, committing.amend);
      if (found.length) this.afterCommit = [];
      // A commit that went through settles the earlier committing calls that failed (a hook
      // refused them; the message changed since, so their key differs).
      if (found.length && !call.subagent)
        for (let i = this.failed.length - 1; i >= 0; i -= 1)
          if (commitCall(this.failed[i]!.key)) this.failed.splice(i, 1);
    }
    if (call.subagent || outcome?.rejected) return;
    const { key, piped } = commandKey(command);
    const close = outcome?.isError ? null : trackerClose(command);
    if (close !== null) this.closes.push({ text: close, at: call.at });
    if (outcome?.isError) {
      this.failed.push({
        command: cutText(command, COMMAND_CHARS),
        error: errorLine(outcome.text),
        at: call.at,
        key,
      });
      return;
    }
    if (!runPassed(false, piped, outcome?.text ?? "")) return;
    for (let i = this.failed.length - 1; i >= 0; i -= 1)
      if (this.failed[i]!.key === key) this.failed.splice(i, 1);
  }

  changed(path: string): void {
    this.afterCommit = [...this.afterCommit.filter((p) => p !== path), path];
  }

  standing(): FailedCommand[] {
    return this.failed.slice(-NEWEST_FAILURES).map(({ key: _key, ...f }) => f);
  }
}

type Settled = Pick<
  TranscriptDigest,
  "changed" | "read" | "todos" | "todosAt" | "failures" | "commits" | "changedAfterCommit"
>;

/** Working set, todos, failures and commits from the calls, in call order; calls whose result was an error do not count. */
function settle(p: Pass): Settled & { closes: LastWord[] } {
  const changed = new FileTally();
  const read = new FileTally();
  const board = new TaskBoard();
  const runs = new RunLog();
  let todoWrite: { list: TodoItem[]; at: string | null; index: number } | null = null;
  let boardIndex = -1;
  p.calls.forEach((call, index) => {
    const outcome = p.outcomes.get(call.id);
    runs.run(call, outcome);
    if (outcome?.isError || call.subagent) return;
    const file = filePathOf(call);
    if (file !== null) {
      const at = projectPath(file, p.opts.projectRoot);
      (CHANGERS.has(call.name) ? changed : read).touch(at, call.at);
      if (CHANGERS.has(call.name)) runs.changed(at);
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
  return {
    changed: changed.newestFirst(),
    read: read.newestFirst(changed),
    todos: useBoard ? board.list() : (tw?.list ?? null),
    todosAt: useBoard ? board.at : (tw?.at ?? null),
    failures: runs.standing(),
    commits: runs.commits,
    changedAfterCommit: [...runs.afterCommit].reverse(),
    closes: runs.closes,
  };
}

function newPass(opts: DigestOptions): Pass {
  return {
    opts,
    requests: new RequestLog(),
    calls: [],
    outcomes: new Map(),
    summary: null,
    afterBoundary: false,
    lastAt: null,
    words: [],
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
    requests: all.slice(-NEWEST_REQUESTS).map(plain),
    requestCount: all.length,
    ...settled,
    lastWords,
    progress: progressOf(p.words, closes, lastWords),
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

// ---------------------------------------------------------------------------------------------
// Shrinking: what the reader keeps of a line while it reads a 32 MB window

const TEXT_KEEP = 16 * 1024;
/** A tool result keeps its head and its tail: test summaries and `[branch hash]` lines are at the end. */
const RESULT_HEAD_KEEP = 1024;
const RESULT_TAIL_KEEP = 3 * 1024;
const COMMAND_KEEP = 1024;
/** The only tool-input keys the digest reads (file contents, old/new strings and descriptions are dropped). */
const INPUT_KEYS = [
  "file_path",
  "notebook_path",
  "path",
  "command",
  "todos",
  "subject",
  "status",
  "taskId",
] as const;
const ENVELOPE_KEYS = [
  "type",
  "subtype",
  "operation",
  "timestamp",
  "sessionId",
  "isSidechain",
  "uuid",
  "isMeta",
  "isCompactSummary",
  "isVisibleInTranscriptOnly",
  "promptSource",
  "wakeupSource",
  "isApiErrorMessage",
] as const;

const clip = (v: unknown, max: number): unknown =>
  typeof v === "string" && v.length > max ? v.slice(0, max) : v;

function headAndTail(text: string): string {
  if (text.length <= RESULT_HEAD_KEEP + RESULT_TAIL_KEEP) return text;
  return `${text.slice(0, RESULT_HEAD_KEEP)}\n...\n${text.slice(-RESULT_TAIL_KEEP)}`;
}

/** The model's replies are cut to 300 characters for the last words: this much of each is kept. */
const REPLY_KEEP = 1024;

function shrinkBlock(b: unknown, textKeep: number): Line | null {
  if (!isObj(b)) return null;
  if (b["type"] === "text") return { type: "text", text: clip(b["text"], textKeep) };
  if (b["type"] === "tool_result")
    return {
      type: "tool_result",
      tool_use_id: b["tool_use_id"],
      is_error: b["is_error"],
      content: headAndTail(resultText(b)),
    };
  if (b["type"] !== "tool_use") return null;
  const input: Line = {};
  const src = isObj(b["input"]) ? b["input"] : {};
  for (const k of INPUT_KEYS)
    if (src[k] !== undefined) input[k] = k === "command" ? clip(src[k], COMMAND_KEEP) : src[k];
  return { type: "tool_use", id: b["id"], name: b["name"], input };
}

/** TaskCreate's result object is kept (it carries the new id); any other result is only marked present. */
function shrinkToolUseResult(r: unknown): unknown {
  if (r === undefined) return undefined;
  return isObj(r) && isObj(r["task"]) ? { task: { id: r["task"]["id"] } } : true;
}

/**
 * What the digest reads of one entry, nothing more: envelope flags, typed text, tool_use names and
 * the inputs named above, tool_result error flags with the start of their text. Lets the bounded
 * reader hold a 32 MB window as a few MB of objects.
 */
export function shrinkEntry(e: Line): Line {
  const out: Line = {};
  for (const k of ENVELOPE_KEYS) if (e[k] !== undefined) out[k] = e[k];
  if (e["type"] === "queue-operation") out["content"] = clip(e["content"], TEXT_KEEP);
  if (e["type"] !== "user" && e["type"] !== "assistant") return out;
  const message = e["message"];
  const content = isObj(message) ? message["content"] : null;
  if (typeof content === "string") out["message"] = { content: clip(content, TEXT_KEEP) };
  else if (Array.isArray(content))
    out["message"] = {
      content: content
        .map((b) => shrinkBlock(b, e["type"] === "assistant" ? REPLY_KEEP : TEXT_KEEP))
        .filter((b) => b !== null),
    };
  const result = shrinkToolUseResult(e["toolUseResult"]);
  if (result !== undefined) out["toolUseResult"] = result;
  return out;
}
