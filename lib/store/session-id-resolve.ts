import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { checkSessionId } from "../core/ids.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { transcriptDir } from "../core/project-hash.ts";
import { listByMtime } from "../core/dir-listing.ts";

export type SessionIdSource = "flag" | "env" | "newest-transcript";

export type ResolvedSessionId =
  | { ok: true; id: string; source: SessionIdSource }
  | { ok: false; reason: string };

const SOURCE_WORDS: Record<SessionIdSource, string> = {
  flag: "from --session",
  env: "from CLAUDE_CODE_SESSION_ID",
  "newest-transcript": "newest transcript in this project",
};

/** `session 4d5611e5 (newest transcript in this project)`: which session a command took, and how. */
export function sessionTaken(id: string, source: SessionIdSource): string {
  return `session ${id.slice(0, 8)} (${SOURCE_WORDS[source]})`;
}

/** A session id taken from the newest transcript is a guess: it may be another session's. */
export function isGuessed(resolved: ResolvedSessionId): boolean {
  return resolved.ok && resolved.source === "newest-transcript";
}

/** The folder Claude Code keeps this launch cwd's transcripts in. */
function sessionTranscriptDir(deps: Deps, launchCwd: string): string {
  return transcriptDir(claudeConfigDir(deps.env, deps.home), launchCwd);
}

/**
 * The session id: --session, else CLAUDE_CODE_SESSION_ID, else the newest transcript's stem in
 * ~/.claude/projects/<hash of the raw launch cwd>/. Invalid ids are refused with the reason.
 */
export function resolveSessionId(
  deps: Deps,
  flag: string | undefined,
  launchCwd: string,
): ResolvedSessionId {
  if (flag !== undefined) {
    const check = checkSessionId(flag);
    return check.ok
      ? { ok: true, id: check.id, source: "flag" }
      : { ok: false, reason: `--session: ${check.reason}` };
  }
  const fromEnv = deps.env["CLAUDE_CODE_SESSION_ID"];
  if (fromEnv) {
    const check = checkSessionId(fromEnv);
    return check.ok
      ? { ok: true, id: check.id, source: "env" }
      : { ok: false, reason: `CLAUDE_CODE_SESSION_ID: ${check.reason}` };
  }
  const newest = listByMtime(
    deps.fs,
    sessionTranscriptDir(deps, launchCwd),
    (n) => n.endsWith(".jsonl") && !n.startsWith("agent-"),
  )[0];
  if (newest) {
    const check = checkSessionId(path.basename(newest.path, ".jsonl"));
    if (check.ok) return { ok: true, id: check.id, source: "newest-transcript" };
  }
  return {
    ok: false,
    reason: `no session id: pass --session ID (no transcript in ${sessionTranscriptDir(deps, launchCwd)}, and CLAUDE_CODE_SESSION_ID is not set)`,
  };
}

/** At most this many project folders are looked in for a session's transcript. */
const PROJECT_FOLDER_LIMIT = 5000;

/**
 * The session's transcript: <config>/projects/<hash of the launch cwd>/<sid>.jsonl, else the same
 * name in any other folder under <config>/projects/ (a skill run from a subfolder, or a cwd that
 * moved, hashes to a folder Claude Code never wrote), else the first path (absent).
 */
export function transcriptPathFor(deps: Deps, launchCwd: string, sid: string): string {
  const first = path.join(sessionTranscriptDir(deps, launchCwd), `${sid}.jsonl`);
  if (deps.fs.existsSync(first) || !checkSessionId(sid).ok) return first;
  const projects = path.join(claudeConfigDir(deps.env, deps.home), "projects");
  let folders: string[];
  try {
    folders = (deps.fs.readdirSync(projects) as string[]).slice(0, PROJECT_FOLDER_LIMIT);
  } catch {
    return first;
  }
  for (const folder of folders) {
    const candidate = path.join(projects, folder, `${sid}.jsonl`);
    if (deps.fs.existsSync(candidate)) return candidate;
  }
  return first;
}
