import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINE_COMMANDS } from "../../../cli/engine-commands.ts";
import { runCli } from "../../../cli/run-cli.ts";
import { claudeConfigDir } from "../../../lib/core/config-dir.ts";
import { readKnobs } from "../../../lib/core/knobs.ts";
import { inOwnTree, resetRefusals } from "../../../lib/core/safe-file.ts";
import { appendHookLog, HOOK_LOG_CAP_BYTES, hookLogPath } from "../../../lib/hooks/hook-log.ts";
import { preCompactSteering, runPreCompact } from "../../../lib/hooks/pre-compact.ts";
import { logSessionEnd, runSessionEnd } from "../../../lib/hooks/session-end.ts";
import { handleSessionStart } from "../../../lib/hooks/session-start.ts";
import { handleUserPromptSubmit } from "../../../lib/hooks/user-prompt-submit.ts";
import type { ForcedSave } from "../../../lib/hooks/prompt-hook-options.ts";
import { memoryPaths } from "../../../lib/store/memory-paths.ts";
import {
  isOwnTempFile,
  OWN_PATHS,
  ownPathRow,
  type OwnRoots,
} from "../../../lib/store/own-paths.ts";
import { fakeDeps, type FakeDeps } from "../../helpers/memfs-deps.ts";
import { runInstall, type InstallOptions } from "../../../lib/install/installer.ts";
import {
  BUNDLES,
  GIT_HEAD,
  installOptions,
  installWorld,
  must,
} from "../../helpers/install-world.ts";
import { recordingFs, type Touch } from "../../helpers/recording-fs.ts";
import { transcriptWithTokens } from "../../helpers/transcripts.ts";

// The own-paths table is what the symlink and FIFO suite (test/guarantees/safe-files.test.ts)
// plants at; a path the tool opens with no row there is a path that suite never tries. So: one
// session's worth of hooks and engine commands in process, on one memfs world whose fs records
// every file opened, appended, created or replaced by name, and every such path inside the tool's
// trees must match a row. A new file the tool opens fails here until the table names it.

const ROOT = "/home/u/proj";
const HELD = "aaaa0000-0000-4000-8000-00000000000a";
const NEXT = "bbbb0000-0000-4000-8000-00000000000b";
const MODEL = "claude-opus-4-5-20251101";
const transcriptOf = (sid: string) => `/home/u/.claude/projects/-home-u-proj/${sid}.jsonl`;
// 167k tokens is the 100 % of this model's 200k window: 20k is quiet, 160k the block tier.
const QUIET = 20_000;
const BLOCK = 160_000;

interface Run {
  what: string;
  code: number;
  out: string;
}

function world(): { deps: FakeDeps; touches: Touch[] } {
  const touches: Touch[] = [];
  const deps = fakeDeps({
    files: {
      [`${ROOT}/.git/HEAD`]: "ref: refs/heads/feat/paths\n",
      [transcriptOf(HELD)]: transcriptWithTokens(QUIET, MODEL),
      [transcriptOf(NEXT)]: transcriptWithTokens(QUIET, MODEL),
      [`${ROOT}/.workflow_artifacts/t1/architecture.md`]: "# t1\n",
    },
    cwd: ROOT,
    now: "2026-12-03T12:00:00Z",
  });
  deps.fs = recordingFs(deps.fs, touches);
  return { deps, touches };
}

/** Every hook and engine command a session and the one after it run, in order. */
function scenario(deps: FakeDeps): Run[] {
  const knobs = readKnobs(deps.env, deps.warn);
  const runs: Run[] = [];
  const engine = (what: string, argv: string[], stdin = ""): Run => {
    let out = "";
    const code = runCli(
      [...argv, "--json", "--cwd", ROOT],
      deps,
      { stdout: (t) => (out += t), stderr: (t) => (out += t), readStdin: () => stdin },
      ENGINE_COMMANDS,
    );
    const run = { what, code, out };
    runs.push(run);
    return run;
  };
  // The prompt hook's forced save, run in this process instead of the engine's.
  const forcedSave: ForcedSave = (req) => {
    const args = ["snapshot", "--kind", "forced", "--session", req.sessionId ?? ""];
    const r = engine(
      "snapshot",
      req.transcriptPath ? [...args, "--transcript", req.transcriptPath] : args,
    );
    const answer = JSON.parse(r.out.split("\n")[0] ?? "null") as { checkpoint?: string } | null;
    return answer?.checkpoint ? { checkpoint: answer.checkpoint } : null;
  };
  const hook = (what: string, answer: unknown) =>
    runs.push({ what, code: 0, out: JSON.stringify(answer) ?? "" });
  const common = (sid: string) => ({
    session_id: sid,
    transcript_path: transcriptOf(sid),
    cwd: ROOT,
  });
  const start = (sid: string, source: string) =>
    hook(
      `SessionStart ${source}`,
      handleSessionStart(deps, { ...common(sid), hook_event_name: "SessionStart", source }, knobs),
    );
  const prompt = (sid: string, text: string) =>
    hook(
      `UserPromptSubmit ${text}`,
      handleUserPromptSubmit(
        deps,
        { ...common(sid), hook_event_name: "UserPromptSubmit", prompt: text },
        knobs,
        { forcedSave },
      ),
    );
  const end = (sid: string, reason: string) => {
    const input = { ...common(sid), hook_event_name: "SessionEnd", reason };
    logSessionEnd(deps, input, runSessionEnd(deps, input, { deadlineAt: Date.now() + 60_000 }));
    hook(`SessionEnd ${reason}`, null);
  };
  const doc = JSON.stringify({
    task: "t1",
    intent: "rewrite the parser",
    done: ["T-03 tokenizer"],
    inProgress: "T-04 half done",
    nextUp: [{ item: "T-05 wire the parser", prerequisitesMet: true }],
    blockers: [],
  });

  start(HELD, "startup");
  prompt(HELD, "read the parser");
  engine(
    "statusline",
    ["statusline", "--quiet"],
    JSON.stringify({
      ...common(HELD),
      model: { id: MODEL, display_name: "Opus" },
      context_window: { context_window_size: 200_000 },
    }),
  );
  engine("save --ask-mode", ["save", "--session", HELD, "--ask-mode", "--stdin-json"], doc);
  engine("save --asked", ["save", "--session", HELD, "--mode", "restore", "--asked"]);
  engine(
    "save --task",
    ["save", "--session", HELD, "--mode", "restore", "--task", "t1", "--stdin-json"],
    doc,
  );
  engine(
    "save reference",
    ["save", "--session", HELD, "--mode", "load-as-reference", "--stdin-json"],
    doc,
  );
  engine("save mid-agent", ["save", "--session", HELD, "--mode", "mid-agent", "--stdin-json"], doc);
  engine("pidfile acquire", ["pidfile", "acquire", "architect", "--session", HELD, "--pid", "77"]);
  engine("pidfile active", ["pidfile", "active", "--session", HELD]);
  engine("pidfile release", ["pidfile", "release", "architect", "--session", HELD]);
  engine("dispatch decide", ["dispatch", "decide", "--tier", "haiku"]);
  engine("dispatch write-cache", [
    "dispatch",
    "write-cache",
    "--tier",
    "haiku",
    "--result",
    "safe",
  ]);
  engine("defer", ["defer", "--session", HELD]);
  // The block tier: the forced save, then the prompts held for replay.
  deps.fs.writeFileSync(transcriptOf(HELD), transcriptWithTokens(BLOCK, MODEL));
  prompt(HELD, "migrate the users table");
  prompt(HELD, "then deploy to prod");
  const compact = { ...common(HELD), hook_event_name: "PreCompact", trigger: "auto" };
  hook("PreCompact", preCompactSteering(runPreCompact(deps, compact), compact, knobs));
  start(HELD, "compact");
  start(HELD, "resume");
  end(HELD, "clear");
  start(NEXT, "clear");
  // Older checkpoints, enough for the head cache (it keeps heads in batches of 16, read 2 s after a write).
  for (let i = 0; i < 20; i += 1) {
    const file = `${memoryPaths(ROOT).checkpoints}/2026-11-${String(10 + i)}T1000-old-${i}.md`;
    deps.vol.writeFileSync(
      file,
      `## Status\ncheckpoint save (voluntary)\n\n## Active task\nold-${i}\n`,
    );
    deps.touch(file, "2026-11-30T10:00:00Z");
  }
  engine("status", ["status", "--session", NEXT]);
  engine("list", ["list", "--session", NEXT]);
  engine("show", ["show", "1", "--session", NEXT]);
  engine("restore", ["restore", "--session", NEXT]);
  engine("restore --pick", ["restore", "--session", NEXT, "--pick", "1"]);
  engine("restore --replay", ["restore", "--session", NEXT, "--pick", "1", "--replay", "all"]);
  engine("restore --proceed", ["restore", "--session", NEXT, "--proceed"]);
  engine("successor", ["successor", "--session", NEXT]);
  engine("cleanup", ["cleanup", "--session", NEXT]);
  engine("share --no-push", ["share", "--no-push", "--session", NEXT]);
  end(NEXT, "logout");
  // The hook log past its cap: it is moved aside to hooks.log.1 before the next line.
  deps.fs.writeFileSync(hookLogPath(deps), "x".repeat(HOOK_LOG_CAP_BYTES + 1));
  appendHookLog(deps, "a line past the cap", ROOT);
  return runs;
}

function roots(deps: FakeDeps): OwnRoots {
  const paths = memoryPaths(ROOT);
  return {
    memory: paths.memory,
    task: paths.artifacts,
    config: path.join(claudeConfigDir(deps.env, deps.home), "quoin-checkpoint"),
    cache: path.join(deps.home, ".cache", "quoin-checkpoint"),
    install: [],
  };
}

/** Which of `touches` lie in the trees and match no row, and which rows the rest met. */
function audit(touches: readonly Touch[], r: OwnRoots) {
  const own = touches.filter((t) => inOwnTree(t.file) && !isOwnTempFile(t.file));
  const unlisted = [
    ...new Set(own.filter((t) => !ownPathRow(t.file, r)).map((t) => `${t.op} ${t.file}`)),
  ];
  const rows = new Set(own.map((t) => ownPathRow(t.file, r)).filter((row) => row));
  const unmet = OWN_PATHS.filter((row) => !rows.has(row)).map((row) => row.path);
  const met = [...rows].map((row) => row?.path);
  return { own, unlisted, met, unmet };
}

describe("the own-paths table names every path the tool opens in its own trees", () => {
  it("a session's hooks and commands open, append, create or replace nothing outside its rows", () => {
    resetRefusals();
    const { deps, touches } = world();
    const runs = scenario(deps);
    const { own, unlisted, met, unmet } = audit(touches, roots(deps));
    console.log(
      `[own-paths] ${runs.length} runs, ${touches.length} file calls, ${own.length} in the trees: ${met.length} of ${OWN_PATHS.length} rows met, ${unlisted.length} paths with no row; not met here: ${unmet.join(" ")}`,
    );
    // The scenario still reaches the paths that once had no row, and the ones only its later steps open.
    for (const want of [
      "state/claimed-<hash>.json",
      "trash/<date>/<name>",
      "logs/hooks.log.1",
      "pending-prompt-<sid>.txt",
      "asked-document-<sid>.txt",
      "<task>/cost-ledger.md",
      "checkpoint-heads.json",
    ])
      expect(met).toContain(want);
    expect(unlisted, runs.map((x) => `${x.what}: ${x.out.slice(0, 300)}`).join("\n")).toEqual([]);
  });
});

describe("the installer's paths are rows too", () => {
  it("a user and a project install, the status line, doctor and both uninstalls open nothing outside the rows", () => {
    const w = installWorld(GIT_HEAD);
    const touches: Touch[] = [];
    w.deps.fs = recordingFs(w.deps.fs, touches);
    const steps: Array<Partial<InstallOptions>> = [
      {},
      { statusLine: true },
      {},
      { scope: "project" },
      { uninstall: true },
      { scope: "project", uninstall: true },
      {},
    ];
    for (const o of steps) must(runInstall(w.deps, installOptions(o)));
    runCli(
      ["doctor", "--json"],
      w.deps,
      { stdout: () => {}, stderr: () => {}, readStdin: () => "" },
      ENGINE_COMMANDS,
    );
    const r: OwnRoots = {
      memory: "/home/u/proj/.workflow_artifacts/memory",
      task: "/home/u/proj/.workflow_artifacts",
      config: BUNDLES,
      cache: "/home/u/.cache/quoin-checkpoint",
      install: [BUNDLES, "/home/u/proj/.claude/quoin-checkpoint"],
    };
    const { own, unlisted, met } = audit(touches, r);
    console.log(
      `[own-paths] installer: ${steps.length} installs and uninstalls and doctor, ${own.length} file calls in the trees, rows met: ${met.join(" ")}`,
    );
    expect(met).toEqual(
      expect.arrayContaining(["<bundle>.cjs", "hooks/<hook>.cjs", "install-state.json"]),
    );
    expect(unlisted).toEqual([]);
  });
});

describe("ownPathRow: which row a path falls under", () => {
  const r: OwnRoots = {
    memory: "/p/.workflow_artifacts/memory",
    task: "/p/.workflow_artifacts",
    config: "/h/.claude/quoin-checkpoint",
    cache: "/h/.cache/quoin-checkpoint",
    install: ["/h/.claude/quoin-checkpoint", "/p/.claude/quoin-checkpoint"],
  };
  const row = (file: string) => ownPathRow(file, r)?.path ?? ownPathRow(file, r);
  it("placeholders stand for one name of their kind", () => {
    expect(row("/h/.claude/quoin-checkpoint/state/claimed-0123456789abcdef.json")).toBe(
      "state/claimed-<hash>.json",
    );
    expect(row("/p/.workflow_artifacts/memory/trash/2026-12-03/x.md-2")).toBe(
      "trash/<date>/<name>",
    );
    expect(row(`/p/.workflow_artifacts/memory/pending-prompt-${HELD}.txt`)).toBe(
      "pending-prompt-<sid>.txt",
    );
    expect(row("/p/.workflow_artifacts/t1/cost-ledger.md")).toBe("<task>/cost-ledger.md");
    expect(row("/p/.claude/quoin-checkpoint/hooks/sessionend.cjs")).toBe("hooks/<hook>.cjs");
    expect(row("/h/.claude/quoin-checkpoint/install-state.json")).toBe("install-state.json");
  });
  it("a near miss has no row (null); a path outside the trees is none of the table's (undefined)", () => {
    expect(row("/h/.claude/quoin-checkpoint/state/claimed-xyz.json")).toBeNull();
    expect(row("/p/.workflow_artifacts/memory/checkpoints/a/b.md")).toBeNull();
    expect(row("/p/.workflow_artifacts/memory/trash/yesterday/x.md")).toBeNull();
    expect(row("/p/.workflow_artifacts/t1/sub/cost-ledger.md")).toBeNull();
    expect(row("/p/.workflow_artifacts/memory/cost-ledger.md")).toBeNull();
    expect(row("/h/.claude/quoin-checkpoint/hooks/x/sessionend.cjs")).toBeNull();
    expect(row("/h/.claude/settings.json")).toBeUndefined();
  });
  it("temp files of atomic writes are named by rule, not by row", () => {
    expect(isOwnTempFile("/p/.workflow_artifacts/memory/.recent-sessions.md.4242.3.tmp")).toBe(
      true,
    );
    expect(isOwnTempFile("/p/.workflow_artifacts/.memory-Ab12Cd/.gitignore")).toBe(true);
    expect(isOwnTempFile("/p/.workflow_artifacts/memory/recent-sessions.md")).toBe(false);
  });
});
