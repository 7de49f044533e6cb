import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { runCli } from "../../cli/run-cli.ts";
import type { Command } from "../../cli/command.ts";
import { nodeFs, nodeDeps } from "../../lib/edge/node-deps.ts";
import { ensureDir } from "../../lib/core/memory-dir.ts";
import { tempDir } from "./temp-dirs.ts";

// A bare repository on disk as the remote and clones of it, each under its own $HOME (so each
// clone is "another machine"), for the sharing tests. Everything is real git.

export interface Clone {
  name: string;
  home: string;
  root: string;
  git: (...args: string[]) => string;
  /** one engine command in process, with this clone's home and cwd; stdout parsed when --json */
  cli: (
    commands: readonly Command[],
    args: string[],
    extraEnv?: Record<string, string>,
  ) => { code: number; stdout: string; stderr: string; json: any };
  /** a checkpoint file written the way a save writes it (the memory folder gets its .gitignore) */
  writeCheckpoint: (name: string, text: string) => string;
}

export interface ShareWorld {
  base: string;
  bare: string;
  bareGit: (...args: string[]) => string;
  clone: (name: string) => Clone;
}

function gitIn(cwd: string) {
  return (...args: string[]) => {
    const res = spawnSync("git", args, { cwd, encoding: "utf8" });
    if (res.status !== 0) throw new Error(`git ${args.join(" ")}: ${res.stderr}`);
    return res.stdout.trim();
  };
}

export function shareWorld(): ShareWorld {
  const base = tempDir("quoin-share-");
  const bare = path.join(base, "remote.git");
  gitIn(base)("init", "-q", "--bare", "-b", "main", bare);
  const seed = path.join(base, "seed");
  mkdirSync(seed);
  const s = gitIn(seed);
  s("init", "-q", "-b", "main");
  s("config", "user.name", "seed");
  s("config", "user.email", "seed@example.com");
  writeFileSync(path.join(seed, "app.ts"), "export const x = 1;\n");
  s("add", "app.ts");
  s("commit", "-q", "-m", "initial");
  s("push", "-q", bare, "main");
  return {
    base,
    bare,
    bareGit: gitIn(bare),
    clone(name) {
      const home = path.join(base, `home-${name}`);
      const root = path.join(home, "work", "shop");
      mkdirSync(path.dirname(root), { recursive: true });
      gitIn(base)("clone", "-q", bare, root);
      const git = gitIn(root);
      git("config", "user.name", `dev-${name}`);
      git("config", "user.email", `${name}@example.com`);
      return {
        name,
        home,
        root,
        git,
        cli(commands, args, extraEnv = {}) {
          let stdout = "";
          let stderr = "";
          const deps = nodeDeps({
            cwd: root,
            home,
            env: {
              ...process.env,
              HOME: home,
              HOSTNAME: `host-${name}`,
              CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
              ...extraEnv,
            },
            warn: (l) => {
              stderr += `${l}\n`;
            },
          });
          const code = runCli(
            args,
            deps,
            { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), readStdin: () => "" },
            commands,
          );
          const json =
            args.includes("--json") && stdout.trim()
              ? JSON.parse(stdout.trim().split("\n").pop() as string)
              : null;
          return { code, stdout, stderr, json };
        },
        writeCheckpoint(fileName, text) {
          const dir = path.join(root, ".workflow_artifacts", "memory", "checkpoints");
          ensureDir(nodeFs, dir);
          const file = path.join(dir, fileName);
          writeFileSync(file, text);
          return file;
        },
      };
    },
  };
}

/** A curated checkpoint as /checkpoint save writes it, naming paths of this clone and typed secrets. */
export function checkpointText(o: {
  root: string;
  home: string;
  sid: string;
  task: string;
  savedAt: string;
  extra?: string;
}): string {
  const hash = o.root.replace(/[^A-Za-z0-9-]/g, "-");
  return `## Status
user-requested save

## Current stage
implement

## Active task
${o.task}

## Branch
main

## Session ID
${o.sid}

## Saved at
${o.savedAt}

## Session link
- Resume: claude --resume ${o.sid}
- JSONL: ~/.claude/projects/${hash}/${o.sid}.jsonl

## Last user intent
wire the payment retry in ${o.root}/app.ts and keep ${o.home}/notes/todo.md in sync

## In-flight artifacts
- current-plan.md: ${o.root}/.workflow_artifacts/${o.task}/current-plan.md
- session-state: ${o.root}/.workflow_artifacts/memory/sessions/2026-12-02-${o.task}.md

## Failures
- npm test failed: ENOENT ${o.home}/.cache/shop/build.log
${o.extra ?? ""}
## Restore hint
Run /checkpoint --restore in a fresh session to resume task '${o.task}' from branch 'main'.
`;
}
