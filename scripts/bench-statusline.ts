import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { benchNode, formatRow, type Job, measure, type BenchContext } from "./bench-lib.ts";

const SID = "bench-statusline-0000-000000000001";

/** CPU (user + system) of one run of `job`, from bash's `times` (its children's line). */
function cpuOnce(job: Job): number {
  const res = spawnSync(
    "bash",
    ["-c", '"$0" "$@" >/dev/null 2>&1; times', benchNode, ...job.args],
    {
      input: job.input ?? "",
      env: job.env ?? process.env,
      cwd: job.cwd,
      encoding: "utf8",
    },
  );
  const children = res.stdout.trim().split("\n")[1] ?? "";
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(
    (m) => Number(m[1]) * 60 + Number(m[2]),
  );
  if (res.status !== 0 || secs.length !== 2) throw new Error(`bench cpu run failed: ${res.stderr}`);
  return ((secs[0] as number) + (secs[1] as number)) * 1000;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

/**
 * CPU milliseconds a run costs above `node -e 0`, alternating the two: on a machine shared with
 * other work the wall-clock medians swing several-fold, the CPU a run takes much less.
 */
function cpuRow(label: string, job: Job, runs: number, prepare?: () => void): string {
  const floorJob: Job = { args: ["-e", "0"], input: job.input, cwd: job.cwd };
  const mine: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < runs + 3; i += 1) {
    prepare?.();
    const a = cpuOnce(job);
    const b = cpuOnce(floorJob);
    if (i < 3) continue;
    mine.push(a);
    floor.push(b);
  }
  const m = median(mine);
  const f = median(floor);
  return `${label.padEnd(34)} cpu ${m.toFixed(1).padStart(6)} ms   node -e 0 ${f.toFixed(1).padStart(6)} ms   above it ${(m - f).toFixed(1)} ms   ratio ${(m / f).toFixed(2)}x`;
}

/**
 * The status line, per draw: Claude Code's documented status-line stdin with
 * current_usage set, as on every draw after the first reply. The session's window is already
 * recorded (the steady state: a draw reads the record and writes nothing).
 */
export function benchStatusLine(ctx: BenchContext): void {
  const base = path.join(ctx.work, "statusline");
  rmSync(base, { recursive: true, force: true });
  const home = path.join(base, "home");
  const project = path.join(home, "project");
  mkdirSync(path.join(project, ".git"), { recursive: true });
  const input = JSON.stringify({
    hook_event_name: "Status",
    session_id: SID,
    transcript_path: path.join(ctx.fixtures, "spotter-short.jsonl"),
    cwd: project,
    model: { id: "claude-sonnet-4-5-20250929", display_name: "Sonnet 4.5" },
    workspace: { current_dir: project, project_dir: project },
    version: "2.1.197",
    output_style: { name: "default" },
    cost: {
      total_cost_usd: 0.01,
      total_duration_ms: 1000,
      total_api_duration_ms: 800,
      total_lines_added: 1,
      total_lines_removed: 0,
    },
    context_window: {
      total_input_tokens: 120000,
      total_output_tokens: 900,
      context_window_size: 1000000,
      used_percentage: 12,
      remaining_percentage: 88,
      current_usage: {
        input_tokens: 5,
        output_tokens: 900,
        cache_creation_input_tokens: 1000,
        cache_read_input_tokens: 118995,
      },
    },
    exceeds_200k_tokens: false,
  });
  const job = {
    args: [path.join(ctx.root, "dist", "statusline.cjs")],
    input,
    cwd: project,
    env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: "" },
  };
  console.log(formatRow("statusline draw (window recorded)", measure(job, ctx.runs)));
  // The default install's recorder: records, prints nothing of its own.
  const quiet = { ...job, args: [...job.args, "--quiet"] };
  console.log(formatRow("statusline draw --quiet (default recorder)", measure(quiet, ctx.runs)));
  // A session's first draw (and a draw after /model switches the window) writes the record and
  // prunes old records: once per session, not per redraw.
  const state = path.join(home, ".claude", "quoin-checkpoint", "state");
  const first = measure(quiet, ctx.runs, () => rmSync(state, { recursive: true, force: true }));
  console.log(formatRow("statusline --quiet, first draw (writes the record)", first));
  // CPU per draw: what the client's redraws cost the machine, measurable while it is busy.
  console.log(cpuRow("statusline --quiet, CPU per draw", quiet, ctx.runs));
  console.log(
    cpuRow("statusline --quiet, CPU of a first draw", quiet, ctx.runs, () =>
      rmSync(state, { recursive: true, force: true }),
    ),
  );
  // Wrapping the person's line costs their command plus a shell.
  const wrapped = { ...job, args: [...job.args, "--quiet", "--wrap", "printf main"] };
  console.log(
    formatRow("statusline draw --quiet --wrap 'printf main'", measure(wrapped, ctx.runs)),
  );
}
