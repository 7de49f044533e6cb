import type { ToolCall, ToolOutcome } from "./transcript-digest-pass.ts";
import { segmentsOf, type Segment } from "./transcript-digest-fixes.ts";
import type { HookLog, HookNote } from "./transcript-digest-hooks.ts";
import { oneLine } from "../core/text-cut.ts";
import { firstOf, moreText } from "../core/text-list.ts";
import { TEXT_LIMITS } from "../core/text-limits.ts";

// Whether the session's last edits were followed by a check of the project (a build, a test run,
// a linter). A check's feedback can reach the model without reaching the transcript (a
// PostToolUse hook's compile error is shown to the model, never written as a tool result), so a
// checkpoint cannot know the state of the last edit; it can know that nothing checked it since,
// and say so, naming the checks the session itself ran, and quote what the session's own hooks
// told the model after the edit where the client recorded it (transcript-digest-hooks.ts).

/** A program and subcommand that check the project: a build, a test run, a type check, a linter. */
const CHECK_RUN =
  /^(?:mix (?:compile|test|credo|dialyzer|format|check)|(?:npm|pnpm|yarn|bun) (?:test|t|run (?:build|test|lint|check|typecheck|tsc|compile)\S*)|bun build|(?:npx|bunx|pnpx) (?:tsc|vitest|jest|eslint|biome|playwright|mocha)|cargo (?:build|test|check|clippy|nextest)|go (?:build|test|vet)|dotnet (?:build|test)|deno (?:test|check|lint)|rails test)$/;
/** Programs that check the project whatever follows them. */
const CHECK_PROGRAM =
  /^(?:make|gradle|\.\/gradlew|mvn|\.\/mvnw|rake|tsc|vitest|jest|pytest|mypy|ruff|eslint|biome|rspec|phpunit|tox|nox|cmake|ninja)$/;

/** The check a Bash segment runs (`mix compile`, `npx tsc`, `pytest`), or null. */
export function checkKind(s: Segment): string | null {
  const kind = s.sub ? `${s.program} ${s.sub}` : s.program;
  if (CHECK_RUN.test(kind)) return kind;
  if (CHECK_PROGRAM.test(s.program)) return s.program;
  // python -m pytest, uv run pytest, poetry run mypy
  return /^(?:python3?|uv|poetry)$/.test(s.program)
    ? (s.args.find((a) => /^(?:pytest|mypy|ruff|unittest)$/.test(a)) ?? null)
    : null;
}

/** Builds first, then test runs, then linters: the order to run them in. */
const rank = (kind: string) =>
  /compile|build|check|tsc|make|gradle|mvn/.test(kind)
    ? 0
    : /test|jest|rspec|phpunit/.test(kind)
      ? 1
      : 2;

/** Files whose edit no check needs: notes and docs. */
const NOT_CHECKED = /\.(?:md|markdown|txt|rst|adoc)$/i;

export interface Unverified {
  /** the newest changed file, as the project path */
  path: string;
  /** the other files changed after the last check, newest first */
  others: string[];
  /** when the newest change was made (ISO) */
  at: string | null;
  /** the checks the session ran, newest first, distinct (`mix compile`, `mix test`), at most 3 */
  checks: string[];
  /** what PostToolUse hooks told the model after the newest edit of each of those files, newest first */
  reported: HookNote[];
  /** an older client's record that PostToolUse hooks ran after those edits (names only), when it
   * recorded no hook's words */
  hooksRan: string[];
}

interface Change {
  path: string;
  at: string | null;
  index: number;
  callId: string;
}

/** Tracks changes and checks in call order; `result` says what was changed after the last check. */
export class VerifyLog {
  private readonly changes: Change[] = [];
  private lastCheck = -1;
  private readonly checks: string[] = [];

  changed(path: string, at: string | null, index: number, callId: string): void {
    if (NOT_CHECKED.test(path)) return;
    this.changes.push({ path, at, index, callId });
  }

  run(call: ToolCall, outcome: ToolOutcome | undefined, index: number): void {
    if (call.name !== "Bash" || call.subagent || outcome?.rejected) return;
    const command = (call.input as { command?: unknown }).command;
    if (typeof command !== "string") return;
    // a check that ran counts whether it passed or not: a failure that still stands is said
    // among the failures; what is unverified is an edit no check saw
    const kinds = segmentsOf(command)
      .all.map(checkKind)
      .filter((k) => k !== null);
    if (!kinds.length) return;
    this.lastCheck = index;
    for (const k of kinds.reverse()) {
      const at = this.checks.indexOf(k);
      if (at >= 0) this.checks.splice(at, 1);
      this.checks.unshift(k);
    }
  }

  result(hooks: HookLog): Unverified | null {
    const after = this.changes.filter((c) => c.index > this.lastCheck);
    const newest = after.at(-1);
    if (!newest) return null;
    const others = new Set(after.map((c) => c.path).reverse());
    others.delete(newest.path);
    const checks = this.checks.slice(0, 3).sort((a, b) => rank(a) - rank(b));
    // each file's newest edit: feedback on an earlier edit of it was answered by the later one
    const lastEdits = [...new Map(after.map((c) => [c.path, c])).values()].reverse();
    const reported = lastEdits.flatMap((c) => hooks.notesOf(c.callId));
    const ran = hooks.recordsOutcomes ? [] : lastEdits.flatMap((c) => hooks.ranAfter(c.callId));
    return {
      path: newest.path,
      others: [...others],
      at: newest.at,
      checks,
      reported,
      hooksRan: [...new Set(ran)].sort((a, b) => checkLike(b) - checkLike(a)),
    };
  }
}

/** A hook whose name says it checks (a compiler, linter, type or test run) is named first. */
const checkLike = (name: string) =>
  /check|lint|compile|credo|tsc|type|test|verify/i.test(name) ? 1 : 0;

// Hook names a line gives (two, then a count) and what it quotes of their words: TEXT_LIMITS.digest.
const LIMIT = TEXT_LIMITS.digest;

/** A hook's words as one quoted line of data (backquotes inside made '). */
const quoted = (n: HookNote) =>
  `\`${oneLine(n.text, LIMIT.hookNoteChars).replace(/`/g, "'")}\`${n.hook ? ` (${n.hook})` : ""}`;

/**
 * The one line a checkpoint and the brief say: `lib/x.ex was changed at 2026-02-12T20:29:01Z and
 * no build or test command ran since: its state is unverified; run mix compile / mix test first`,
 * then which PostToolUse hooks ran after the edit (an older client), or instead of "unverified"
 * what those hooks told the model (a current client).
 */
export function unverifiedLine(u: Unverified): string {
  const d = new Date(u.at ?? "");
  const when = Number.isNaN(d.getTime()) ? "" : `${d.toISOString().slice(0, 19)}Z`;
  const n = u.others.length;
  const run = `run ${u.checks.join(" / ") || "the project's build and tests"} first`;
  const files = n ? `${u.path} and ${n === 1 ? u.others[0] : `${n} other files`}` : u.path;
  const at = when ? (n ? ` (last at ${when})` : ` at ${when}`) : "";
  const head = `${files} ${n ? "were" : "was"} changed${at} and no build or test command ran since`;
  if (u.reported.length) {
    const notes = u.reported.slice(0, LIMIT.hookNotes).map(quoted).join("; ");
    const more = moreText(u.reported.length - LIMIT.hookNotes);
    return `${head}; ${run}: after the edit a PostToolUse hook told the model ${notes}${more ? ` ${more}` : ""}`;
  }
  // the hooks' part last: a line cut to its limit loses their names before what to run
  const state = `${head}: ${n ? "their" : "its"} state is unverified; ${run}`;
  if (!u.hooksRan.length) return state;
  const named = firstOf(u.hooksRan, LIMIT.hooksNamed);
  return `${state}; PostToolUse hooks (${named}) ran after the edit, but what they told the model is not in the transcript`;
}
