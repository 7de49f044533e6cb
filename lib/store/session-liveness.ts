import type { Deps } from "../core/deps.ts";
import { utcIso } from "../core/time-format.ts";
import { listRegistry, readRegistry, writeRegistry } from "./session-registry.ts";

// A pidfile must name a process that lives as long as the skill run: the Claude Code session.
// The engine runs under a short-lived shell (Bash tool or `!` injection), so its parent dies at
// once; walk up the process tree to the nearest ancestor that is Claude Code itself.

const CLAUDE_COMM = /claude/i;
const MAX_DEPTH = 12;

export interface ProcessInfo {
  ppid: number;
  comm: string;
}

/**
 * When a process started, as /proc/<pid>/stat's field 22 (clock ticks since boot): with the pid it
 * names one process, so a recycled pid is not taken for the session. Null off Linux.
 */
export function processStartTicks(fs: Deps["fs"], pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8") as string;
    const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return ticks && /^[0-9]+$/.test(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

/** `/proc/<pid>/stat` on Linux (no child process, works without procps); else `ps`, as on macOS. */
export function readProcessInfo(deps: Pick<Deps, "run" | "fs">, pid: number): ProcessInfo | null {
  try {
    const stat = deps.fs.readFileSync(`/proc/${pid}/stat`, "utf8") as string;
    // NOTE: comm sits in parentheses and may itself hold spaces or ')': split at the last ')'.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    if (Number.isInteger(ppid)) return { ppid, comm };
  } catch {
    // not Linux, or the process is gone: ask ps
  }
  const res = deps.run("ps", ["-o", "ppid=,comm=", "-p", String(pid)], { timeoutMs: 2000 });
  if (res.status !== 0) return null;
  const match = /^\s*(\d+)\s+(.*?)\s*$/.exec(res.stdout.split("\n")[0] ?? "");
  if (!match) return null;
  return { ppid: Number(match[1]), comm: match[2] ?? "" };
}

/**
 * The pid to record for this session: the nearest ancestor of `start` whose command name says
 * claude; else `fallbackPid` (the caller's parent). Never the engine's own short-lived pid.
 */
export function sessionProcessPid(
  lookup: (pid: number) => ProcessInfo | null,
  start: number,
  fallbackPid: number,
): number {
  let pid = start;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const info = lookup(pid);
    if (!info || info.ppid <= 1) break;
    const parent = lookup(info.ppid);
    if (parent && CLAUDE_COMM.test(parent.comm.split("/").pop() ?? "")) return info.ppid;
    pid = info.ppid;
  }
  return fallbackPid;
}

// Which sessions are running now: SessionStart records the session's Claude Code process in the
// registry (kind "process"); a reader asks whether that process still lives.

export interface SessionProcess {
  pid: number;
  /** /proc start ticks when known: guards against a recycled pid */
  start: string | null;
  startedAt: string;
  cwd: string;
}

/**
 * The Claude Code process of the session whose hook runs as `selfPid`: hooks run under a shell
 * the client starts, so the nearest ancestor named claude; null when there is none (then nothing
 * is recorded and no session is ever called running).
 */
export function clientProcessPid(deps: Pick<Deps, "fs" | "run">, selfPid: number): number | null {
  const pid = sessionProcessPid((p) => readProcessInfo(deps, p), selfPid, -1);
  return pid > 1 ? pid : null;
}

export function recordSessionProcess(
  deps: Deps,
  configDir: string,
  sid: string,
  pid: number,
  cwd: string,
): SessionProcess {
  const value: SessionProcess = {
    pid,
    start: processStartTicks(deps.fs, pid),
    startedAt: utcIso(deps.now()),
    cwd,
  };
  writeRegistry(deps, configDir, "process", sid, value);
  return value;
}

/**
 * True when the session's recorded process still lives (same start time when both are known)
 * and no SessionEnd marked it ended. Unknown sessions are not running.
 */
export function isSessionRunning(deps: Deps, configDir: string, sid: string): boolean {
  const rec = readRegistry(deps, configDir, "process", sid);
  if (!rec || typeof rec["pid"] !== "number" || readRegistry(deps, configDir, "ended", sid))
    return false;
  if (!deps.isProcessAlive(rec["pid"])) return false;
  const then = typeof rec["start"] === "string" ? rec["start"] : null;
  const now = then === null ? null : processStartTicks(deps.fs, rec["pid"]);
  return then === null || now === null || now === then;
}

/**
 * isSessionRunning for many sessions: the registry folder is listed once, so a picker over 1,000
 * checkpoints reads only the records that exist (one failed open per checkpoint cost ~18 ms there).
 */
export function sessionRunningCheck(deps: Deps, configDir: string): (sid: string) => boolean {
  const recorded = new Set(listRegistry(deps, configDir, "process"));
  return (sid) => recorded.has(sid) && isSessionRunning(deps, configDir, sid);
}

/** The picker's and restore's words for a checkpoint whose session is alive. */
export function runningNote(sid: string): string {
  return `session ${sid.slice(0, 8)}... is still running: two sessions would now work on one task`;
}
