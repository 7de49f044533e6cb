import { commandKey, outputShowsFailure } from "./transcript-handover.ts";

// When a later run settles a failed one: the same program and subcommand on the same target, not
// only the same text. `git push` is settled by `git push --set-upstream origin x` and by
// `git commit ... && git push`, not by a push to another remote; `mix test a_test.exs` by a later
// `mix test` that covers that file, not by a run of another file; a run narrowed by a filter
// (`npm test -- -t x`) settles a failure only when its output names each failing test as passed.

/** One simple command of a compound one: its program, subcommand, positional words and options. */
export interface Segment {
  program: string;
  sub: string;
  args: string[];
  options: string[];
  /** the segment's own text, redirections and trailing filters removed */
  text: string;
}

/** Programs whose first word after the options is a subcommand. */
const WITH_SUB =
  /^(?:git|npm|pnpm|yarn|bun|npx|mix|cargo|go|bd|br|gh|glab|jira|linear|docker|kubectl|make|dotnet|poetry|uv|bundle|rails|rake|deno|terraform|helm)$/;
/** Segments that set up a run and say nothing about what failed. */
const SETUP = /^(?:cd|echo|export|source|\.|set|sleep|true|pwd|printf|unset|env)$/;
/** Test runners: their positional words are the files or folders the run covers. */
const TEST_RUN =
  /^(?:(?:mix|cargo|go|npm|pnpm|yarn|bun|deno|dotnet) test|pytest|jest|vitest|rspec|phpunit|npx (?:vitest|jest|playwright)|(?:npm|pnpm|yarn) run test)$/;
/** Options that narrow a test run to some tests by name. */
const NAME_FILTER =
  /^(?:-t|--testNamePattern|--grep|-g|-k|--only|--filter|-run|--test-name-pattern)(?:=|$)/;
/** Options of git and other programs that take a value before the subcommand. */
const VALUE_BEFORE_SUB = /^(?:-C|-c|--git-dir|--work-tree|--prefix|-w|--workspace)$/;

function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g))
    out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

/** A simple command's parts; null for an empty one or a setup step (`cd x`, `export A=1`). */
export function segmentOf(text: string): Segment | null {
  const clean = commandKey(text).key;
  const all = words(clean);
  while (all.length && /^\w+=/.test(all[0]!)) all.shift(); // VAR=1 cmd
  const program = all.shift();
  if (program === undefined || SETUP.test(program) || !/^[\w./~-]/.test(program)) return null;
  let sub = "";
  const rest: string[] = [];
  for (let i = 0; i < all.length; i += 1) {
    const w = all[i]!;
    if (sub === "" && WITH_SUB.test(program) && w.startsWith("-")) {
      if (VALUE_BEFORE_SUB.test(w)) i += 1;
      continue;
    }
    if (sub === "" && WITH_SUB.test(program)) {
      sub = w;
      if ((program === "npm" || program === "pnpm" || program === "yarn") && w === "run")
        sub = `run ${all[++i] ?? ""}`.trim();
      continue;
    }
    rest.push(w);
  }
  const args: string[] = [];
  const options: string[] = [];
  let afterDashes = false;
  for (const w of rest) {
    if (w === "--") afterDashes = true;
    else if (w.startsWith("-")) options.push(w);
    else if (afterDashes && options.length && NAME_FILTER.test(options.at(-1)!)) options.push(w);
    else args.push(w);
  }
  return { program, sub, args, options, text: clean };
}

/**
 * The simple commands of a compound one that ran and passed when the whole command passed: those
 * joined by `&&`, and the last. After a `||` or `;` the earlier ones may have failed unseen.
 */
export function segmentsOf(command: string): { all: Segment[]; passedWithWhole: Segment[] } {
  // heredoc bodies and quoted text are not commands: only the first line of each heredoc counts
  const head = command.replace(/<<-?\s*'?(\w+)'?[\s\S]*?\n\1\b/g, "");
  const parts = head.split(/(&&|\|\||;|\n)/);
  const all: Segment[] = [];
  const passed: Segment[] = [];
  let guarded = true;
  for (let i = 0; i < parts.length; i += 2) {
    const seg = segmentOf(parts[i] ?? "");
    const sep = parts[i + 1];
    if (seg !== null) {
      all.push(seg);
      if (guarded && (sep === undefined || sep === "&&")) passed.push(seg);
    }
    if (sep === "||") guarded = false;
  }
  return { all, passedWithWhole: guarded ? passed : passed.slice(-1) };
}

/** The remote and branch a `git push` names (`origin` when it names none). */
function pushTarget(s: Segment): { remote: string; branch: string | null } {
  const [remote, ref] = s.args;
  return { remote: remote ?? "origin", branch: ref ? ref.replace(/^.*:/, "") : null };
}

const pathPart = (p: string) => p.replace(/:\d+(?::\d+)?$/, "").replace(/\/+$/, "");
const covers = (run: string, file: string) =>
  pathPart(file) === pathPart(run) || pathPart(file).startsWith(`${pathPart(run)}/`);

/** The tests a failed run's output names as failing (`FAIL x`, `✗ x`, `× x`, `1) test x`). */
export function failingTests(output: string): string[] {
  const names: string[] = [];
  for (const m of output.matchAll(/^\s*(?:FAIL|FAILED|✗|×|✕)\s+(.+?)\s*$/gm)) names.push(m[1]!);
  for (const m of output.matchAll(/^\s*\d+\) test (.+?) \(/gm)) names.push(m[1]!);
  return [...new Set(names)];
}

export interface FailedRun {
  segment: Segment;
  output: string;
}
export interface PassedRun {
  segment: Segment;
  output: string;
}

/** Whether a passed run settles a failed one: same program, subcommand and target. */
export function settles(failed: FailedRun, passed: PassedRun): boolean {
  const f = failed.segment;
  const p = passed.segment;
  if (f.program !== p.program || f.sub !== p.sub) return false;
  if (f.text === p.text) return true;
  if (f.program === "git" && f.sub === "push") {
    const ft = pushTarget(f);
    const pt = pushTarget(p);
    return ft.remote === pt.remote && (ft.branch === null || ft.branch === pt.branch);
  }
  const kind = f.sub ? `${f.program} ${f.sub}` : f.program;
  if (TEST_RUN.test(kind)) {
    if (outputShowsFailure(passed.output)) return false;
    const filtered = p.options.some((o) => NAME_FILTER.test(o));
    if (filtered) {
      const names = failingTests(failed.output);
      return names.length > 0 && names.every((n) => passed.output.includes(n));
    }
    if (p.args.length === 0) return true;
    return f.args.length > 0 && f.args.every((a) => p.args.some((run) => covers(run, a)));
  }
  // Any other program: the same subcommand on the same positional words (options may differ).
  return f.args.length === p.args.length && f.args.every((a, i) => a === p.args[i]);
}
