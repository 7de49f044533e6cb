import type { Deps } from "../core/deps.ts";
import {
  HookInputError,
  parseHookInput,
  type HookAnswer,
  type PayloadSpec,
} from "../hooks/hook-io.ts";
import { appendHookLog, logRefusals } from "../hooks/hook-log.ts";
import { answerForInstall } from "../hooks/checkpoint-command.ts";
import { checkpointCommand } from "../core/checkpoint-command.ts";
import { readStdin } from "./stdin.ts";
import { projectMemory } from "../store/project-root.ts";
import { writeStdout } from "./std-write.ts";

const STDIN_CAP_BYTES = 16 * 1024 * 1024;
export const HOOK_DEADLINE_MS = 8000;

export interface HookOptions {
  /** ms after the process started when the hook gives up (default HOOK_DEADLINE_MS) */
  budgetMs?: number;
  /**
   * Let a SIGTERM wait until the synchronous work is done (a listener replaces node's default
   * exit). SessionEnd: Claude Code sends it at 1.5 s; the atomic writes leave nothing partial either way.
   */
  finishOnSigterm?: boolean;
}

export interface HookContext {
  deps: Deps;
  /** epoch ms at which this hook's own deadline falls */
  deadlineAt: number;
  /** Set by the handler once it knows the payload's cwd, so failures are logged in the right project. */
  logCwd?: string;
}

/**
 * Plain text on stdout instead of a JSON answer. NOTE: PreCompact only: Claude Code appends a
 * PreCompact hook's plain stdout to the summariser's instructions ("stdout appended as custom
 * compact instructions"); a JSON object there is parsed as an answer and not appended.
 */
export interface PlainTextAnswer {
  plainText: string;
}

export type HookHandler = (raw: string, ctx: HookContext) => HookAnswer | PlainTextAnswer | null;

function logFailure(ctx: HookContext, event: string, message: string): void {
  try {
    const paths = projectMemory(ctx.deps, ctx.logCwd ?? ctx.deps.cwd);
    // Only log into a project that already uses quoin; never create folders in a stray cwd.
    if (!paths || !ctx.deps.fs.existsSync(paths.artifacts)) return;
    appendHookLog(ctx.deps, `${event}: ${message}`, paths.root);
  } catch {
    // fail open, silently
  }
}

/**
 * The only place a hook turns into a process outcome: read stdin once, run the handler,
 * print at most one JSON object, exit 0 whatever happens (fail open, one log line).
 */
export async function runHook(
  event: string,
  handler: HookHandler,
  deps: Deps,
  opts: HookOptions = {},
): Promise<void> {
  const budget = opts.budgetMs ?? HOOK_DEADLINE_MS;
  // NOTE: counted from the process start, not from here: node's own start-up is part of the budget.
  const startedAt = Date.now() - process.uptime() * 1000;
  const ctx: HookContext = { deps, deadlineAt: startedAt + budget };
  if (opts.finishOnSigterm)
    process.on("SIGTERM", () =>
      logFailure(ctx, event, "SIGTERM received; finishing the current step"),
    );
  const deadline = setTimeout(
    () => {
      logFailure(ctx, event, `deadline of ${budget} ms passed; exiting without an answer`);
      process.exit(0);
    },
    Math.max(0, ctx.deadlineAt - Date.now()),
  );
  deadline.unref();
  let out = "";
  try {
    const raw = await readStdin(STDIN_CAP_BYTES);
    if (raw === null) {
      logFailure(ctx, event, `stdin unreadable or over ${STDIN_CAP_BYTES} bytes`);
    } else {
      const answer = handler(raw, ctx);
      if (answer)
        out =
          "plainText" in answer
            ? answer.plainText && `${answer.plainText}\n`
            : `${JSON.stringify(answer)}\n`;
    }
  } catch (err) {
    const e = err as Error;
    logFailure(ctx, event, e.name === "HookInputError" ? e.message : `${e.name}: ${e.message}`);
    out = "";
  }
  clearTimeout(deadline);
  // A file the safe-file rule refused is named once in the log, even on a run that went well.
  logRefusals(deps);
  if (out) writeStdout(out);
  // NOTE: exit now rather than let the loop drain: every write above was synchronous, and node's
  // teardown of an ended loop (isolate, heap, worker threads) costs about 2 ms of CPU and 0.3 ms
  // of wall on every prompt (perf stat, Node 24). The 'exit' listeners still run (the code cache).
  process.exit(0);
}

function isFolder(deps: Deps, p: string): boolean {
  try {
    return deps.fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A whole hook entry point: validate stdin with `schema`, remember its cwd for the log, and hand
 * the payload to `handle`. Bad input is logged as one line and answered with nothing.
 */
export function runValidatedHook<
  T extends { session_id: string; hook_event_name: string; cwd?: string },
>(
  event: string,
  schema: () => PayloadSpec<T>,
  handle: (input: T, ctx: HookContext) => HookAnswer | PlainTextAnswer | null,
  deps: Deps,
  opts: HookOptions = {},
): Promise<void> {
  return runHook(
    event,
    (raw, ctx) => {
      const parsed = parseHookInput(schema(), raw, event);
      if (!parsed.ok) throw new HookInputError(parsed.reason);
      const cwd = parsed.value.cwd;
      // A cwd that names a file (or nothing) would resolve to the repository around it: refused
      // before any handler runs, and logged where a hook logs without a project (deps.cwd).
      if (cwd !== undefined && !isFolder(deps, cwd))
        throw new HookInputError(
          `payload cwd ${JSON.stringify(cwd)} is not a folder; nothing written`,
        );
      ctx.logCwd = cwd;
      const answer = handle(parsed.value, ctx);
      if (!answer) return null;
      return "plainText" in answer ? answer : answerForInstall(answer, checkpointCommand(deps));
    },
    deps,
    opts,
  );
}
