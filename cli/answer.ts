import type { CliContext } from "./cli-context.ts";

/**
 * The engine's exit codes, the one table (docs/commands.md, "Exit codes", prints it):
 * 0 done, or an answer is needed (`needs`, `needsMode`, restore's `choose`); 1 refused; 2 bad usage.
 * `dispatch` and `pidfile` always exit 0: the skill runs them through a `!` injection, where a
 * non-zero exit aborts the skill.
 */
export const EXIT = { done: 0, refused: 1, usage: 2 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * One exit code for one cause, whatever the command: the table docs/commands.md prints and
 * test/unit/cli/exit-causes.test.ts checks command by command.
 */
export const EXIT_CAUSES = [
  { cause: "done", code: EXIT.done, says: "the command did what was asked" },
  {
    cause: "needs an answer",
    code: EXIT.done,
    says: "a question for the person (save's mode, restore's choice); rerun with the answer",
  },
  {
    cause: "unknown command or option",
    code: EXIT.usage,
    says: "`unknown option --jsno; did you mean --json?`",
  },
  {
    cause: "bad value",
    code: EXIT.usage,
    says: "an option's value is not one it takes (`--mode bogus`, `--session ../x`, `--pick 0`)",
  },
  {
    cause: "no session",
    code: EXIT.usage,
    says: "the command needs a session and none was given or found: pass --session ID",
  },
  {
    cause: "not in a project",
    code: EXIT.usage,
    says: "run from $HOME, an ancestor of it or /: run inside a project or pass --cwd DIR",
  },
  {
    cause: "no transcript",
    code: EXIT.refused,
    says: "`no transcript for session <id> at <path>`",
  },
  {
    cause: "nothing to save",
    code: EXIT.refused,
    says: "save knows no session, no transcript and no document: nothing is written",
  },
  {
    cause: "refused",
    code: EXIT.refused,
    says: "anything else the command could not do (nothing to restore, a failed doctor check, a write that failed)",
  },
] as const;

export type ExitCause = (typeof EXIT_CAUSES)[number]["cause"];

/** The exit code for a cause (EXIT_CAUSES). */
export function exitFor(cause: ExitCause): ExitCode {
  return EXIT_CAUSES.find((c) => c.cause === cause)!.code;
}

/** What a refusal says: why, and (where known) what was expected instead. */
export interface Refusal {
  reason: string;
  expected?: string;
}

/** The one shape of a refused `--json` answer: `{ ok: false, reason, expected?, ...extra }`. */
export function refusalJson(r: Refusal, extra: object = {}): object {
  return {
    ok: false,
    reason: r.reason,
    ...(r.expected !== undefined ? { expected: r.expected } : {}),
    ...extra,
  };
}

export interface RefuseOptions {
  code?: ExitCode;
  /** fields the answer carries beside `reason` (save's `needsMode`, restore's `show`) */
  extra?: object;
  /** the text form: one line, to stderr (the default) or stdout; default the reason */
  text?: string;
  textTo?: "stderr" | "stdout";
}

/**
 * The one writer of a command's refusal: under --json one object (refusalJson), else one line.
 * Returns the exit code (default 1, refused).
 */
export function refuse(ctx: CliContext, r: Refusal, opts: RefuseOptions = {}): ExitCode {
  if (ctx.json) ctx.stdout(`${JSON.stringify(refusalJson(r, opts.extra))}\n`);
  else if (opts.textTo === "stdout") ctx.stdout(`${opts.text ?? r.reason}\n`);
  else ctx.deps.warn(opts.text ?? r.reason);
  return opts.code ?? EXIT.refused;
}

/** The one writer of a done `--json` answer: `{ ok: true, ...fields }`. */
export function answer(ctx: CliContext, fields: Record<string, unknown>): ExitCode {
  ctx.stdout(`${JSON.stringify({ ok: true, ...fields })}\n`);
  return EXIT.done;
}
