import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface Job {
  /** argv after `node` */
  args: string[];
  input?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface Timing {
  medianMs: number;
  floorMs: number;
  ratio: number;
  peakKiB: number;
}

/** The node every job runs on: QUOIN_BENCH_NODE (bench.ts sets it once per node), else this one. */
export const benchNode = process.env["QUOIN_BENCH_NODE"] || process.execPath;

function timeOnce(job: Job): number {
  const start = process.hrtime.bigint();
  const res = spawnSync(benchNode, job.args, {
    input: job.input ?? "",
    env: job.env ?? process.env,
    cwd: job.cwd,
    stdio: ["pipe", "ignore", "ignore"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 0)
    throw new Error(`bench job exited ${res.status}: node ${job.args.join(" ")}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const PEAK_PRELOAD = path.join(os.tmpdir(), "quoin-bench-peak.cjs");

/** Peak resident memory of one run, via a preload that reports process.resourceUsage() at exit. */
function peakKiB(job: Job): number {
  const out = path.join(os.tmpdir(), `quoin-bench-peak-${process.pid}.txt`);
  writeFileSync(
    PEAK_PRELOAD,
    `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));\n`,
  );
  spawnSync(benchNode, ["--require", PEAK_PRELOAD, ...job.args], {
    input: job.input ?? "",
    env: job.env ?? process.env,
    cwd: job.cwd,
    stdio: ["pipe", "ignore", "ignore"],
  });
  const kib = Number(readFileSync(out, "utf8"));
  rmSync(out, { force: true });
  return kib;
}

/**
 * Run `job` and the floor (`node -e 0` with the same stdin) alternately, `runs` times each, after
 * a warm-up; medians and their ratio come from the same run of this script.
 */
export function measure(job: Job, runs: number, prepare?: () => void): Timing {
  const floorJob: Job = { args: ["-e", "0"], input: job.input, cwd: job.cwd };
  for (let i = 0; i < 3; i += 1) {
    prepare?.();
    timeOnce(job);
    timeOnce(floorJob);
  }
  const hook: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    prepare?.();
    if (i % 2 === 0) {
      hook.push(timeOnce(job));
      floor.push(timeOnce(floorJob));
    } else {
      floor.push(timeOnce(floorJob));
      hook.push(timeOnce(job));
    }
  }
  prepare?.();
  const medianMs = median(hook);
  const floorMs = median(floor);
  return { medianMs, floorMs, ratio: medianMs / floorMs, peakKiB: peakKiB(job) };
}

export function formatRow(label: string, t: Timing): string {
  return `${label.padEnd(34)} median ${t.medianMs.toFixed(1).padStart(6)} ms   node -e 0 ${t.floorMs.toFixed(1).padStart(6)} ms   ratio ${t.ratio.toFixed(2)}x   peak ${(t.peakKiB / 1024).toFixed(1)} MiB`;
}

/** What a bench scenario gets: the repository root, a scratch folder, the run count, the fixtures folder. */
export interface BenchContext {
  root: string;
  work: string;
  runs: number;
  fixtures: string;
  /** the transcript sizes asked for (1MB, 100MB, 1GB) */
  sizes: string[];
  /** the synthetic transcript of that size, made from the real fixtures (made once, then reused) */
  makeTranscript: (label: string) => string;
}
