import { execFileSync, spawnSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWN_PATHS, type OwnPath } from "../../lib/store/own-paths.ts";
import { utcDate } from "../../lib/core/time-format.ts";
import { claimFile } from "../../lib/store/prompt-claims.ts";
import { appendBlockedPrompt, parseBlockedPrompts } from "../../lib/store/pending-prompts.ts";
import { promptKey } from "../../lib/restore/prompt-replay.ts";
import { sentinelPath } from "../../lib/store/sentinels.ts";
import { memoryPaths } from "../../lib/store/memory-paths.ts";
import { writeSkeletonCheckpoint } from "../../lib/save/skeleton-save.ts";
import { nodeDeps } from "../../lib/edge/node-deps.ts";
import { ensureBuilt } from "../helpers/save-repo.ts";
import { isPromptCodeCache } from "../helpers/run-bundle.ts";
import { changedFiles, runProc, snapshotTree, type ProcResult } from "./proc-pool.ts";
import { bundleFile, ENGINE_FILE } from "./tables.ts";
import {
  ANY_ASCII_BUNDLE,
  ENGINE_BUNDLE,
  HOOK_SPECS,
  hookBundleFile,
  STATUSLINE_BUNDLE,
  type HookBundle,
} from "../../lib/install/install-layout.ts";
import { blockTranscript, project, type Project } from "./workload.ts";

// The safe-file rule at every path the tool opens in its own trees (lib/store/own-paths.ts), through
// the built bundles in a real repository: a repository that commits its memory folder with every
// one of those files a symlink (to a dotfile of the user's, or to /dev/stdout), or a FIFO, gets
// nothing written outside the project, no hang, and a prompt hook that prints JSON or nothing.

const SID = "5afe5afe-0000-4000-8000-000000000001";
const TASK = "t1";
// A FIFO blocks an open forever; the hooks' own deadline is 8 s. Past this the process hung.
const HANG_MS = 30_000;

// A claim's name is a hash of the held prompt it claims: those rows are planted in a world of
// their own, where a session held prompts and a restore claims them.
const isClaimRow = (row: OwnPath) => row.path.startsWith("state/claimed-");
const PLANTED_ROWS = OWN_PATHS.filter((row) => !isClaimRow(row));
const CLAIM_ROWS = OWN_PATHS.filter(isClaimRow);

/** Where a row of the table is, for this project and session (an install's rows: every bundle). */
function concrete(p: Project, row: OwnPath, cacheName: string): string[] {
  const base = {
    memory: p.memory,
    task: path.join(p.repo.root, ".workflow_artifacts"),
    config: path.join(p.repo.home, ".claude", "quoin-checkpoint"),
    cache: path.join(p.repo.home, ".cache", "quoin-checkpoint"),
    // the user install the session's last step makes
    install: path.join(p.repo.home, ".claude", "quoin-checkpoint"),
  }[row.tree];
  if (row.path === "<bundle>.cjs")
    return [ENGINE_BUNDLE, ANY_ASCII_BUNDLE, STATUSLINE_BUNDLE].map((b) => path.join(base, b));
  if (row.path === "hooks/<hook>.cjs")
    return HOOK_SPECS.map((h) => path.join(base, hookBundleFile(h.bundle)));
  const name = row.path
    // the trash move a restore makes of this session's pending-restore sentinel
    .replace("<date>/<name>", `${utcDate(new Date())}/pending-restore-${SID}.txt`)
    .replace("<sid>", SID)
    .replace("<task>", TASK)
    .replace("<name>", "2026-12-01T1000-planted")
    .replace("<hook>-<hash>-<node>-<arch>-<build>.v8cache", cacheName);
  return [path.join(base, name)];
}

interface World {
  p: Project;
  outside: string;
  planted: string[];
}

const hookJob = (p: Project, bundle: HookBundle, payload: Record<string, unknown>) => ({
  file: bundleFile(bundle),
  input: JSON.stringify(payload),
  env: p.repo.env,
  cwd: p.repo.root,
});

/** The prompt hook's code cache file name, made by one run in a scratch project. */
async function codeCacheName(p: Project): Promise<string> {
  await runProc(
    hookJob(p, "userpromptsubmit", {
      session_id: SID,
      transcript_path: "/nope.jsonl",
      cwd: p.repo.root,
      hook_event_name: "UserPromptSubmit",
      prompt: "hello",
    }),
  );
  const dir = path.join(p.repo.home, ".cache", "quoin-checkpoint");
  const name = readdirSync(dir).find((n) => isPromptCodeCache(path.join(dir, n), p.repo.home));
  if (!name) throw new Error("the prompt hook made no code cache");
  for (const n of readdirSync(dir)) rmSync(path.join(dir, n));
  return name;
}

/** A project whose every own path is `plant(file, i)`; the task folder exists (quoin's workflow made it). */
async function world(plant: (file: string, i: number, outside: string) => void): Promise<World> {
  const p = project();
  const outside = path.join(path.dirname(p.repo.home), "outside");
  mkdirSync(outside, { recursive: true });
  mkdirSync(path.join(p.repo.root, ".workflow_artifacts", TASK), { recursive: true });
  const cacheName = await codeCacheName(p);
  const planted = PLANTED_ROWS.flatMap((row) => concrete(p, row, cacheName));
  planted.forEach((file, i) => {
    mkdirSync(path.dirname(file), { recursive: true });
    rmSync(file, { force: true });
    plant(file, i, outside);
  });
  return { p, outside, planted };
}

/** The hooks and engine commands a session runs, one after another. */
async function session(w: World): Promise<Array<{ what: string; r: ProcResult }>> {
  const { p } = w;
  const transcript = blockTranscript(p, SID);
  const base = { session_id: SID, transcript_path: transcript, cwd: p.repo.root };
  const engine = (args: string[]) => ({
    file: ENGINE_FILE,
    args: [...args, "--json"],
    env: p.repo.env,
    cwd: p.repo.root,
  });
  const jobs: Array<[string, Parameters<typeof runProc>[0]]> = [
    [
      "SessionStart",
      hookJob(p, "sessionstart", { ...base, hook_event_name: "SessionStart", source: "startup" }),
    ],
    [
      "UserPromptSubmit",
      hookJob(p, "userpromptsubmit", {
        ...base,
        hook_event_name: "UserPromptSubmit",
        prompt: "go on",
      }),
    ],
    [
      "PreCompact",
      hookJob(p, "precompact", { ...base, hook_event_name: "PreCompact", trigger: "auto" }),
    ],
    [
      "SessionStart compact",
      hookJob(p, "sessionstart", { ...base, hook_event_name: "SessionStart", source: "compact" }),
    ],
    ["save", engine(["save", "--session", SID, "--task", TASK, "--mode", "restore"])],
    ["status", engine(["status"])],
    ["restore", engine(["restore", "--session", SID])],
    [
      "SessionEnd",
      hookJob(p, "sessionend", { ...base, hook_event_name: "SessionEnd", reason: "other" }),
    ],
    // The installer copies the bundles into the config folder and records the install there.
    [
      "install",
      {
        file: path.join(path.dirname(ENGINE_FILE), "installer.cjs"),
        args: ["install", "--scope", "user", "--no-statusline"],
        env: p.repo.env,
        cwd: p.repo.root,
      },
    ],
    ["doctor", engine(["doctor"])],
  ];
  const out: Array<{ what: string; r: ProcResult }> = [];
  for (const [what, job] of jobs) out.push({ what, r: await runProc(job, HANG_MS) });
  return out;
}

/** Files changed outside the project's .workflow_artifacts/, the config folder and the cache folder. */
function strays(w: World, before: Map<string, string>): string[] {
  const allowed = [
    `${w.p.repo.root}/.workflow_artifacts/`,
    `${w.p.repo.home}/.claude/`,
    `${w.p.repo.home}/.cache/quoin-checkpoint/`,
  ];
  return changedFiles(before, snapshotTree(path.dirname(w.p.repo.home))).filter(
    (f) => !allowed.some((a) => f.startsWith(a)),
  );
}

const worlds: World[] = [];
beforeAll(() => ensureBuilt());
afterAll(() => {
  for (const w of worlds) rmSync(path.dirname(w.p.repo.home), { recursive: true, force: true });
});

describe(`a symlink at each of the ${OWN_PATHS.length} paths the tool opens`, () => {
  it("writes nothing outside: each symlink's target (a dotfile) is unchanged after every hook and command", async () => {
    const w = await world((file, i, outside) => {
      const target = path.join(outside, `dotfile-${i}`);
      writeFileSync(target, `dotfile ${i}\n`);
      symlinkSync(target, file);
    });
    worlds.push(w);
    const before = snapshotTree(path.dirname(w.p.repo.home));
    const runs = await session(w);
    for (const { what, r } of runs) expect(r.hung, what).toBe(false);
    for (let i = 0; i < w.planted.length; i += 1)
      expect(readFileSync(path.join(w.outside, `dotfile-${i}`), "utf8")).toBe(`dotfile ${i}\n`);
    expect(strays(w, before)).toEqual([]);
    // The log itself is one of the symlinks: the engine names what it refused on stderr, each
    // path once per run.
    const refused = runs.flatMap(({ what, r }) =>
      r.stderr
        .split("\n")
        .filter((l) => / is a symlink; quoin-checkpoint does not (follow|write through) it/.test(l))
        .map(
          (l) => `${what}: ${l.replace(/^\[checkpoint\] /, "").replace(/ is a symlink.*$/, "")}`,
        ),
    );
    expect(new Set(refused).size).toBe(refused.length);
    expect(refused.length).toBeGreaterThan(0);
    const names = new Set(refused.map((l) => l.replace(/^[^:]+: /, "")));
    console.log(
      `[safe-files] symlinks at ${w.planted.length} paths of ${PLANTED_ROWS.length} rows, ${runs.length} runs: 0 bytes written outside; ${names.size} paths refused and named (once per run); codes ${runs.map((x) => `${x.what}=${x.r.code}`).join(" ")}`,
    );
  }, 300_000);

  it("a symlink to /dev/stdout at any project path cannot make the prompt hook print anything but one JSON answer", async () => {
    const w = await world(() => {});
    worlds.push(w);
    const block = blockTranscript(w.p, SID);
    let runs = 0;
    // One path at a time: each is a way of its own onto the hook's stdout.
    for (const file of w.planted.filter((f) => f.includes(".workflow_artifacts"))) {
      rmSync(file, { force: true });
      symlinkSync("/dev/stdout", file);
      // A plain prompt (no transcript: no usage known) and one at the block tier.
      for (const transcript of ["/nope.jsonl", block]) {
        // NOTE: through a shell pipe: node's own spawn gives a child a socket pair, which
        // /dev/stdout cannot reopen (ENXIO); a shell's `|` is a pipe, which it can.
        const r = spawnSync(
          "sh",
          ["-c", `"${process.execPath}" "${bundleFile("userpromptsubmit")}" | cat`],
          {
            input: JSON.stringify({
              session_id: SID,
              transcript_path: transcript,
              cwd: w.p.repo.root,
              hook_event_name: "UserPromptSubmit",
              prompt: "go on",
            }),
            env: w.p.repo.env,
            cwd: w.p.repo.root,
            encoding: "utf8",
            timeout: HANG_MS,
          },
        );
        expect(r.status).toBe(0);
        runs += 1;
        const lines = r.stdout.split("\n").filter((l) => l !== "");
        expect(lines.length, `${file}: ${r.stdout}`).toBeLessThanOrEqual(1);
        for (const l of lines) expect(() => JSON.parse(l), `${file}: ${l}`).not.toThrow();
      }
      rmSync(file, { force: true });
    }
    console.log(
      `[safe-files] /dev/stdout symlinks: ${runs} prompt hook runs, every stdout one JSON answer or empty`,
    );
  }, 300_000);
});

describe(`a FIFO at each of the ${OWN_PATHS.length} paths the tool opens`, () => {
  it("no hook and no command hangs on one; the hooks exit 0", async () => {
    const w = await world((file) => execFileSync("mkfifo", [file]));
    worlds.push(w);
    const runs = await session(w);
    const slowest = Math.max(...runs.map((x) => x.r.ms));
    for (const { what, r } of runs) {
      expect(r.hung, `${what} hung`).toBe(false);
      if (!["save", "status", "restore", "install", "doctor"].includes(what))
        expect(r.code, what).toBe(0);
    }
    console.log(
      `[safe-files] FIFOs at ${w.planted.length} paths of ${PLANTED_ROWS.length} rows, ${runs.length} runs: none hung, slowest ${slowest.toFixed(0)} ms; codes ${runs.map((x) => `${x.what}=${x.r.code}`).join(" ")}`,
    );
    for (const f of w.planted) if (lstatSync(f, { throwIfNoEntry: false })) unlinkSync(f);
  }, 300_000);
});

const NEXT = "5afe5afe-0000-4000-8000-000000000002";
// lib/store/prompt-claims.ts: how long a restore waits for another restore's run lock.
const RUN_LOCK_WAIT = 3_000;

interface RestoreJson {
  replay?: { prompts: { text: string }[] } | null;
  show?: string[];
}
const HELD_PROMPTS = ["migrate the users table", "then deploy to prod"];

/**
 * A session that held two prompts and left a checkpoint; `plant` at the claim of each prompt and
 * at the lock of a restore claiming them (the claim rows of the table, by their real names).
 */
async function claimWorld(
  plant: (file: string, i: number, outside: string) => void,
  only?: "lock",
) {
  const p = project();
  const outside = path.join(path.dirname(p.repo.home), "outside");
  mkdirSync(outside, { recursive: true });
  const paths = memoryPaths(p.repo.root);
  let text: string | null = null;
  HELD_PROMPTS.forEach((prompt, i) => {
    text = appendBlockedPrompt(text, prompt, `2026-12-03T06:0${i}:00Z`);
  });
  const source = sentinelPath(paths.memory, "pending-prompt", SID);
  writeFileSync(source, text ?? "", { mode: 0o600 });
  writeSkeletonCheckpoint(nodeDeps({ home: p.repo.home, env: p.repo.env, cwd: p.repo.root }), {
    paths,
    sessionId: SID,
    launchCwd: p.repo.root,
    status: "checkpoint save (forced: context at the block tier)",
    shape: "voluntary",
    writeSentinel: true,
  });
  const config = path.join(p.repo.home, ".claude");
  const held = only === "lock" ? [] : parseBlockedPrompts(text ?? "").map(promptKey);
  const keys = [...held, "claiming"];
  const planted = keys.map((key, i) => {
    const file = claimFile(config, source, key);
    mkdirSync(path.dirname(file), { recursive: true });
    plant(file, i, outside);
    return file;
  });
  const w: World = { p, outside, planted };
  worlds.push(w);
  return w;
}

/**
 * A claim that is no regular file cannot be read or made: the prompt counts as taken (a prompt is
 * never handed out unclaimed, so none runs twice), and the answer says so.
 */
function expectNoneHandedOut(stdout: string): void {
  const j = JSON.parse(stdout) as RestoreJson;
  expect(j.replay?.prompts ?? []).toEqual([]);
  expect(j.show?.join("\n")).toMatch(/held prompt\(s\) of session 5afe5afe were already taken/);
}

/** A new session's restore of the held session, replaying every held prompt. */
async function restoreAll(w: World) {
  return runProc(
    {
      file: ENGINE_FILE,
      args: ["restore", "--json", "--session", NEXT, "--replay", "all"],
      env: w.p.repo.env,
      cwd: w.p.repo.root,
    },
    HANG_MS,
  );
}

describe(`a symlink or a FIFO at each of the ${CLAIM_ROWS.length} claim rows (${HELD_PROMPTS.length} held prompts and the run lock)`, () => {
  it("a symlinked claim is never written through, and no prompt is handed out unclaimed", async () => {
    const w = await claimWorld((file, i, outside) => {
      const target = path.join(outside, `dotfile-${i}`);
      writeFileSync(target, `dotfile ${i}\n`);
      symlinkSync(target, file);
    });
    const before = snapshotTree(path.dirname(w.p.repo.home));
    const r = await restoreAll(w);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expectNoneHandedOut(r.stdout);
    for (let i = 0; i < w.planted.length; i += 1)
      expect(readFileSync(path.join(w.outside, `dotfile-${i}`), "utf8")).toBe(`dotfile ${i}\n`);
    expect(strays(w, before)).toEqual([]);
  }, 120_000);

  it("a FIFO at each claim does not hang a restore, and no prompt is handed out unclaimed", async () => {
    const w = await claimWorld((file) => execFileSync("mkfifo", [file]));
    const r = await restoreAll(w);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(0);
    expectNoneHandedOut(r.stdout);
    console.log(
      `[safe-files] FIFOs at the ${HELD_PROMPTS.length} claims: restore exit ${r.code} in ${r.ms.toFixed(0)} ms, no prompt handed out`,
    );
  }, 120_000);

  for (const kind of ["symlink", "FIFO"] as const)
    it(`a ${kind} at the run lock alone is no restore's lock: the prompts are replayed at once`, async () => {
      const w = await claimWorld((file, i, outside) => {
        if (kind === "FIFO") return execFileSync("mkfifo", [file]);
        const target = path.join(outside, `dotfile-${i}`);
        writeFileSync(target, `dotfile ${i}\n`);
        symlinkSync(target, file);
      }, "lock");
      const r = await restoreAll(w);
      expect(r.hung).toBe(false);
      const j = JSON.parse(r.stdout) as RestoreJson;
      expect(j.replay?.prompts.map((x) => x.text)).toEqual(HELD_PROMPTS);
      expect(j.show?.join("\n") ?? "").not.toContain("taken");
      // Not the 3 s a restore waits for another's live lock.
      expect(r.ms).toBeLessThan(RUN_LOCK_WAIT);
      if (kind === "symlink")
        expect(readFileSync(path.join(w.outside, "dotfile-0"), "utf8")).toBe("dotfile 0\n");
      console.log(
        `[safe-files] a ${kind} at the run lock: both prompts replayed in ${r.ms.toFixed(0)} ms`,
      );
    }, 120_000);
});
