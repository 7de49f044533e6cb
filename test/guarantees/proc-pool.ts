import { spawn } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// Processes for the guarantee suites: many node runs of the built bundles with bounded
// parallelism (2 cores here), each with its stdin, env, an optional SIGKILL after a delay, and a
// hard timeout that counts as a hang.

export interface ProcJob {
  file: string;
  args?: string[];
  input?: string | Buffer;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** SIGKILL this many ms after the spawn (crash-safety suite) */
  killAfterMs?: number;
  /** leave stdin open and never write it (stall suite) */
  holdStdin?: boolean;
}

export interface ProcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** killed by the hard timeout: the process hung */
  hung: boolean;
}

// Only a safety net against a real hang: a loaded 2-core machine can take seconds per process.
export const HANG_MS = 120_000;

export function runProc(job: ProcJob, hangMs = HANG_MS): Promise<ProcResult> {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    let stdout = "";
    let stderr = "";
    // A cwd that is gone or no folder: the client would not start a hook there either; use base.
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(process.execPath, [job.file, ...(job.args ?? [])], {
        cwd: job.cwd,
        env: job.env,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (err) {
      return resolve({
        code: null,
        signal: null,
        stdout: "",
        stderr: `spawn failed: ${(err as Error).message}`,
        ms: 0,
        hung: false,
      });
    }
    child.on("error", (err) => (stderr += `spawn failed: ${err.message}`));
    let hung = false;
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.stdin!.on("error", () => undefined); // EPIPE when the process is gone before its stdin is written
    if (!job.holdStdin) child.stdin!.end(job.input ?? "");
    const killer =
      job.killAfterMs !== undefined
        ? setTimeout(() => child.kill("SIGKILL"), job.killAfterMs)
        : undefined;
    const hang = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, hangMs);
    child.on("close", (code, signal) => {
      clearTimeout(hang);
      if (killer) clearTimeout(killer);
      if (job.holdStdin) child.stdin!.destroy();
      resolve({
        code,
        signal,
        stdout,
        stderr,
        ms: Number(process.hrtime.bigint() - start) / 1e6,
        hung,
      });
    });
  });
}

/** Run every job, at most `parallel` at once, results in job order. */
export async function runPool(
  jobs: readonly ProcJob[],
  parallel: number,
  hangMs = HANG_MS,
): Promise<ProcResult[]> {
  const results: ProcResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= jobs.length) return;
      results[i] = await runProc(jobs[i]!, hangMs);
    }
  };
  // NOTE: one spawn per turn of the event loop, so each child's stdin is written right after its
  // spawn (as Claude Code does), not after a burst of 64 spawns that can outlast a hook's deadline.
  const workers: Promise<void>[] = [];
  for (let k = 0; k < Math.min(parallel, jobs.length); k += 1) {
    workers.push(worker());
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(workers);
  return results;
}

/** Every file under `dir` (symlinks not followed) with its content hash stand-in: size + mtime + first bytes. */
export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(d, name);
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(full);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(full);
      else
        out.set(
          full,
          `${st.size}:${st.mtimeMs}:${st.isSymbolicLink() ? "link" : st.isFile() ? "file" : "other"}`,
        );
    }
  };
  walk(dir);
  return out;
}

export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, v] of after) if (before.get(p) !== v) out.push(p);
  for (const p of before.keys()) if (!after.has(p)) out.push(p);
  return out;
}

export interface Sandbox {
  base: string;
  home: string;
  config: string;
  project: string;
  /** a folder with no .git: no project */
  loose: string;
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
}

/** A scratch $HOME with a project (a .git folder on branch main) and a loose folder; nothing touches the real ~/.claude. */
export function sandbox(prefix: string): Sandbox {
  const base = mkdtempSync(path.join(os.tmpdir(), `quoin-${prefix}-`));
  const home = path.join(base, "home");
  const config = path.join(home, ".claude");
  const project = path.join(home, "proj");
  const loose = path.join(home, "loose");
  mkdirSync(path.join(project, ".git"), { recursive: true });
  writeFileSync(path.join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(path.join(project, "src", "deep"), { recursive: true });
  mkdirSync(loose, { recursive: true });
  mkdirSync(path.join(config, "projects"), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    HOME: home,
    CLAUDE_CONFIG_DIR: config,
    TZ: "UTC",
  };
  return {
    base,
    home,
    config,
    project,
    loose,
    env,
    cleanup: () => rmSync(base, { recursive: true, force: true, maxRetries: 5 }),
  };
}

export function readOr(file: string, fallback = ""): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}
