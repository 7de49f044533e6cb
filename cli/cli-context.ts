import * as path from "node:path";
import type { Deps } from "../lib/core/deps.ts";
import { readKnobs, type Knobs } from "../lib/core/knobs.ts";
import type { MemoryPaths } from "../lib/store/memory-paths.ts";
import { notAProject, projectMemory } from "../lib/store/project-root.ts";
import {
  isGuessed,
  resolveSessionId,
  sessionTaken,
  type ResolvedSessionId,
} from "../lib/store/session-id-resolve.ts";

/** A wrong invocation: printed as one line, exit 2 (EXIT.usage); `expected` goes in the --json refusal. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly expected?: string,
  ) {
    super(message);
  }
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
  /** the project's memory paths, or null in $HOME, an ancestor of it, or / (nothing is written there) */
  project: MemoryPaths | null;
  /** the project root; a command that reads it outside a project is refused (exit 2) */
  readonly root: string;
  /** the project's memory paths; a command that reads them outside a project is refused (exit 2) */
  readonly paths: MemoryPaths;
  json: boolean;
  sessionFlag?: string;
  /**
   * resolved lazily: not every command needs a session. Taken without --session, the first call
   * says which session and how on stderr (`session 4d5611e5 (newest transcript in this project)`).
   */
  session: () => ResolvedSessionId;
  /** the session was taken from the newest transcript: no claim that it is the person's own */
  readonly sessionGuessed: boolean;
  stdout: (text: string) => void;
  readStdin: () => string;
}

export function buildContext(
  deps: Deps,
  flags: CommonFlags,
  io: { stdout: (text: string) => void; readStdin: () => string },
): CliContext {
  const cwd = path.resolve(deps.cwd, flags.cwd ?? ".");
  const project = projectMemory(deps, cwd);
  const need = (): MemoryPaths => {
    if (project) return project;
    throw new UsageError(`${notAProject(cwd)}: run from inside a project or pass --cwd DIR`);
  };
  let session: ResolvedSessionId | undefined;
  return {
    deps,
    knobs: readKnobs(deps.env, deps.warn),
    cwd,
    project,
    get root() {
      return need().root;
    },
    get paths() {
      return need();
    },
    json: flags.json,
    sessionFlag: flags.session,
    session: () => {
      if (session) return session;
      session = resolveSessionId(deps, flags.session, cwd);
      if (session.ok && session.source !== "flag")
        deps.warn(`quoin-checkpoint: ${sessionTaken(session.id, session.source)}`);
      return session;
    },
    get sessionGuessed() {
      return session !== undefined && isGuessed(session);
    },
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
