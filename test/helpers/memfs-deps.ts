import { createFsFromVolume, Volume } from "memfs";
import type { Deps, FsApi, RunResult } from "../../lib/core/deps.ts";

export interface FakeDepsOptions {
  files?: Record<string, string>;
  now?: string;
  env?: Record<string, string | undefined>;
  home?: string;
  cwd?: string;
  alive?: (pid: number) => boolean;
  run?: (cmd: string, args: readonly string[]) => RunResult;
}

export interface FakeDeps extends Deps {
  vol: InstanceType<typeof Volume>;
  warnings: string[];
  /** set the clock */
  setNow: (iso: string) => void;
  /** set a file's mtime */
  touch: (file: string, iso: string) => void;
}

/** A memfs world with a fixed clock: what every unit test runs against. */
export function fakeDeps(opts: FakeDepsOptions = {}): FakeDeps {
  const vol = Volume.fromJSON(opts.files ?? {});
  const fs = createFsFromVolume(vol) as unknown as FsApi;
  let now = new Date(opts.now ?? "2026-11-29T12:00:00Z");
  const warnings: string[] = [];
  return {
    vol,
    fs,
    now: () => new Date(now),
    env: opts.env ?? {},
    pid: 4242,
    ppid: 1,
    nodeVersion: "v22.11.0",
    home: opts.home ?? "/home/u",
    cwd: opts.cwd ?? "/home/u/proj",
    isProcessAlive: opts.alive ?? (() => true),
    run: opts.run ?? (() => ({ status: 1, stdout: "", stderr: "no processes in unit tests" })),
    warn: (line) => warnings.push(line),
    warnings,
    setNow: (iso) => {
      now = new Date(iso);
    },
    touch: (file, iso) => {
      const t = new Date(iso);
      vol.utimesSync(file, t, t);
    },
  };
}

export function readText(deps: Deps, file: string): string {
  return deps.fs.readFileSync(file, "utf8") as string;
}

/** Every file under a folder, as paths, sorted. */
export function listFiles(deps: FakeDeps, dir = "/"): string[] {
  return Object.keys(deps.vol.toJSON(dir))
    .filter((p) => deps.vol.toJSON(dir)[p] !== null)
    .sort();
}
