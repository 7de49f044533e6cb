import { DAY_MS } from "../../lib/core/time-format.ts";
import * as path from "node:path";
import { createFsFromVolume, Volume } from "memfs";
import type { Deps, FsApi, RunResult } from "../../lib/core/deps.ts";
import { readKnobs, type Knobs } from "../../lib/core/knobs.ts";
import { memoryPaths, type MemoryPaths } from "../../lib/store/memory-paths.ts";

export const ROOT = "/home/u/proj";
export const HOME = "/home/u";
export const NOW = new Date("2026-11-29T21:07:26Z");
export const SID = "11111111-2222-3333-4444-555555555555";
export const OTHER = "99999999-8888-7777-6666-555555555555";
export const DAY = DAY_MS;

export interface MemWorld {
  deps: Deps;
  vol: InstanceType<typeof Volume>;
  fs: FsApi;
  paths: MemoryPaths;
  warnings: string[];
  runs: Array<{ cmd: string; args: readonly string[] }>;
  /** files under ROOT, relative, sorted */
  files: () => string[];
  /** set a file's mtime to `now - ageMs` */
  age: (file: string, ageMs: number) => void;
  write: (file: string, text: string, ageMs?: number) => void;
}

export function memWorld(
  files: Record<string, string> = {},
  opts: {
    alive?: (pid: number) => boolean;
    run?: (cmd: string, args: readonly string[]) => RunResult;
    now?: Date;
  } = {},
): MemWorld {
  const vol = Volume.fromJSON({
    [path.join(ROOT, ".git", "HEAD")]: "ref: refs/heads/feat/x\n",
    ...files,
  });
  const fs = createFsFromVolume(vol) as unknown as FsApi;
  const now = opts.now ?? NOW;
  const warnings: string[] = [];
  const runs: MemWorld["runs"] = [];
  const deps: Deps = {
    fs,
    now: () => now,
    env: {},
    pid: 4242,
    ppid: 1,
    nodeVersion: "v22.11.0",
    home: HOME,
    cwd: ROOT,
    isProcessAlive: opts.alive ?? (() => false),
    run: (cmd, args) => {
      runs.push({ cmd, args });
      return opts.run ? opts.run(cmd, args) : { status: 1, stdout: "", stderr: "" };
    },
    warn: (line) => warnings.push(line),
  };
  const age = (file: string, ageMs: number) => {
    const t = new Date(now.getTime() - ageMs);
    vol.utimesSync(file, t, t);
  };
  for (const file of Object.keys(files)) age(file, 60_000);
  return {
    deps,
    vol,
    fs,
    paths: memoryPaths(ROOT),
    warnings,
    runs,
    age,
    write: (file, text, ageMs = 60_000) => {
      vol.mkdirSync(path.dirname(file), { recursive: true });
      vol.writeFileSync(file, text);
      age(file, ageMs);
    },
    files: () =>
      Object.keys(vol.toJSON())
        .filter((f) => f.startsWith(`${ROOT}/`) && !f.startsWith(`${ROOT}/.git/`))
        .map((f) => path.relative(ROOT, f))
        .sort(),
  };
}

export function knobs(env: Record<string, string> = {}): Knobs {
  return readKnobs({ QUOIN_CONTEXT_WINDOW: "200000", ...env }, () => {});
}

/** One main-chain assistant line with usage: tokens count against a 167k limit (200k window). */
export function transcriptLine(tokens: number, timestamp = "2026-11-29T20:00:00.000Z"): string {
  return `${JSON.stringify({
    type: "assistant",
    isSidechain: false,
    timestamp,
    message: {
      model: "claude-sonnet-4-5",
      usage: { input_tokens: tokens, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  })}\n`;
}

export const MEM = `${ROOT}/.workflow_artifacts/memory`;
export const CKPTS = `${MEM}/checkpoints`;
export const SESSIONS = `${MEM}/sessions`;
