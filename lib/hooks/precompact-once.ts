import type { TranscriptDigest } from "../context/transcript-digest.ts";
import { oneLine } from "../core/text-cut.ts";
import { newestRequestOf } from "../store/checkpoint-digest.ts";
import { FLOOR } from "../store/checkpoint-budget.ts";
import type { ParsedCheckpoint } from "../store/checkpoint-parse.ts";

// PreCompact once per compaction. Claude Code 2.1.332 may precompute an
// auto-compaction beside the turn, so PreCompact(auto) can fire before the real swap and again
// when the precompute is re-armed. A PreCompact whose session's newest checkpoint already holds
// everything (no request, changed file, todo change or commit since) writes nothing.
// The comparison is by content: the transcript digest now against the checkpoint's parsed
// digest sections (which keep the newest request, every todo, and a newest-first prefix of the
// changed files with a "+N more" count), and the `head` section against HEAD now when both exist.

const moreCount = (omitted: readonly string[], kind: string): number => {
  const m = omitted.map((o) => new RegExp(`^\\+(\\d+) more ${kind}$`).exec(o)).find(Boolean);
  return m ? Number(m[1]) : 0;
};

const todoKey = (t: { status: string; content: string }) =>
  `${t.status} ${oneLine(t.content, 160)}`;

export interface SinceFacts {
  digest: TranscriptDigest;
  previous: ParsedCheckpoint;
  /** HEAD now (readHeadCheap), null when unknown */
  headNow: string | null;
  /** commits since the previous checkpoint's save; asked only when the `head` section cannot decide */
  commitsSince: () => number;
}

/** What happened since the previous checkpoint, as short phrases; [] when it holds everything. */
export function changesSince(f: SinceFacts): string[] {
  const { digest: now, previous } = f;
  const was = previous.digest;
  const found: string[] = [];
  const newestNow = now.requests.at(-1) ?? null;
  const newestWas = newestRequestOf(was);
  const wasAt = was.requests.find((r) => r.label === "newest")?.at ?? was.requests.at(-1)?.at;
  if (
    // the writer's own cut (checkpoint-digest.ts requestLine), so a long request compares equal
    (newestNow ? oneLine(newestNow.text, FLOOR.requestChars) : null) !== newestWas ||
    (newestNow && (newestNow.at ?? null) !== (wasAt ?? null))
  )
    found.push("a request");
  const shown = was.changed;
  const total = shown.length + moreCount(was.omitted, "changed files");
  const sameFiles =
    total === now.changed.length &&
    shown.every(
      (f, i) =>
        now.changed[i] &&
        oneLine(now.changed[i].path, 300) === f.path &&
        now.changed[i].count === f.count,
    );
  if (!sameFiles) found.push("a changed file");
  const todosNow = now.todos?.map(todoKey) ?? null;
  const todosWas = was.todos?.map(todoKey) ?? null;
  if (JSON.stringify(todosNow) !== JSON.stringify(todosWas)) found.push("the todo list");
  const headWas = previous.head;
  if (headWas !== undefined && f.headNow !== null) {
    if (headWas !== f.headNow) found.push("a commit (HEAD moved)");
  } else if (found.length === 0 && f.commitsSince() > 0) found.push("a commit");
  return found;
}
