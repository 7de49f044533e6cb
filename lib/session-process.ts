import type { Deps } from "./deps.ts";

// A pidfile must name a process that lives as long as the skill run: the Claude Code session.
// The engine runs under a short-lived shell (Bash tool or `!` injection), so its parent dies at
// once; walk up the process tree to the nearest ancestor that is Claude Code itself.

const CLAUDE_COMM = /claude/i;
const MAX_DEPTH = 12;

export interface ProcessInfo {
  ppid: number;
  comm: string;
}

/** `ps -o ppid=,comm= -p PID` works on Linux and macOS alike. */
export function readProcessInfo(deps: Pick<Deps, "run">, pid: number): ProcessInfo | null {
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
