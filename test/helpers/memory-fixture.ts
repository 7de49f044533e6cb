import { DAY_MS } from "../../lib/core/time-format.ts";
import * as path from "node:path";
import { createFsFromVolume, Volume } from "memfs";
import {
  renderCheckpoint,
  renderSkeletonCheckpoint,
  type CheckpointData,
} from "../../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../../lib/store/checkpoint-values.ts";
import type { Deps, FsApi, RunResult } from "../../lib/core/deps.ts";
import { readKnobs, type Knobs } from "../../lib/core/knobs.ts";
import { memoryPaths, type MemoryPaths } from "../../lib/store/memory-paths.ts";
import { buildMemoryListing, type MemoryListing } from "../../lib/restore/memory-listing.ts";
import { sentinelName } from "../../lib/store/sentinels.ts";
import { asciiBody } from "../../lib/core/ascii-text.ts";

export const NOW = new Date("2026-11-29T12:00:00Z");
export const DAY = DAY_MS;
export const ROOT = "/home/dev/proj";

export interface CheckpointSpec {
  task: string;
  branch?: string;
  /** null: recorded as unknown; "legacy": no `## Session ID` section */
  sessionId?: string | null | "legacy";
  ageDays?: number;
  skeleton?: boolean;
  extra?: Partial<CheckpointData>;
  /** raw content instead of a rendered checkpoint */
  raw?: string;
}

/** A memory folder in memfs with files at chosen ages, and a fixed clock. */
export class MemoryFixture {
  readonly fs: FsApi;
  readonly paths: MemoryPaths;
  readonly warnings: string[] = [];
  runs: Array<{ cmd: string; args: readonly string[] }> = [];
  runResult: (cmd: string, args: readonly string[]) => RunResult = () => ({
    status: 128,
    stdout: "",
    stderr: "not a git repository",
  });

  constructor(readonly now: Date = NOW) {
    this.fs = createFsFromVolume(
      Volume.fromJSON({ [`${ROOT}/.git/HEAD`]: "ref: refs/heads/main\n" }),
    ) as unknown as FsApi;
    this.paths = memoryPaths(ROOT);
    this.fs.mkdirSync(this.paths.checkpoints, { recursive: true });
    this.fs.mkdirSync(this.paths.sessions, { recursive: true });
  }

  write(file: string, text: string, ageDays = 0): string {
    this.fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fs.writeFileSync(file, text);
    const t = (this.now.getTime() - ageDays * DAY) / 1000;
    (this.fs as unknown as { utimesSync: (p: string, a: number, m: number) => void }).utimesSync(
      file,
      t,
      t,
    );
    return file;
  }

  checkpoint(name: string, spec: CheckpointSpec): string {
    const file = path.join(this.paths.checkpoints, name);
    if (spec.raw !== undefined) return this.write(file, spec.raw, spec.ageDays);
    const data: CheckpointData = {
      status: "saved",
      currentStage: "implementing",
      task: spec.task,
      branch: spec.branch ?? "main",
      sessionId:
        spec.sessionId === "legacy"
          ? "x"
          : spec.sessionId === undefined
            ? "ffff0000-0000-0000-0000-000000000000"
            : spec.sessionId,
      projectHash: "-home-dev-proj",
      savedAt: new Date(this.now.getTime() - (spec.ageDays ?? 0) * DAY),
      intent: "keep going",
      artifacts: NO_ARTIFACTS,
      ...spec.extra,
    };
    let text = spec.skeleton
      ? renderSkeletonCheckpoint(data)
      : renderCheckpoint(data, asciiBody).text;
    if (spec.sessionId === "legacy") text = text.replace(/## Session ID\n[^\n]*\n\n/, "");
    return this.write(file, text, spec.ageDays);
  }

  /** pending-restore-<sid>.txt naming `target` on line 1, as the save side writes it. */
  sentinel(sid: string, target: string, ageDays = 0): string {
    const name =
      sid === "" || sid === "unknown"
        ? `pending-restore-${sid}.txt`
        : sentinelName("pending-restore", sid);
    return this.write(path.join(this.paths.memory, name), `${target}\n`, ageDays);
  }

  prompt(sid: string, text: string, ageDays = 0): string {
    return this.write(
      path.join(this.paths.memory, sentinelName("pending-prompt", sid)),
      text,
      ageDays,
    );
  }

  sessionState(name: string, text = "## Current stage\nworking\n", ageDays = 0): string {
    return this.write(path.join(this.paths.sessions, name), text, ageDays);
  }

  compactHappened(sid: string): string {
    return this.write(
      path.join(this.paths.memory, sentinelName("compact-happened", sid)),
      `compacted_at=x\nsession_id=${sid}\n`,
    );
  }

  listing(sid: string): MemoryListing {
    return buildMemoryListing(this.fs, this.paths, sid, this.now, { checkpointWindowDays: 30 });
  }

  exists(file: string): boolean {
    return this.fs.existsSync(file);
  }

  deps(env: Record<string, string> = {}): Deps {
    return {
      fs: this.fs,
      now: () => this.now,
      env,
      pid: 4242,
      ppid: 1,
      nodeVersion: "v22.11.0",
      home: "/home/dev",
      cwd: ROOT,
      isProcessAlive: () => false,
      run: (cmd, args) => {
        this.runs.push({ cmd, args });
        return this.runResult(cmd, args);
      },
      warn: (line) => this.warnings.push(line),
    };
  }

  knobs(env: Record<string, string> = {}): Knobs {
    return readKnobs(env, () => {});
  }
}

export const SETTINGS = {
  sentinelWindowDays: 7,
  staleDays: 1,
  fallbackWindowDays: 7,
  dedupWindowDays: 7,
};
