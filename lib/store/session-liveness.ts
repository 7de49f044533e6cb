import type { Deps } from "../core/deps.ts";
import { utcIso } from "../core/time-format.ts";
import { readProcessInfo, processStartTicks, sessionProcessPid } from "./session-process.ts";
import { readRegistry, writeRegistry } from "./session-registry.ts";

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

export function recordSessionProcess(deps: Deps, configDir: string, sid: string, pid: number, cwd: string): SessionProcess {
  const value: SessionProcess = { pid, start: processStartTicks(deps.fs, pid), startedAt: utcIso(deps.now()), cwd };
  writeRegistry(deps, configDir, "process", sid, value);
  return value;
}

/**
 * True when the session's recorded process still lives (same start time when both are known)
 * and no SessionEnd marked it ended. Unknown sessions are not running.
 */
export function isSessionRunning(deps: Deps, configDir: string, sid: string): boolean {
  const rec = readRegistry(deps, configDir, "process", sid);
  if (!rec || typeof rec["pid"] !== "number" || readRegistry(deps, configDir, "ended", sid)) return false;
  if (!deps.isProcessAlive(rec["pid"])) return false;
  const then = typeof rec["start"] === "string" ? rec["start"] : null;
  const now = then === null ? null : processStartTicks(deps.fs, rec["pid"]);
  return then === null || now === null || now === then;
}

/** The picker's and restore's words for a checkpoint whose session is alive. */
export function runningNote(sid: string): string {
  return `session ${sid.slice(0, 8)}... is still running: two sessions would now work on one task`;
}
