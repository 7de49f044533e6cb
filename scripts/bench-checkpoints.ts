import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { ENGINE_BUNDLE } from "../lib/install/install-layout.ts";
import { formatRow, measure, type BenchContext } from "./bench-lib.ts";

// QUOIN_BENCH_ONLY=checkpoints: precompact and save read the transcript digest (backwards within
// 32 MiB plus a bounded head read), so their cost must stay flat from a 1 MB to a 1 GB transcript.

/** The session that ends the bench transcripts (spotter-short), so the digest finds its lines. */
const SID = "55604662-cf2a-4331-851a-ec234028f8ca";

export function benchCheckpoints(ctx: BenchContext): void {
  const base = path.join(ctx.work, "checkpoint-digest");
  rmSync(base, { recursive: true, force: true });
  const home = path.join(base, "home");
  const project = path.join(home, "project");
  mkdirSync(project, { recursive: true });
  spawnSync("git", ["init", "-q", "-b", "feat/bench"], { cwd: project });
  const memory = path.join(project, ".workflow_artifacts", "memory");
  const env = { ...process.env, HOME: home, TZ: "UTC" };
  const reset = () => {
    rmSync(path.join(memory, "checkpoints"), { recursive: true, force: true });
    for (const f of readdirSync(memory, { withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => d.name))
      rmSync(path.join(memory, f), { force: true });
  };
  mkdirSync(memory, { recursive: true });
  const engine = path.join(ctx.root, "dist", ENGINE_BUNDLE);
  const precompactHook = path.join(ctx.root, "dist", "hooks", "precompact.cjs");
  for (const label of ctx.sizes) {
    const transcript = ctx.makeTranscript(label);
    const input = JSON.stringify({
      session_id: SID,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    });
    console.log(
      formatRow(
        `precompact + digest ${label}`,
        measure({ args: [precompactHook], input, env, cwd: project }, ctx.runs, reset),
      ),
    );
    const save = [
      "save",
      "--json",
      "--no-cleanup",
      "--session",
      SID,
      "--cwd",
      project,
      "--transcript",
      transcript,
    ];
    console.log(
      formatRow(
        `save + digest ${label}`,
        measure({ args: [engine, ...save], env, cwd: project }, ctx.runs, reset),
      ),
    );
  }
  reset();
}
