import { spawnSync } from "node:child_process";
import * as path from "node:path";

export const REPO = path.resolve(import.meta.dirname, "../..");
export const DIST = path.join(REPO, "dist");
export const FIXTURES = path.resolve(REPO, "test", "fixtures", "transcripts");

export interface BundleRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a built bundle as Claude Code would: node <file>, stdin piped, env given. */
export function runBundle(
  file: string,
  args: string[],
  opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): BundleRun {
  const res = spawnSync(process.execPath, [file, ...args], {
    input: opts.input ?? "",
    env: { PATH: process.env["PATH"], TZ: "UTC", ...opts.env },
    cwd: opts.cwd,
    encoding: "utf8",
    timeout: 20_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/**
 * The one file a hook may write under $HOME outside the Claude config folder: the prompt hook's
 * V8 code cache (lib/edge/code-cache.ts, lib/core/code-cache-name.ts).
 */
export function isPromptCodeCache(file: string, home: string): boolean {
  const prefix = `${home}/.cache/quoin-checkpoint/`;
  return (
    file.startsWith(prefix) &&
    /^userpromptsubmit-[0-9a-f]{8}-v\d+\.\d+\.\d+-[a-z0-9]+-[0-9a-f]{12}\.v8cache$/.test(
      file.slice(prefix.length),
    )
  );
}
