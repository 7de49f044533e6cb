import type { CliContext } from "./cli-context.ts";

/**
 * The engine's exit codes, the one table (docs/commands.md, "Exit codes", prints it):
 * 0 done, or an answer is needed (`needs`, `needsMode`, restore's `choose`); 1 refused; 2 bad usage.
 * `dispatch` and `pidfile` always exit 0: the skill runs them through a `!` injection, where a
 * non-zero exit aborts the skill.
 */
export const EXIT = { done: 0, refused: 1, usage: 2 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

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
