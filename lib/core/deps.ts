import type * as nodeFs from "node:fs";

/** The sync subset of node:fs that lib/ uses; memfs provides the same calls in tests. */
export type FsApi = Pick<
  typeof nodeFs,
  | "readFileSync"
  | "writeFileSync"
  | "appendFileSync"
  | "renameSync"
  | "linkSync"
  | "unlinkSync"
  | "mkdirSync"
  | "existsSync"
  | "statSync"
  | "lstatSync"
  | "readdirSync"
  | "openSync"
  | "readSync"
  | "closeSync"
  | "fstatSync"
  | "chmodSync"
  | "realpathSync"
  | "rmSync"
  | "writeSync"
  | "mkdtempSync"
  | "constants"
>;

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** the child's process id, when one was started (its temp files carry it) */
  pid?: number;
}

export interface RunOptions {
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  /** variables added to the process environment for this child only (e.g. GIT_TERMINAL_PROMPT=0) */
  env?: Readonly<Record<string, string>>;
}

/** Everything that touches the world. Built once at an entry point; tests pass memfs and a fixed clock. */
export interface Deps {
  fs: FsApi;
  now: () => Date;
  env: Readonly<Record<string, string | undefined>>;
  pid: number;
  /** the parent process (the skill's shell under Claude Code) */
  ppid: number;
  /** `process.version`, e.g. v22.11.0 */
  nodeVersion: string;
  home: string;
  cwd: string;
  isProcessAlive: (pid: number) => boolean;
  run: (cmd: string, args: readonly string[], opts?: RunOptions) => RunResult;
  /** One diagnostic line for a person (stderr at the edges). */
  warn: (line: string) => void;
  /** The engine's own file (for a hook: the bundle beside its hooks/ folder), so a message can print a command that runs. */
  engineScript?: string;
  /** The process's user id, for the project root's ownership check; absent where there is none (Windows). */
  uid?: number;
  /** Block this many ms (a bounded wait for another hook's file); absent: callers do not wait. */
  sleep?: (ms: number) => void;
}

/**
 * Deps whose clock is read once, now: an operation that writes several dated names (a checkpoint,
 * a trash folder, a ledger row) gives them all the same instant, even across midnight.
 */
export function withFrozenClock(deps: Deps): Deps {
  const at = deps.now().getTime();
  return { ...deps, now: () => new Date(at) };
}
