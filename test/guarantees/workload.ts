import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { renderSkeletonCheckpoint } from "../../lib/store/checkpoint-format.ts";
import { parseCheckpoint } from "../../lib/store/checkpoint-parse.ts";
import { NO_ARTIFACTS } from "../../lib/store/checkpoint-values.ts";
import { parseBlockedPrompts } from "../../lib/store/pending-prompts.ts";
import { parseSentinelName } from "../../lib/store/sentinels.ts";
import { tempRepo, type TempRepo } from "../helpers/save-repo.ts";
import { FIXTURES } from "../helpers/run-bundle.ts";
import { usageLine } from "./fuzz-world.ts";
import type { ProcJob } from "./proc-pool.ts";
import { bundleFile, ENGINE_FILE } from "./tables.ts";
import type { HookBundle } from "../../lib/install/install-layout.ts";

// What the concurrency and crash suites run: one row per kind of writer (a save, a PreCompact, a
// block-tier prompt, a SessionStart after compaction, a restore, a cleanup; SessionEnd is one more
// row), each building the process for a session; and the checks on the memory folder afterwards.

export interface Project {
  repo: TempRepo;
  memory: string;
  transcriptDir: string;
}

export function sessionIdFor(i: number): string {
  return `c0c0c0c0-0000-4000-8000-${String(i).padStart(12, "0")}`;
}

/** The prompt a block-tier session sends in wave `n`: several lines, one of them a forged header. */
export function promptFor(sid: string, n: number): string {
  return `wave ${n} prompt of ${sid}\nsecond line of ${sid}\n=== BLOCKED PROMPT [2026-01-01T00:00:00Z] === forged by ${sid}`;
}

export function project(prefix = "conc"): Project {
  const repo = tempRepo();
  void prefix;
  const memory = path.join(repo.root, ".workflow_artifacts", "memory");
  mkdirSync(path.join(memory, "sessions"), { recursive: true });
  writeFileSync(
    path.join(memory, "sessions", "2026-11-29-shared-task.md"),
    "## Cost\n- Phase: implement\n\n## Unfinished work\n- T-1 concurrency\n",
  );
  const transcriptDir = path.join(
    repo.home,
    ".claude",
    "projects",
    repo.root.replace(/[^A-Za-z0-9-]/g, "-"),
  );
  mkdirSync(transcriptDir, { recursive: true });
  return { repo, memory, transcriptDir };
}

/** A transcript for `sid` whose newest usage puts it past the block tier (170,000 of a 167,000-token limit). */
export function blockTranscript(p: Project, sid: string): string {
  const file = path.join(p.transcriptDir, `${sid}.jsonl`);
  writeFileSync(file, `${usageLine(170_000)}\n`);
  return file;
}

export interface KindRow {
  name: string;
  /** this kind writes a checkpoint for its own session (when none is pending) */
  saves: boolean;
  job: (p: Project, sid: string, wave: number) => ProcJob;
}

function hookJob(p: Project, bundle: HookBundle, payload: Record<string, unknown>): ProcJob {
  return {
    file: bundleFile(bundle),
    input: JSON.stringify(payload),
    env: p.repo.env,
    cwd: p.repo.root,
  };
}
function engineJob(p: Project, args: string[]): ProcJob {
  return { file: ENGINE_FILE, args: [...args, "--json"], env: p.repo.env, cwd: p.repo.root };
}

export const KINDS: readonly KindRow[] = [
  {
    name: "save",
    saves: true,
    job: (p, sid) => engineJob(p, ["save", "--session", sid, "--mode", "restore"]),
  },
  {
    name: "precompact",
    saves: true,
    job: (p, sid) =>
      hookJob(p, "precompact", {
        session_id: sid,
        transcript_path: path.join(p.transcriptDir, `${sid}.jsonl`),
        cwd: p.repo.root,
        hook_event_name: "PreCompact",
        trigger: "auto",
        custom_instructions: "",
      }),
  },
  {
    name: "prompt (block tier)",
    saves: true,
    job: (p, sid, wave) =>
      hookJob(p, "userpromptsubmit", {
        session_id: sid,
        transcript_path: blockTranscript(p, sid),
        cwd: p.repo.root,
        permission_mode: "default",
        hook_event_name: "UserPromptSubmit",
        prompt: promptFor(sid, wave),
      }),
  },
  {
    name: "sessionstart (compact)",
    saves: false,
    job: (p, sid) =>
      hookJob(p, "sessionstart", {
        session_id: sid,
        transcript_path: path.join(p.transcriptDir, `${sid}.jsonl`),
        cwd: p.repo.root,
        hook_event_name: "SessionStart",
        source: "compact",
      }),
  },
  { name: "restore", saves: false, job: (p, sid) => engineJob(p, ["restore", "--session", sid]) },
  { name: "cleanup", saves: false, job: (p, sid) => engineJob(p, ["cleanup", "--session", sid]) },
  {
    name: "sessionend",
    saves: false,
    job: (p, sid) =>
      hookJob(p, "sessionend", {
        session_id: sid,
        transcript_path: workedTranscript(p, sid),
        cwd: p.repo.root,
        prompt_id: "95515dbb-0000-4000-8000-000000000001",
        hook_event_name: "SessionEnd",
        reason: "other",
      }),
  },
];

/** A real session's transcript (edits, todos, requests) under this session's id: a SessionEnd has something to save. */
function workedTranscript(p: Project, sid: string): string {
  const file = path.join(p.transcriptDir, `${sid}-worked.jsonl`);
  writeFileSync(file, WORKED.replaceAll(WORKED_SID, sid));
  return file;
}
const WORKED = readFileSync(path.join(FIXTURES, "spotter-tool_heavy.jsonl"), "utf8");
const WORKED_SID = /"sessionId":"([^"]+)"/.exec(WORKED)?.[1] ?? "none";

/** Old sessions' files (40 days old) for cleanup to move: a checkpoint and the sentinel naming it. */
export function seedOldSessions(p: Project, n: number): void {
  const old = new Date(Date.now() - 40 * 86_400_000);
  mkdirSync(path.join(p.memory, "checkpoints"), { recursive: true });
  for (let i = 0; i < n; i += 1) {
    const sid = `01d01d01-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const ck = path.join(
      p.memory,
      "checkpoints",
      `2026-10-${String((i % 28) + 1).padStart(2, "0")}T1200-old-${i}.md`,
    );
    writeFileSync(
      ck,
      renderSkeletonCheckpoint({
        status: "checkpoint save",
        currentStage: "old",
        task: `old-${i}`,
        branch: "main",
        sessionId: sid,
        projectHash: "-x",
        savedAt: old,
        artifacts: NO_ARTIFACTS,
      }),
    );
    const sentinel = path.join(p.memory, `pending-restore-${sid}.txt`);
    writeFileSync(sentinel, `${ck}\n`);
    utimesSync(ck, old, old);
    utimesSync(sentinel, old, old);
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export interface StateReport {
  checkpoints: number;
  sentinels: number;
  prompts: number;
  tempFiles: number;
  problems: string[];
}

/**
 * The memory folder after many writers: every checkpoint parses whole (its last section is there),
 * every sentinel names a checkpoint that exists, every pending-prompt file holds only its own
 * session's prompts (each entry one whole prompt of that session, in the order sent, none twice),
 * and each file names one session only.
 */
export function checkState(
  p: Project,
  sent: Map<string, string[]>,
  opts: { exactPrompts: boolean },
): StateReport {
  const problems: string[] = [];
  const ckDir = path.join(p.memory, "checkpoints");
  const cks = list(ckDir).filter((n) => n.endsWith(".md"));
  for (const name of cks) {
    const text = readFileSync(path.join(ckDir, name), "utf8");
    const parsed = parseCheckpoint(text);
    const titles = parsed.sections.map((s) => s.title);
    if (titles[titles.length - 1] !== "Restore hint" || !parsed.status || !parsed.savedAt)
      problems.push(`checkpoint ${name} is not whole: sections ${titles.join(", ")}`);
    if (new Set(titles).size !== titles.length)
      problems.push(`checkpoint ${name} has a section twice`);
  }
  let sentinels = 0;
  let prompts = 0;
  for (const name of list(p.memory)) {
    const s = parseSentinelName(name);
    if (!s) continue;
    const file = path.join(p.memory, name);
    const text = readFileSync(file, "utf8");
    if (s.family === "pending-restore") {
      sentinels += 1;
      const target = text.split("\n")[0]?.trim() ?? "";
      let ok = false;
      try {
        ok = statSync(target).isFile() && path.dirname(target) === ckDir;
      } catch {
        ok = false;
      }
      if (!ok) problems.push(`${name} names ${JSON.stringify(target)}, which is no checkpoint`);
      else if (!target.includes("old-")) {
        const owner = parseCheckpoint(readFileSync(target, "utf8")).sessionId;
        if (owner !== s.sid) problems.push(`${name} names a checkpoint of session ${owner}`);
      }
    }
    if (s.family === "pending-prompt") prompts += 1;
  }
  // A restore in another session takes a held prompt over (its file goes to trash/): a prompt is
  // there exactly once across the live file and the trashed copies, whole, and only in its own session's files.
  const held = new Map<string, string[]>();
  const trashDays = list(path.join(p.memory, "trash")).map((d) => path.join(p.memory, "trash", d));
  for (const dir of [p.memory, ...trashDays]) {
    for (const name of list(dir)) {
      const m = /^pending-prompt-([A-Za-z0-9-]+)\.txt(?:-\d+)?$/.exec(name);
      if (!m) continue;
      const got = parseBlockedPrompts(readFileSync(path.join(dir, name), "utf8")).map(
        (e) => e.text,
      );
      const mine = sent.get(m[1]!) ?? [];
      const foreign = got.filter((g) => !mine.includes(g));
      if (foreign.length)
        problems.push(
          `${name} holds text that is not one whole prompt of its session: ${JSON.stringify(foreign[0]).slice(0, 200)}`,
        );
      held.set(m[1]!, [...(held.get(m[1]!) ?? []), ...got]);
    }
  }
  for (const [sid, mine] of sent) {
    const got = held.get(sid) ?? [];
    for (const prompt of mine) {
      const n = got.filter((g) => g === prompt).length;
      if (n !== 1 && (opts.exactPrompts || n > 1))
        problems.push(
          `a prompt of ${sid} is held ${n} times: ${JSON.stringify(prompt.slice(0, 40))}`,
        );
    }
  }
  const tempFiles = [...list(p.memory), ...list(ckDir)].filter((n) => n.endsWith(".tmp")).length;
  return { checkpoints: cks.length, sentinels, prompts, tempFiles, problems };
}
