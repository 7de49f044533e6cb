import type { FsApi } from "../core/deps.ts";
import { readHead, readTextOrNull } from "../core/file-range.ts";
import { unescapeBody } from "../core/markdown-sections.ts";
import { titleOf, type SectionKey } from "../store/checkpoint-sections.ts";

// What the picker needs from a checkpoint's first sections (status, task, branch, session id,
// intent), read cheaply; head-cache.ts keeps them between restores.

export interface HeadFields {
  status?: string;
  task?: string;
  branch?: string;
  /** undefined: no session-id section (legacy); null: recorded as unknown */
  sessionId?: string | null;
  /** first line of the intent section, when it lies within the head */
  intent?: string;
}

/** Enough for Status, Current stage, Active task, Branch and Session ID of a checkpoint this tool writes (else the whole file is read). */
export const HEAD_BYTES = 1024;

/** `## Title` of a section, as the file has it (the section table's title). */
const heading = (key: SectionKey) => `## ${titleOf(key)}`;
const NEEDED_HEADINGS = (["task", "branch", "sessionId"] as const).map(
  (k) => new RegExp(`^${heading(k)}\\s*$`, "m"),
);
/** `line` is the heading of `key` (trailing blanks allowed). */
const isHeading = (line: string, key: SectionKey) =>
  line.startsWith(heading(key)) && line.slice(heading(key).length).trim() === "";
const TITLE = {
  branch: titleOf("branch").toLowerCase(),
  sessionId: titleOf("sessionId").toLowerCase(),
  intent: titleOf("intent").toLowerCase(),
};

/**
 * The first sections of a checkpoint, read cheaply: a 1 KB prefix cut back to whole sections;
 * the whole file only when a section the picker needs is not in the prefix. `file` was just
 * lstatted as a regular file (regularFileStat).
 */
export function readCheckpointHead(
  fs: FsApi,
  file: { path: string; size: number },
): string | undefined {
  const prefix = readHead(fs, file.path, HEAD_BYTES, { lstatted: true });
  if (prefix === null) return undefined;
  if (file.size <= HEAD_BYTES) return prefix;
  const lastHeading = prefix.lastIndexOf("\n## ");
  const whole = lastHeading > 0 ? prefix.slice(0, lastHeading + 1) : prefix;
  if (NEEDED_HEADINGS.every((h) => h.test(whole))) return whole;
  return readTextOrNull(fs, file.path) ?? undefined;
}

function normalTitle(line: string): string {
  return line.slice(3).trim().replace(/:$/, "").toLowerCase();
}

/**
 * The fields the picker needs from a checkpoint's first sections, in one pass over the lines.
 * NOTE: runs on up to thousands of heads per restore, so it stops once it has all three; the
 * results equal parseSections + firstLineOf (and parseActiveTask for the task).
 */
export function headFields(head: string): HeadFields {
  let task: string | undefined;
  let status: string | undefined;
  let statusNext = false;
  let branch: string | null | undefined;
  let sid: string | null | undefined;
  let intent: string | undefined;
  let intentSeen = false;
  // which field the next non-blank line fills: 1 branch, 2 session id, 3 intent
  let want = 0;
  let taskNext = false;
  let at = 0;
  while (at <= head.length) {
    const end = head.indexOf("\n", at);
    const raw = head.slice(at, end < 0 ? head.length : end);
    at = end < 0 ? head.length + 1 : end + 1;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    // a field's value as written (an escaped `#` or `---` line is text, never a heading)
    const value = () => unescapeBody(line).trim();
    if (statusNext && line.trim() !== "") {
      status = value();
      statusNext = false;
    }
    if (taskNext) {
      // The seed's awk: the line right after the task heading, CR stripped.
      task = value() || undefined;
      taskNext = false;
    }
    if (line.startsWith("## ")) {
      if (want === 1) branch = null;
      if (want === 2) sid = null;
      want = 0;
      statusNext = false;
      if (isHeading(line, "task") && task === undefined) taskNext = true;
      if (isHeading(line, "status") && status === undefined) statusNext = true;
      const title = normalTitle(line);
      if (title === TITLE.branch && branch === undefined) want = 1;
      else if (title === TITLE.sessionId && sid === undefined) want = 2;
      else if (title === TITLE.intent && !intentSeen) {
        want = 3;
        intentSeen = true;
      }
    } else if (want !== 0 && line.trim() !== "") {
      if (want === 1) branch = value();
      else if (want === 2) sid = value();
      else intent = value() === "(none)" ? undefined : value();
      want = 0;
    }
    // The intent follows the session link; past the artifacts it is not there.
    const pastIntent = intentSeen || isHeading(line, "artifacts");
    if (task !== undefined && branch !== undefined && sid !== undefined && pastIntent && want === 0)
      break;
  }
  if (want === 1) branch = null;
  if (want === 2) sid = null;
  return {
    ...(status === undefined ? {} : { status }),
    task,
    branch: branch ?? undefined,
    sessionId: sid === undefined ? undefined : sid && sid !== "unknown" ? sid : null,
    ...(intent ? { intent } : {}),
  };
}
