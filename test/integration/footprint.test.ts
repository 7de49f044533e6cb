import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { projectHash } from "../../lib/core/project-hash.ts";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";
import { ensureBuilt, REPO_ROOT, tempRepo } from "../helpers/save-repo.ts";
import { transcriptWithTokens } from "../helpers/transcripts.ts";
import { isPromptCodeCache } from "../helpers/run-bundle.ts";

// What quoin leaves behind, end to end: a user install into a temp $HOME, then the hooks as the
// installed settings.json runs them (sh -c) and the installed engine, in a fresh git repository.
// At the end `git status --porcelain` prints nothing and $HOME holds only ~/.claude.

beforeAll(ensureBuilt);

const A = "a1a1a1a1-0000-4000-8000-00000000000a";
const B = "b2b2b2b2-0000-4000-8000-00000000000b";
const TSX = path.join(REPO_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

type Settings = { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };

describe("footprint in a fresh repository", () => {
  it("install, ten prompts, a save, a PreCompact and a restore from another session leave git status clean and $HOME alone", () => {
    const repo = tempRepo({ outsideHome: true });
    const run = (cmd: string, args: string[], opts: { cwd: string; input?: string }) => {
      const res = spawnSync(cmd, args, {
        cwd: opts.cwd,
        env: repo.env,
        input: opts.input ?? "",
        encoding: "utf8",
        timeout: 60_000,
      });
      return { code: res.status, out: `${res.stdout}${res.stderr}`, stdout: res.stdout };
    };
    const installed = run(
      process.execPath,
      [TSX, path.join(REPO_ROOT, "install.ts"), "--no-build"],
      { cwd: REPO_ROOT },
    );
    expect(installed.code, installed.out).toBe(0);

    const config = path.join(repo.home, ".claude");
    const settings = JSON.parse(
      readFileSync(path.join(config, "settings.json"), "utf8"),
    ) as Settings;
    const hook = (event: string, payload: object) => {
      const command = settings.hooks[event]?.[0]?.hooks[0]?.command;
      if (!command) throw new Error(`no ${event} hook installed`);
      const r = run("sh", ["-c", command], {
        cwd: repo.root,
        input: JSON.stringify({ cwd: repo.root, hook_event_name: event, ...payload }),
      });
      expect(r.code, `${event}: ${r.out}`).toBe(0);
      return r.stdout;
    };
    const engine = (...args: string[]) =>
      run(process.execPath, [path.join(config, "quoin-checkpoint", ENGINE_BUNDLE), ...args], {
        cwd: repo.root,
      });

    const transcript = (sid: string) => {
      const file = path.join(config, "projects", projectHash(repo.root), `${sid}.jsonl`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, transcriptWithTokens(40_000));
      return file;
    };
    const ta = transcript(A);
    hook("SessionStart", { session_id: A, transcript_path: ta, source: "startup" });
    for (let i = 1; i <= 10; i += 1)
      hook("UserPromptSubmit", {
        session_id: A,
        transcript_path: ta,
        prompt: `step ${i}`,
        permission_mode: "default",
      });
    expect(repo.git("status", "--porcelain"), "ten plain prompts").toBe("");

    const saved = engine(
      "save",
      "--session",
      A,
      "--transcript",
      ta,
      "--intent",
      "finish the parser",
      "--json",
    );
    expect(saved.code, saved.out).toBe(0);
    hook("PreCompact", {
      session_id: A,
      transcript_path: ta,
      trigger: "auto",
      custom_instructions: "",
    });

    const tb = transcript(B);
    expect(
      hook("SessionStart", { session_id: B, transcript_path: tb, source: "startup" }),
    ).toContain("checkpoint");
    const restored = engine("restore", "--session", B, "--json");
    expect(restored.code, restored.out).toBe(0);
    const answer = JSON.parse(restored.stdout) as { show: string[] };
    expect(answer).toMatchObject({ action: "restore", done: true });
    // the brief says the task's intent and the session it resumes, once, in `show`
    expect(answer.show.join("\n")).toContain("Last intent: finish the parser");
    expect(answer.show.join("\n")).toContain(`claude --resume ${A}`);

    expect(
      readFileSync(path.join(repo.root, ".workflow_artifacts", "memory", ".gitignore"), "utf8"),
    ).toBe("*\n");
    expect(repo.git("status", "--porcelain")).toBe("");
    // $HOME gains the Claude config folder and the prompt hook's code cache, nothing else.
    expect(readdirSync(repo.home).sort()).toEqual([".cache", ".claude"]);
    const caches = readdirSync(path.join(repo.home, ".cache"), {
      recursive: true,
      encoding: "utf8",
    })
      .map((f) => path.join(repo.home, ".cache", f))
      .filter((f) => !statSync(f).isDirectory());
    expect(caches.length).toBeGreaterThan(0);
    expect(caches.filter((f) => !isPromptCodeCache(f, repo.home))).toEqual([]);
  });
});
