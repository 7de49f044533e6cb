import * as fs from "node:fs";
import * as os from "node:os";
import { createRequire } from "node:module";
import type { Deps, RunOptions, RunResult } from "./deps.ts";

function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

// NOTE: child_process pulls in net and stream (~2 ms); hooks on the hot path rarely spawn, so load it on first use.
let childProcess: typeof import("node:child_process") | undefined;

function run(cmd: string, args: readonly string[], opts: RunOptions = {}): RunResult {
  childProcess ??= createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  const res = childProcess.spawnSync(cmd, args, {
    cwd: opts.cwd,
    input: opts.input,
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 5000,
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 16 * 1024 * 1024,
  });
  return { status: res.error ? null : res.status, stdout: res.stdout ?? "", stderr: res.stderr ?? "" };
}

/** The real world, for entry points only. */
export function nodeDeps(overrides: Partial<Deps> = {}): Deps {
  return {
    fs,
    now: () => new Date(),
    env: process.env,
    pid: process.pid,
    home: process.env["HOME"] || os.homedir(),
    cwd: process.cwd(),
    isProcessAlive,
    run,
    warn: (line) => process.stderr.write(line.endsWith("\n") ? line : `${line}\n`),
    ...overrides,
  };
}
