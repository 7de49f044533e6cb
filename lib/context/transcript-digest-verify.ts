import type { ToolCall, ToolOutcome } from "./transcript-digest-pass.ts";
import { segmentsOf, type Segment } from "./transcript-digest-fixes.ts";

// Whether the session's last edits were followed by a check of the project (a build, a test run,
// a linter). A check's feedback can reach the model without reaching the transcript (a
// PostToolUse hook's compile error is shown to the model, never written as a tool result), so a
// checkpoint cannot know the state of the last edit; it can know that nothing checked it since,
// and say so, naming the checks the session itself ran.

/** A Bash segment that checks the project: a build, a test run, a type check or a linter. */
export function checkKind(s: Segment): string | null {
  const { program: p, sub } = s;
  const kind = sub ? `${p} ${sub}` : p;
  if (p === "mix" && /^(?:compile|test|credo|dialyzer|format|check)$/.test(sub)) return kind;
  if (/^(?:npm|pnpm|yarn|bun)$/.test(p)) {
    if (sub === "test" || sub === "t") return `${p} test`;
    if (/^run (?:build|test|lint|check|typecheck|tsc|compile)\S*$/.test(sub)) return kind;
    if (p === "bun" && sub === "build") return kind;
    return null;
  }
  if (p === "npx" || p === "bunx" || p === "pnpx") {
    return /^(?:tsc|vitest|jest|eslint|biome|playwright|mocha|ava|tsx)$/.test(sub) ? kind : null;
  }
  if (p === "cargo" && /^(?:build|test|check|clippy|nextest)$/.test(sub)) return kind;
  if (p === "go" && /^(?:build|test|vet)$/.test(sub)) return kind;
  if (p === "dotnet" && /^(?:build|test)$/.test(sub)) return kind;
  if (p === "deno" && /^(?:test|check|lint)$/.test(sub)) return kind;
  if (p === "make" || p === "gradle" || p === "./gradlew" || p === "mvn" || p === "./mvnw")
    return p;
  if (p === "bundle" && sub === "exec") return s.args[0] ? `bundle exec ${s.args[0]}` : null;
  if (p === "rake" || p === "rails") return sub === "test" || p === "rake" ? kind : null;
  if (/^(?:python3?|uv|poetry)$/.test(p)) {
    const tool = s.args.find((a) => /^(?:pytest|mypy|ruff|unittest|compileall)$/.test(a));
    return tool ? tool : null;
  }
  if (
    /^(?:tsc|vitest|jest|pytest|mypy|ruff|eslint|biome|rspec|phpunit|swift|elixir|gcc|clang|cmake|ninja|tox|nox)$/.test(
      p,
    )
  )
    return p;
  return null;
}

/** Builds first, then test runs, then linters: the order to run them in. */
function rank(kind: string): number {
  if (/\b(?:compile|build|check|tsc|make|gradle|mvn)\b/.test(kind)) return 0;
  if (/\b(?:test|pytest|vitest|jest|rspec|phpunit|nextest|unittest)\b/.test(kind)) return 1;
  return 2;
}

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
}

interface Change {
  path: string;
  at: string | null;
  index: number;
}

/** Tracks changes and checks in call order; `result` says what was changed after the last check. */
export class VerifyLog {
  private readonly changes: Change[] = [];
  private lastCheck = -1;
  private readonly checks: string[] = [];

  changed(path: string, at: string | null, index: number): void {
    if (NOT_CHECKED.test(path)) return;
    this.changes.push({ path, at, index });
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

  result(): Unverified | null {
    const after = this.changes.filter((c) => c.index > this.lastCheck);
    const newest = after.at(-1);
    if (!newest) return null;
    const others = new Set(after.map((c) => c.path).reverse());
    others.delete(newest.path);
    const checks = this.checks.slice(0, 3).sort((a, b) => rank(a) - rank(b));
    return { path: newest.path, others: [...others], at: newest.at, checks };
  }
}

/** `2026-02-12T20:29:01Z` from an ISO time. */
function second(at: string | null): string | null {
  if (!at) return null;
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? null : `${d.toISOString().slice(0, 19)}Z`;
}

/**
 * The one line a checkpoint and the brief say: `lib/x.ex was changed at 2026-02-12T20:29:01Z and
 * not compiled or tested since: its state is unverified; run mix compile / mix test first`.
 */
export function unverifiedLine(u: Unverified): string {
  const when = second(u.at);
  const run = u.checks.length
    ? `run ${u.checks.join(" / ")} first (the checks this session ran)`
    : "run the project's build and tests first (this session ran none)";
  if (u.others.length === 0)
    return `${u.path} was changed${when ? ` at ${when}` : ""} and not compiled or tested since: its state is unverified; ${run}`;
  const also = u.others.length === 1 ? u.others[0] : `${u.others.length} other files`;
  return `${u.path} and ${also} were changed${when ? ` (the last at ${when})` : ""} and not compiled or tested since: their state is unverified; ${run}`;
}
