import type { Deps } from "../core/deps.ts";

// A pidfile must name a process that lives as long as the skill run: the Claude Code session.
// The engine runs under a short-lived shell (Bash tool or `!` injection), so its parent dies at
// once; walk up the process tree to the nearest ancestor that is Claude Code itself.

const CLAUDE_COMM = /claude/i;
const MAX_DEPTH = 12;

export interface ProcessInfo {
  ppid: number;
  comm: string;
}

/** `/proc/<pid>/stat` on Linux (no child process, works without procps); else `ps`, as on macOS. */
export function readProcessInfo(deps: Pick<Deps, "run" | "fs">, pid: number): ProcessInfo | null {
  try {
    const stat = deps.fs.readFileSync(`/proc/${pid}/stat`, "utf8");
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
