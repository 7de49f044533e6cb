import { createRequire } from "node:module";
import * as path from "node:path";
import type { Deps, RunOptions, RunResult } from "../core/deps.ts";
import { ENGINE_BUNDLE } from "../core/engine-name.ts";
import { writeStderr } from "./std-write.ts";

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

// NOTE: builtins come through require, not ESM imports. An ESM import of node:fs builds a
// facade that reads every export, and its lazy getters (ReadStream, promises) load the whole
// stream stack: about 1.5 ms on every prompt. child_process (net, stream) loads on first use.
// import.meta.filename: a bundle defines it as __filename (no file URL is built on the hot path).
const require = createRequire(import.meta.filename ?? import.meta.url);
export const nodeFs = require("node:fs") as typeof import("node:fs");
let childProcess: typeof import("node:child_process") | undefined;

function run(cmd: string, args: readonly string[], opts: RunOptions = {}): RunResult {
  childProcess ??= require("node:child_process") as typeof import("node:child_process");
  const res = childProcess.spawnSync(cmd, args, {
    cwd: opts.cwd,
    input: opts.input,
    env: opts.env ? { ...process.env, ...opts.env } : undefined,
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 5000,
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 16 * 1024 * 1024,
  });
  return {
    status: res.error ? null : res.status,
    stdout: res.stdout ?? "",
    stderr: res.stderr ?? "",
    ...(res.pid ? { pid: res.pid } : {}),
  };
}

/**
 * The engine bundle this process belongs to: itself, or for a hook (<dir>/hooks/<name>.cjs) the
 * engine beside that folder.
 */
function engineScript(): string | undefined {
  const self = process.argv[1];
  if (!self) return undefined;
  const dir = path.dirname(self);
  return path.basename(dir) === "hooks" ? path.join(path.dirname(dir), ENGINE_BUNDLE) : self;
}

// A synchronous wait: the hooks' work is synchronous, so a timer would never get its turn.
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
}

/** The real world, for entry points only. */
export function nodeDeps(overrides: Partial<Deps> = {}): Deps {
  return {
    fs: nodeFs,
    now: () => new Date(),
    env: process.env,
    pid: process.pid,
    uid: process.getuid?.(),
    ppid: process.ppid,
    nodeVersion: process.version,
    home: process.env["HOME"] || (require("node:os") as typeof import("node:os")).homedir(),
    cwd: process.cwd(),
    isProcessAlive,
    run,
    sleep,
    warn: (line) => writeStderr(line.endsWith("\n") ? line : `${line}\n`),
    engineScript: engineScript(),
    ...overrides,
  };
}
