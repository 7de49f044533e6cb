import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { renderCheckpoint } from "../lib/store/checkpoint-format.ts";
import { NO_ARTIFACTS } from "../lib/store/checkpoint-values.ts";
import { voluntaryCheckpointName } from "../lib/store/checkpoint-names.ts";
import { memoryPaths } from "../lib/store/memory-paths.ts";
import { HEAD_CACHE_FILE } from "../lib/restore/head-cache.ts";
import { ENGINE_BUNDLE } from "../lib/install/install-layout.ts";
import { formatRow, measure, type BenchContext } from "./bench-lib.ts";
import { asciiBody } from "../lib/core/ascii-text.ts";
import { DAY_MS } from "../lib/core/time-format.ts";

const CHECKPOINTS = 1000;
const SENTINELS = 200;
const DAY = DAY_MS;

/** A memory folder with 1,000 checkpoints over 25 days and 200 pending-restore sentinels over 14 days. */
function makeProject(work: string): {
  project: string;
  fastSid: string;
  fastSentinel: string;
  fastTarget: string;
} {
  const project = path.join(work, "restore-project");
  rmSync(project, { recursive: true, force: true });
  mkdirSync(path.join(project, ".git"), { recursive: true });
  const paths = memoryPaths(project);
  mkdirSync(paths.checkpoints, { recursive: true });
  mkdirSync(paths.sessions, { recursive: true });
  const now = Date.now();
  const files: string[] = [];
  for (let i = 0; i < CHECKPOINTS; i += 1) {
    const when = new Date(now - (i / CHECKPOINTS) * 25 * DAY - 60_000);
    const task = `task-${i % 37}`;
    const sid = `0000${String(i).padStart(4, "0")}-0000-4000-8000-000000000000`;
    const body = renderCheckpoint(
      {
        status: "voluntary save",
        currentStage: "implementing the thing\nwith a second line",
        task,
        branch: `feat/${task}`,
        sessionId: sid,
        projectHash: "-bench-project",
        savedAt: when,
        intent: "keep going ".repeat(20),
        artifacts: {
          ...NO_ARTIFACTS,
          currentPlan: `${project}/.workflow_artifacts/${task}/current-plan.md`,
        },
        decisions: "decided things. ".repeat(60),
        unfinished: "- more work\n".repeat(30),
      },
      asciiBody,
    ).text;
    const file = path.join(paths.checkpoints, voluntaryCheckpointName(when, `${task}-${i}`));
    writeFileSync(file, body);
    utimesSync(file, when, when);
    files.push(file);
  }
  for (let i = 0; i < SENTINELS; i += 1) {
    const target = files[i * 3]!;
    const file = path.join(
      paths.memory,
      `pending-restore-5e000000-0000-4000-8000-${String(i).padStart(12, "0")}.txt`,
    );
    writeFileSync(file, `${target}\n`);
    const when = new Date(now - (i / SENTINELS) * 14 * DAY);
    utimesSync(file, when, when);
  }
  // The freshest session-state names task-0, the task of the checkpoint sentinel 0 names.
  writeFileSync(path.join(paths.sessions, "2026-01-01-task-0.md"), "## Current stage\nbench\n");
  const fastSid = "5e000000-0000-4000-8000-000000000000";
  return {
    project,
    fastSid,
    fastSentinel: path.join(paths.memory, `pending-restore-${fastSid}.txt`),
    fastTarget: files[0]!,
  };
}

/**
 * `restore --json` over 1,000 checkpoints and 200 sentinels: in a fresh session (Tier 3 full
 * enumeration), with the head cache (memory/checkpoint-heads.json, written by the warm-up runs) and
 * without it (deleted before each run: the first restore after an upgrade, which writes it), and in
 * the session whose own sentinel passes Tier 1 (the picker's first look; a completed restore each
 * run).
 */
export function benchRestore(ctx: BenchContext): void {
  const { project, fastSid, fastSentinel, fastTarget } = makeProject(ctx.work);
  const engine = path.join(ctx.root, "dist", ENGINE_BUNDLE);
  const full = [
    engine,
    "restore",
    "--json",
    "--session",
    "bench-fresh-0000-4000-8000-000000000001",
    "--cwd",
    project,
  ];
  console.log(
    formatRow(
      `restore --json ${CHECKPOINTS} ckpts ${SENTINELS} sentinels`,
      measure({ args: full, cwd: project }, ctx.runs),
    ),
  );
  const cache = path.join(memoryPaths(project).memory, HEAD_CACHE_FILE);
  const cold = () => rmSync(cache, { force: true });
  console.log(
    formatRow(
      "restore --json same, no head cache",
      measure({ args: full, cwd: project }, ctx.runs, cold),
    ),
  );
  const fast = [engine, "restore", "--json", "--session", fastSid, "--cwd", project];
  // Each run completes the restore and moves the sentinel to trash: put it back first.
  const again = () => writeFileSync(fastSentinel, `${fastTarget}\n`);
  console.log(
    formatRow(
      "restore --json same, Tier 1 hit",
      measure({ args: fast, cwd: project }, ctx.runs, again),
    ),
  );
}
