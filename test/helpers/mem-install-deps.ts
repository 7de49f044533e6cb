import { Volume, createFsFromVolume } from "memfs";
import type { Deps, FsApi } from "../../lib/core/deps.ts";

/** A Deps over an in-memory volume and a fixed clock, for unit tests. */
export function memDeps(
  files: Record<string, string> = {},
  overrides: Partial<Deps> = {},
): { deps: Deps; vol: InstanceType<typeof Volume>; warnings: string[] } {
  const vol = Volume.fromJSON(files);
  const warnings: string[] = [];
  const deps: Deps = {
    fs: createFsFromVolume(vol) as unknown as FsApi,
    now: () => new Date("2026-11-29T21:30:00Z"),
    env: {},
    pid: 4242,
    ppid: 1,
    nodeVersion: "v22.11.0",
    home: "/home/u",
    cwd: "/home/u/proj",
    isProcessAlive: () => true,
    run: () => ({ status: 1, stdout: "", stderr: "" }),
    warn: (line) => warnings.push(line),
    ...overrides,
  };
  return { deps, vol, warnings };
}

/** Every file under `dir` with its content: a snapshot to compare byte for byte. */
export function snapshot(
  vol: InstanceType<typeof Volume>,
  dir: string,
): Record<string, string | null> {
  const all = vol.toJSON(dir) as Record<string, string | null>;
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
}
