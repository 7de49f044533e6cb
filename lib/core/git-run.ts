import type { Deps, RunOptions, RunResult } from "./deps.ts";

// The one way lib/ runs git: `git -C <root> ...` through deps.run, bounded by a timeout (or by
// what is left before a caller's deadline), with stdin when a command reads it, the no-prompt
// environment for a network call and quoin's identity for a commit. A command and the parser of
// its output travel together as a task (simple-git's shape), so each output has one parser.

/** A local call's limit when the caller gives none. */
export const GIT_DEFAULT_MS = 5000;
/** A network call's (fetch, push, ls-remote) limit when the caller gives none. */
export const GIT_NETWORK_MS = 30_000;

/** Never a credential prompt: git's own, ssh's, or a GUI askpass. */
const NO_PROMPT = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
  GCM_INTERACTIVE: "never",
};

export interface GitCallOptions {
  timeoutMs?: number;
  /** written to git's stdin (`cat-file --batch`, `mktree`, `commit-tree -F -`) */
  input?: string;
  /** a call that may reach a remote: never a prompt, ssh in batch mode, the network timeout */
  network?: boolean;
  /** the commit carries quoin's identity and this time, so it works without user.name set */
  identityAt?: Date;
  env?: Readonly<Record<string, string>>;
}

/** Who the shared ref's commits are by; the date is the caller's clock. */
function identity(at: Date): Record<string, string> {
  const when = `${Math.floor(at.getTime() / 1000)} +0000`;
  return {
    GIT_AUTHOR_NAME: "quoin-checkpoint",
    GIT_AUTHOR_EMAIL: "quoin-checkpoint@localhost",
    GIT_COMMITTER_NAME: "quoin-checkpoint",
    GIT_COMMITTER_EMAIL: "quoin-checkpoint@localhost",
    GIT_AUTHOR_DATE: when,
    GIT_COMMITTER_DATE: when,
  };
}

/** The environment a call adds, or undefined (nothing added). */
function callEnv(deps: Deps, o: GitCallOptions): Record<string, string> | undefined {
  const env: Record<string, string> = {
    ...(o.network
      ? {
          ...NO_PROMPT,
          // BatchMode: ssh fails instead of asking for a passphrase or a host key.
          GIT_SSH_COMMAND: deps.env["GIT_SSH_COMMAND"] ?? "ssh -o BatchMode=yes",
        }
      : {}),
    ...(o.identityAt ? identity(o.identityAt) : {}),
    ...o.env,
  };
  return Object.keys(env).length ? env : undefined;
}

/** `git -C root ...args`, whatever its exit: the only place lib/ spawns git. */
export function runGit(
  deps: Deps,
  root: string,
  args: readonly string[],
  o: GitCallOptions = {},
): RunResult {
  const env = callEnv(deps, o);
  const opts: RunOptions = {
    timeoutMs: o.timeoutMs ?? (o.network ? GIT_NETWORK_MS : GIT_DEFAULT_MS),
    ...(o.input !== undefined ? { input: o.input } : {}),
    ...(env ? { env } : {}),
  };
  return deps.run("git", ["-C", root, ...args], opts);
}

/** A git command and the parser of its output. */
export interface GitTask<T> {
  args: readonly string[];
  input?: string;
  parse: (stdout: string) => T;
}

/** Something that runs git in one repository: the plain runner, or one bounded by a deadline. */
export interface GitRunner {
  run(args: readonly string[], o?: GitCallOptions): RunResult;
}

/** The task's parsed output on exit 0; null when git failed, timed out or was not run. */
export function runTask<T>(runner: GitRunner, task: GitTask<T>): T | null {
  const r = runner.run(task.args, task.input !== undefined ? { input: task.input } : {});
  return r.status === 0 ? task.parse(r.stdout) : null;
}

/** Each call bounded by its own timeout (GIT_DEFAULT_MS unless given). */
export function plainRunner(deps: Deps, root: string, timeoutMs?: number): GitRunner {
  return {
    run: (args, o = {}) =>
      runGit(deps, root, args, timeoutMs !== undefined && !o.timeoutMs ? { ...o, timeoutMs } : o),
  };
}

/** Below this much time left before the deadline no git call starts. */
const MIN_CALL_MS = 60;

/**
 * Calls bounded by a deadline: each one's timeout is its fixed limit cut to what is left (whole
 * milliseconds: node's spawn wants them); once a call was killed, or too little time is left, no
 * further call starts and `skipped` says so.
 */
export class DeadlineRunner implements GitRunner {
  skipped = false;
  constructor(
    private readonly deps: Deps,
    private readonly root: string,
    private readonly limits: { callMs: number; deadlineAt?: number; reserveMs?: number },
  ) {}

  private limit(): number | null {
    const { callMs, deadlineAt, reserveMs } = this.limits;
    if (deadlineAt === undefined) return callMs;
    const left = deadlineAt - (reserveMs ?? 0) - this.deps.now().getTime();
    return left < MIN_CALL_MS ? null : Math.floor(Math.min(callMs, left));
  }

  run(args: readonly string[], o: GitCallOptions = {}): RunResult {
    const timeoutMs = this.skipped ? null : this.limit();
    if (timeoutMs === null) {
      this.skipped = true;
      return { status: null, stdout: "", stderr: "not run: no time left before the deadline" };
    }
    const r = runGit(this.deps, this.root, args, { ...o, timeoutMs });
    if (r.status === null) this.skipped = true;
    return r;
  }
}
