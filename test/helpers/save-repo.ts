import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { ENGINE_BUNDLE } from "../../lib/install/install-layout.ts";
import { tempDir } from "./temp-dirs.ts";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");
export const ENGINE = path.join(REPO_ROOT, "dist", ENGINE_BUNDLE);
export const PRECOMPACT = path.join(REPO_ROOT, "dist", "hooks", "precompact.cjs");
export const SESSIONSTART = path.join(REPO_ROOT, "dist", "hooks", "sessionstart.cjs");
export const SESSIONEND = path.join(REPO_ROOT, "dist", "hooks", "sessionend.cjs");

/** The built bundles: `npm test` builds first; a lone `vitest run` builds once if dist/ is missing. */
export function ensureBuilt(): void {
  if ([ENGINE, PRECOMPACT, SESSIONSTART, SESSIONEND].every((f) => existsSync(f))) return;
  const res = spawnSync("npx", ["tsx", "scripts/build.ts"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`build failed: ${res.stderr}`);
}

export interface TempRepo {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  git: (...args: string[]) => string;
  /** every file under root except .git/, relative, sorted */
  files: () => string[];
}

/** A real git repository with one commit, under a scratch $HOME (so nothing touches the real ~/.claude). */
export function tempRepo(opts: { outsideHome?: boolean } = {}): TempRepo {
  const base = tempDir("quoin-save-");
  const home = path.join(base, "home");
  const root = opts.outsideHome ? path.join(base, "repo") : path.join(home, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(root, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    HOME: home,
    TZ: "UTC",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
  };
  const git = (...args: string[]) => {
    const res = spawnSync("git", args, { cwd: root, env, encoding: "utf8" });
    if (res.status !== 0) throw new Error(`git ${args.join(" ")}: ${res.stderr}`);
    return res.stdout.trim();
  };
  git("init", "-q", "-b", "main");
  // The initial commit predates every session the tests start.
  const old = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();
  const res = spawnSync("git", ["commit", "-q", "--allow-empty", "-m", "initial"], {
    cwd: root,
    env: { ...env, GIT_AUTHOR_DATE: old, GIT_COMMITTER_DATE: old },
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`git commit: ${res.stderr}`);
  const files = () => {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (full === path.join(root, ".git")) continue;
        if (statSync(full).isDirectory()) walk(full);
        else out.push(path.relative(root, full));
      }
    };
    walk(root);
    return out.sort();
  };
  return { root, home, env, git, files };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runNode(
  file: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Ran {
  const res = spawnSync(process.execPath, [file, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    input: opts.input ?? "",
    encoding: "utf8",
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

export function runNodeAsync(
  file: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
