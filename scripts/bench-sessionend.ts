import { existsSync, readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { formatRow, measure, type BenchContext } from "./bench-lib.ts";
import { SESSIONEND_BUDGET_MS } from "../lib/hooks/session-end.ts";

/** The session in test/fixtures/transcripts/spotter-4d5611e5-*.jsonl: files changed, several requests. */
const SESSION = "4d5611e5-241a-462a-8d15-5122611a9569";

/**
 * The SessionEnd hook on one transcript, writing its snapshot every run (the checkpoints folder is
 * emptied before each, so the "nothing new" skip never shortens the path). Printed beside the
 * 1.5 s that Claude Code gives all SessionEnd hooks together, with how many runs saved.
 */
export function benchSessionEnd(ctx: BenchContext): void {
  // The project bench.ts made (a .git folder, nothing else).
  const project = path.join(ctx.work, "project");
  for (const label of ctx.sizes) benchOne(ctx, label, ctx.makeTranscript(label), project);
}

function benchOne(ctx: BenchContext, label: string, transcript: string, project: string): void {
  const hook = path.join(ctx.root, "dist", "hooks", "sessionend.cjs");
  const checkpoints = path.join(project, ".workflow_artifacts", "memory", "checkpoints");
  // A snapshot left by an earlier row's last (peak-memory) run is not this row's.
  rmSync(checkpoints, { recursive: true, force: true });
  let runs = 0;
  let saved = 0;
  const prepare = () => {
    if (existsSync(checkpoints)) {
      saved += readdirSync(checkpoints).filter((n) => n.endsWith(".md")).length;
      rmSync(checkpoints, { recursive: true, force: true });
    }
    runs += 1;
  };
  const input = JSON.stringify({
    session_id: SESSION,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: "SessionEnd",
    reason: "other",
  });
  const t = measure({ args: [hook], input, cwd: project }, ctx.runs, prepare);
  // The last prepare() call follows no run.
  const share = ((t.medianMs / SESSIONEND_BUDGET_MS) * 100).toFixed(0);
  console.log(
    `${formatRow(`sessionend ${label} transcript`, t)}   ${share} % of the ${SESSIONEND_BUDGET_MS} ms budget, saved in ${saved} of ${runs - 1} runs`,
  );
}
