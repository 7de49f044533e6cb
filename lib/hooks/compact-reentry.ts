import type { Deps } from "../core/deps.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { newestRequestOf, oneLine } from "../store/checkpoint-digest.ts";
import { parseCheckpoint } from "../store/checkpoint-format.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { ownPendingRestore } from "../store/pending-restore.ts";

// SessionStart(compact): the model's own summary loses exact paths, so the re-entry note carries
// what the PreCompact checkpoint of this same session holds: the newest requests, the todos and
// the newest changed files. Only this session's own sentinel, naming a file inside checkpoints/.

/** Room for the digest part of the note; the whole additionalContext stays under 2,000 characters. */
const REENTRY_DIGEST_CHARS = 1200;
const CHANGED_FILES = 8;
const TODOS = 8;
const REQUEST_CHARS = 160;
const MARK = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;

/** The digest lines of this session's precompact checkpoint, cut to `max` characters; null when there is none. */
export function reentryDigest(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  max = REENTRY_DIGEST_CHARS,
): string | null {
  const own = ownPendingRestore(deps, paths, sid);
  const text = own?.checkpoint ? readTextOrNull(deps.fs, own.checkpoint) : null;
  if (!own?.checkpoint || text === null) return null;
  const p = parseCheckpoint(text);
  if (p.sessionId !== sid) return null;
  const d = p.digest;
  const lines = [`Saved before the compaction: ${own.checkpoint}`];
  const newest = newestRequestOf(d);
  const earlier = d.requests.filter((r) => r.text !== newest).slice(-2);
  for (const r of earlier) lines.push(`Earlier request: ${oneLine(r.text, REQUEST_CHARS)}`);
  if (newest) lines.push(`Newest request: ${oneLine(newest, REQUEST_CHARS)}`);
  if (d.todos?.length)
    lines.push(
      `Todos: ${d.todos
        .slice(0, TODOS)
        .map((t) => `${MARK[t.status]} ${oneLine(t.content, 80)}`)
        .join("; ")}${d.todos.length > TODOS ? `; +${d.todos.length - TODOS} more` : ""}`,
    );
  if (d.changed.length)
    lines.push(
      `Newest changed files: ${d.changed
        .slice(0, CHANGED_FILES)
        .map((f) => f.path)
        .join(
          ", ",
        )}${d.changed.length > CHANGED_FILES ? `, +${d.changed.length - CHANGED_FILES} more` : ""}`,
    );
  if (lines.length === 1) return null;
  let out = "";
  for (const l of lines) {
    const next = out ? `${out}\n${l}` : l;
    if (next.length > max) break;
    out = next;
  }
  return out || null;
}
