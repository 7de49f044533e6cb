import type { Deps } from "../core/deps.ts";
import { HookInputError, parseHookInput, type HookAnswer, type PayloadSpec } from "../hooks/hook-io.ts";
import { appendHookLog } from "../hooks/hook-log.ts";
import { nodeFs } from "./node-deps.ts";
import { memoryPaths } from "../store/memory-paths.ts";
import { resolveProjectRoot } from "../store/project-root.ts";

const STDIN_CAP_BYTES = 16 * 1024 * 1024;
export const HOOK_DEADLINE_MS = 8000;

export interface HookOptions {
  /** ms after the process started when the hook gives up (default HOOK_DEADLINE_MS) */
  deadlineMs?: number;
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

export type HookHandler = (raw: string, ctx: HookContext) => HookAnswer | null;

/**
 * Put fd 0 in non-blocking mode, so that a read of a stdin that never closes answers EAGAIN instead
 * of holding a libuv thread: a held thread keeps process.exit from ending the process, and the
 * deadline would log and then hang until the client's timeout. NOTE: libuv's pipe handle is the
 * only way node sets O_NONBLOCK on an fd it did not open (Claude Code's stdin is a socket pair);
 * process.stdin would do it too, at the cost of the whole stream stack on every prompt. When it
 * cannot (another kind of stdin), reads stay blocking and the deadline may not end a stall.
 */
function stdinFd(): number {
  try {
    const binding = (process as unknown as { binding: (name: string) => { Pipe: new (type: number) => { open: (fd: number) => number }; constants: { SOCKET: number } } }).binding("pipe_wrap");
    new binding.Pipe(binding.constants.SOCKET).open(0);
  } catch {
    // a regular file or /dev/null: reads end by themselves
  }
  return 0;
}

/**
 * A hook's stdin, whole, or null when it is over the cap or unreadable. NOTE: fs.read on fd 0
 * instead of process.stdin: the stream machinery costs milliseconds on every prompt, and an
 * async read leaves the deadline timer able to fire.
 */
function readStdin(cap: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fd = stdinFd();
    const next = () => {
      const buf = Buffer.allocUnsafe(64 * 1024);
      nodeFs.read(fd, buf, 0, buf.length, null, (err, n) => {
        if (err) {
          // EAGAIN: a non-blocking stdin with nothing yet; try again shortly.
          if ((err as NodeJS.ErrnoException).code === "EAGAIN") return void setTimeout(next, 2);
          return resolve(err.code === "EOF" ? Buffer.concat(chunks).toString("utf8") : null);
        }
        if (n === 0) return resolve(Buffer.concat(chunks).toString("utf8"));
        size += n;
        if (size > cap) return resolve(null);
        chunks.push(buf.subarray(0, n));
        next();
      });
    };
    next();
  });
}

function logFailure(ctx: HookContext, event: string, message: string): void {
  try {
    const root = resolveProjectRoot(ctx.deps.fs, ctx.logCwd ?? ctx.deps.cwd, ctx.deps.home);
    const paths = memoryPaths(root);
    // Only log into a project that already uses quoin; never create folders in a stray cwd.
    if (!ctx.deps.fs.existsSync(paths.artifacts)) return;
    appendHookLog(ctx.deps.fs, paths.hooksLog, paths.memory, ctx.deps.now(), `${event}: ${message}`);
  } catch {
    // fail open, silently
  }
}

/**
 * The only place a hook turns into a process outcome: read stdin once, run the handler,
 * print at most one JSON object, exit 0 whatever happens (fail open, one log line).
 */
export async function runHook(event: string, handler: HookHandler, deps: Deps, opts: HookOptions = {}): Promise<void> {
  const budget = opts.deadlineMs ?? HOOK_DEADLINE_MS;
  // NOTE: counted from the process start, not from here: node's own start-up is part of the budget.
  const startedAt = Date.now() - process.uptime() * 1000;
  const ctx: HookContext = { deps, deadlineAt: startedAt + budget };
  if (opts.finishOnSigterm) process.on("SIGTERM", () => logFailure(ctx, event, "SIGTERM received; finishing the current step"));
  const deadline = setTimeout(() => {
    logFailure(ctx, event, `deadline of ${budget} ms passed; exiting without an answer`);
    process.exit(0);
  }, Math.max(0, ctx.deadlineAt - Date.now()));
  deadline.unref();
  let out = "";
  try {
    const raw = await readStdin(STDIN_CAP_BYTES);
    if (raw === null) {
      logFailure(ctx, event, `stdin unreadable or over ${STDIN_CAP_BYTES} bytes`);
    } else {
      const answer = handler(raw, ctx);
      if (answer) out = `${JSON.stringify(answer)}\n`;
    }
  } catch (err) {
    const e = err as Error;
    logFailure(ctx, event, e.name === "HookInputError" ? e.message : `${e.name}: ${e.message}`);
    out = "";
  }
  clearTimeout(deadline);
  if (out) process.stdout.write(out);
  process.exitCode = 0;
}

/**
 * A whole hook entry point: validate stdin with `schema`, remember its cwd for the log, and hand
 * the payload to `handle`. Bad input is logged as one line and answered with nothing.
 */
export function runValidatedHook<T extends { session_id: string; hook_event_name: string; cwd?: string }>(
  event: string,
  schema: () => PayloadSpec<T>,
  handle: (input: T, ctx: HookContext) => HookAnswer | null,
  deps: Deps,
  opts: HookOptions = {},
): Promise<void> {
  return runHook(
    event,
    (raw, ctx) => {
      const parsed = parseHookInput(schema(), raw, event);
      if (!parsed.ok) throw new HookInputError(parsed.reason);
      ctx.logCwd = parsed.value.cwd;
      return handle(parsed.value, ctx);
    },
    deps,
    opts,
  );
}
