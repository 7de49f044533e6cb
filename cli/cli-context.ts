import * as path from "node:path";
import type { Deps } from "../lib/core/deps.ts";
import { readKnobs, type Knobs } from "../lib/core/knobs.ts";
import { memoryPaths, type MemoryPaths } from "../lib/store/memory-paths.ts";
import { resolveProjectRoot } from "../lib/store/project-root.ts";
import { resolveSessionId, type ResolvedSessionId } from "../lib/store/session-id-resolve.ts";

/** A wrong invocation: printed as one line, exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface CommonFlags {
  cwd?: string;
  session?: string;
  json: boolean;
}

export interface CliContext {
  deps: Deps;
  knobs: Knobs;
  /** the raw launch cwd (for the transcript folder name) */
  cwd: string;
  root: string;
  paths: MemoryPaths;
  json: boolean;
  sessionFlag?: string;
  /** resolved lazily: not every command needs a session */
  session: () => ResolvedSessionId;
  stdout: (text: string) => void;
  readStdin: () => string;
}

export function buildContext(
  deps: Deps,
  flags: CommonFlags,
  io: { stdout: (text: string) => void; readStdin: () => string },
): CliContext {
  const cwd = path.resolve(deps.cwd, flags.cwd ?? ".");
  const root = resolveProjectRoot(deps.fs, cwd, deps.home);
  let session: ResolvedSessionId | undefined;
  return {
    deps,
    knobs: readKnobs(deps.env, deps.warn),
    cwd,
    root,
    paths: memoryPaths(root),
    json: flags.json,
    sessionFlag: flags.session,
    session: () => (session ??= resolveSessionId(deps, flags.session, cwd)),
    stdout: io.stdout,
    readStdin: io.readStdin,
  };
}

/** Print one JSON object on one line: the whole answer of a --json command. */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.stdout(`${JSON.stringify(value)}\n`);
}

export function printLine(ctx: CliContext, line: string): void {
  ctx.stdout(`${line}\n`);
}
