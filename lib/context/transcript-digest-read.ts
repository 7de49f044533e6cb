import * as path from "node:path";
import type { FsApi } from "../core/deps.ts";
import { readHead, scanLinesBackwards, withOpenFile } from "../core/file-range.ts";
import { digestEntries, firstRequestOf, type TranscriptDigest } from "./transcript-digest.ts";
import { ofSession, parseLine, type Line } from "./transcript-digest-line.ts";
import { shrinkEntry } from "./transcript-digest-shrink.ts";

/** Real sessions keep edits 1.5 MB and more before the end: read this much back by default. */
const DIGEST_BUDGET_BYTES = 32 * 1024 * 1024;
/** The session's first request sits near the head (a resumed session's summary line, a skill expansion before it). */
const DIGEST_HEAD_BYTES = 512 * 1024;
const FIRST_CHUNK = 256 * 1024;
const MAX_CHUNK = 4 * 1024 * 1024;

export interface ReadDigestOptions {
  projectRoot: string;
  sessionId?: string;
  budgetBytes?: number;
  headBytes?: number;
}

const has = (line: Buffer, s: string): boolean => line.indexOf(s) >= 0;

/** A Linear view's `# ENG-214: Title` heading at the start of a result or of one of its lines. */
const hasKeyHeading = (line: Buffer) =>
  has(line, "# ") && /(?:"|\\n)# [A-Z][A-Z0-9]*-\d+:? /.test(line.toString("latin1"));

/** The markers of a tool result that can change the digest (Bash output, TaskCreate's result). */
function resultMatters(line: Buffer): boolean {
  return (
    has(line, '"task":{') ||
    has(line, "Task #") ||
    // a commit's `[branch hash] subject` result, or a piped run whose output tells how it went
    has(line, " changed") ||
    has(line, "FAIL") ||
    has(line, "Error:") ||
    has(line, "failure") ||
    has(line, "failed") ||
    has(line, " error") ||
    // a tracker's item or list (transcript-digest-work.ts): beads' `id · title` and ready list,
    // gh's plain `title:\t` view and `N\tOPEN\t` list, jira-cli's plain table and view
    has(line, " \u00b7 ") ||
    has(line, "Ready work") ||
    has(line, "title:\\t") ||
    has(line, "\\tOPEN\\t") ||
    has(line, "KEY\\t") ||
    has(line, " Description -") ||
    // Linear's `ID  TITLE` list header and its view's `# ENG-214: Title` heading
    has(line, "TITLE") ||
    hasKeyHeading(line)
  );
}

/**
 * Whether a line can change the digest, judged on its bytes before any parse (escaped quotes inside
 * strings never match these). Progress, snapshot and plain assistant text lines cannot; nor can a
 * tool result that is neither an error nor TaskCreate's (a call with no error counts without its
 * result). Half of a real window is tool results, a third progress lines: this skips most of it.
 */
export function mayMatter(line: Buffer): boolean {
  if (has(line, '"tool_result"'))
    return (
      has(line, '"is_error":true') ||
      // A Read, Edit or Write that went through (its toolUseResult holds the file or the patch)
      // tells the digest nothing its call does not: three of four tool-result bytes of a real
      // window, which resultMatters would scan once for each of its markers.
      (!has(line, '"structuredPatch":') && !has(line, '"file":{"filePath":') && resultMatters(line))
    );
  return (
    // what a PostToolUse hook told the model, or (an older client) that one ran
    has(line, '"hook_blocking_error"') ||
    has(line, '"hook_additional_context"') ||
    (has(line, '"hook_progress"') && has(line, '"PostToolUse"')) ||
    has(line, '"type":"user"') ||
    (has(line, '"type":"text"') && has(line, '"type":"assistant"')) ||
    has(line, '"tool_use"') ||
    has(line, '"queue-operation"') ||
    has(line, '"compact_boundary"')
  );
}

/** The first typed request from a bounded read of the head; the last line of a cut head is partial, so dropped. */
function firstFromHead(
  fs: FsApi,
  file: string,
  size: number,
  headBytes: number,
  opts: ReadDigestOptions,
): TranscriptDigest["firstRequest"] {
  const head = readHead(fs, file, headBytes);
  if (head === null) return null;
  const lines = head.split("\n");
  if (size > headBytes) lines.pop();
  return firstRequestOf(lines, opts);
}

/**
 * The digest of a transcript file, read backwards from the end within `budgetBytes` (lines are
 * parsed and shrunk as they come, so memory follows the digest, not the file), plus a bounded head
 * read for the session's first request when the window does not reach the start. `truncated` when
 * the budget cut the history short. null when the file is missing, unreadable or not a regular file
 * (withOpenFile stats first: a FIFO would block the open).
 */
export function readTranscriptDigest(
  fs: FsApi,
  transcriptPath: string,
  opts: ReadDigestOptions,
): TranscriptDigest | null {
  const budget = Math.max(1, opts.budgetBytes ?? DIGEST_BUDGET_BYTES);
  const headBytes = Math.max(0, opts.headBytes ?? DIGEST_HEAD_BYTES);
  const digestOpts = { projectRoot: opts.projectRoot, sessionId: opts.sessionId, transcriptPath };
  try {
    return withOpenFile(fs, transcriptPath, (fd, size) => {
      const newestFirst: Line[] = [];
      // Until the newest line of ours is seen every line is parsed: its timestamp is `lastAt`.
      let newestSeen = false;
      const scan = scanLinesBackwards(
        fs,
        fd,
        size,
        { initialChunk: FIRST_CHUNK, growth: 2, maxChunk: MAX_CHUNK, maxScan: budget },
        (line) => {
          if (newestSeen && !mayMatter(line)) return false;
          const e = parseLine(line.toString("utf8"));
          if (e === null || !ofSession(e, opts.sessionId)) return false;
          newestFirst.push(shrinkEntry(e));
          newestSeen ||= typeof e["timestamp"] === "string";
          return false;
        },
      );
      const main = digestEntries(newestFirst.reverse(), digestOpts);
      const digest = {
        ...main,
        commits: withSubagentCommits(fs, transcriptPath, main, digestOpts),
      };
      if (scan.reachedStart) return digest;
      return {
        ...digest,
        firstRequest: firstFromHead(fs, transcriptPath, size, headBytes, digestOpts),
        truncated: true,
      };
    });
  } catch {
    return null;
  }
}

/** Each subagent transcript (`<session>/subagents/*.jsonl` beside the session's file) is read back this far. */
const SUBAGENT_BYTES = 2 * 1024 * 1024;
const SUBAGENT_FILES = 20;

/** The session's commits with those of its subagents' own transcript files, in time order. */
function withSubagentCommits(
  fs: FsApi,
  transcriptPath: string,
  main: TranscriptDigest,
  opts: { projectRoot: string; sessionId?: string },
): TranscriptDigest["commits"] {
  const dir = path.join(transcriptPath.replace(/\.jsonl$/, ""), "subagents");
  let names: string[];
  try {
    names = (fs.readdirSync(dir) as string[]).filter((n) => n.endsWith(".jsonl")).sort();
  } catch {
    return main.commits;
  }
  const commits = [...main.commits];
  for (const name of names.slice(-SUBAGENT_FILES)) {
    const entries: Line[] = [];
    try {
      withOpenFile(fs, path.join(dir, name), (fd, size) =>
        scanLinesBackwards(
          fs,
          fd,
          size,
          { initialChunk: FIRST_CHUNK, growth: 2, maxChunk: MAX_CHUNK, maxScan: SUBAGENT_BYTES },
          (line) => {
            if (!has(line, '"tool_')) return false;
            const e = parseLine(line.toString("utf8"));
            if (e !== null) entries.push({ ...shrinkEntry(e), isSidechain: true });
            return false;
          },
        ),
      );
    } catch {
      continue;
    }
    const sub = digestEntries(entries.reverse(), opts);
    for (const c of sub.commits)
      if (!c.hash || !commits.some((x) => x.hash === c.hash))
        commits.push({ ...c, subagent: true });
  }
  return commits.sort((a, b) =>
    (a.at ?? "") < (b.at ?? "") ? -1 : (a.at ?? "") > (b.at ?? "") ? 1 : 0,
  );
}
