import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ENGINE_BUNDLE } from "../lib/install/install-layout.ts";
import { formatRow, measure, type BenchContext } from "./bench-lib.ts";
import { DAY_MS } from "../lib/core/time-format.ts";

const SID = "bench-save-0000-0000-000000000001";
const CHECKPOINTS = 1000;
const SENTINELS = 200;
const FAMILIES = [
  "pending-restore",
  "pending-prompt",
  "compact-happened",
  "postcompact-reset",
  "checkpoint-defer",
];

/** A repository with 1,000 checkpoints and 200 other sessions' sentinels, all within their windows (nothing to sweep). */
function makeProject(ctx: BenchContext): {
  project: string;
  home: string;
  checkpoints: string;
  memory: string;
  baseline: Set<string>;
} {
  const base = path.join(ctx.work, "save");
  rmSync(base, { recursive: true, force: true });
  const home = path.join(base, "home");
  const project = path.join(home, "project");
  const memory = path.join(project, ".workflow_artifacts", "memory");
  const checkpoints = path.join(memory, "checkpoints");
  const sessions = path.join(memory, "sessions");
  mkdirSync(checkpoints, { recursive: true });
  mkdirSync(sessions, { recursive: true });
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: "b",
    GIT_AUTHOR_EMAIL: "b@example.com",
    GIT_COMMITTER_NAME: "b",
    GIT_COMMITTER_EMAIL: "b@example.com",
  };
  spawnSync("git", ["init", "-q", "-b", "main"], { cwd: project, env });
  spawnSync("git", ["commit", "-q", "--allow-empty", "-m", "initial"], { cwd: project, env });

  const now = Date.now();
  let newest = "";
  for (let i = 0; i < CHECKPOINTS; i += 1) {
    const when = new Date(now - (i % 25) * DAY_MS - i * 1000);
    const stamp = when
      .toISOString()
      .slice(0, 16)
      .replace(/:/g, "")
      .replace(/-(\d\d)T/, "-$1T");
    const file = path.join(checkpoints, `${stamp}-task-${i % 40}${i >= 40 ? `-${i}` : ""}.md`);
    writeFileSync(
      file,
      `## Status\ncheckpoint save (voluntary)\n\n## Active task\ntask-${i % 40}\n\n## Session ID\nbench-${i}\n`,
      { mode: 0o600 },
    );
    utimesSync(file, when, when);
    if (i === 0) newest = file;
  }
  // The sentinels name a real checkpoint, so the SessionStart run below ends with a banner.
  for (let i = 0; i < SENTINELS; i += 1) {
    const sid = `bench-other-${String(i).padStart(4, "0")}`;
    const file = path.join(memory, `${FAMILIES[i % FAMILIES.length]}-${sid}.txt`);
    writeFileSync(file, `${newest}\n`);
    const when = new Date(now - (i % 20) * 60_000);
    utimesSync(file, when, when);
  }
  for (let i = 0; i < 5; i += 1)
    writeFileSync(
      path.join(sessions, `2026-11-2${i}-task-${i}.md`),
      `## Cost\n- Session UUID: ${i === 4 ? SID : `x-${i}`}\n- Phase: implement\n`,
    );
  mkdirSync(path.join(project, ".workflow_artifacts", "task-4"), { recursive: true });
  writeFileSync(path.join(project, ".workflow_artifacts", "task-4", "current-plan.md"), "# plan\n");

  // The session's transcript, where the engine looks for it (utilization, session start).
  const transcripts = path.join(
    home,
    ".claude",
    "projects",
    project.replace(/[^A-Za-z0-9-]/g, "-"),
  );
  mkdirSync(transcripts, { recursive: true });
  copyFileSync(
    path.join(ctx.fixtures, "spotter-short.jsonl"),
    path.join(transcripts, `${SID}.jsonl`),
  );
  return { project, home, checkpoints, memory, baseline: new Set(readdirSync(checkpoints)) };
}

/** Files this bench run added to checkpoints/, removed so every run saves into the same 1,000-file folder. */
function resetCheckpoints(dir: string, baseline: Set<string>): void {
  for (const name of readdirSync(dir))
    if (!baseline.has(name)) rmSync(path.join(dir, name), { force: true });
}

export function benchSave(ctx: BenchContext): void {
  const p = makeProject(ctx);
  const env = { ...process.env, HOME: p.home, TZ: "UTC" };
  const engine = path.join(ctx.root, "dist", ENGINE_BUNDLE);
  const sentinel = path.join(p.memory, `pending-restore-${SID}.txt`);
  const reset = () => {
    resetCheckpoints(p.checkpoints, p.baseline);
    rmSync(sentinel, { force: true });
  };

  const save = measure(
    { args: [engine, "save", "--json", "--session", SID, "--cwd", p.project], env, cwd: p.project },
    ctx.runs,
    reset,
  );
  console.log(formatRow(`save (${CHECKPOINTS} ckpts, ${SENTINELS} sentinels)`, save));

  const precompactInput = JSON.stringify({
    session_id: SID,
    transcript_path: path.join(p.home, ".claude", "projects", "x", `${SID}.jsonl`),
    cwd: p.project,
    hook_event_name: "PreCompact",
    trigger: "auto",
    custom_instructions: "",
  });
  const precompact = measure(
    {
      args: [path.join(ctx.root, "dist", "hooks", "precompact.cjs")],
      input: precompactInput,
      env,
      cwd: p.project,
    },
    ctx.runs,
    reset,
  );
  console.log(formatRow("precompact (writes a checkpoint)", precompact));

  reset();
  const startInput = JSON.stringify({
    session_id: "bench-new-session-0001",
    cwd: p.project,
    hook_event_name: "SessionStart",
    source: "startup",
  });
  const start = measure(
    {
      args: [path.join(ctx.root, "dist", "hooks", "sessionstart.cjs")],
      input: startInput,
      env,
      cwd: p.project,
    },
    ctx.runs,
  );
  console.log(formatRow(`sessionstart (${SENTINELS} sentinels, banner)`, start));
  reset();
}
