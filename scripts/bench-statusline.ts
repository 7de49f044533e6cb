import { mkdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { formatRow, measure, type BenchContext } from "./bench-lib.ts";

const SID = "bench-statusline-0000-000000000001";

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
  // Wrapping the person's line costs their command plus a shell.
  const wrapped = { ...job, args: [...job.args, "--quiet", "--wrap", "printf main"] };
  console.log(
    formatRow("statusline draw --quiet --wrap 'printf main'", measure(wrapped, ctx.runs)),
  );
}
