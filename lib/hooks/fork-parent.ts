import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { listByMtime } from "../core/dir-listing.ts";
import { readRange, withOpenFile } from "../core/file-range.ts";
import { checkSessionId } from "../core/ids.ts";
import { processStartTicks } from "../store/session-liveness.ts";
import { listRegistry, readRegistry } from "../store/session-registry.ts";

// Which session a forked one came from. NOTE: 2.1.332's SessionStart(fork) payload names only the
// new session, and its transcript does not exist yet when the hook runs (the copied lines, which
// keep the parent's id as `requestSessionId`, are written with the first prompt). So, in order:
// a session this same client process started before (/fork and /branch fork in place); the
// `--resume <id>` on the client's command line (`--resume <id> --fork-session`); else the newest
// other transcript of the project whose last context window is the `context_tokens` the client
// reports for the fork (`--continue --fork-session`).

const TRANSCRIPT_CANDIDATES = 20;
const TAIL_BYTES = 64 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sameProcessSession(deps: Deps, config: string, pid: number, own: string): string | null {
  const start = processStartTicks(deps.fs, pid);
  let best: { sid: string; at: string } | null = null;
  for (const sid of listRegistry(deps, config, "process")) {
    if (sid === own) continue;
    const rec = readRegistry(deps, config, "process", sid);
    if (!rec || rec["pid"] !== pid) continue;
    if (start !== null && typeof rec["start"] === "string" && rec["start"] !== start) continue;
    const at = typeof rec["startedAt"] === "string" ? rec["startedAt"] : "";
    if (!best || at > best.at) best = { sid, at };
  }
  return best?.sid ?? null;
}

/** `--resume <id>`, `-r <id>` or `--resume=<id>` on the client's command line (Linux /proc). */
export function resumeArgument(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? "";
    const value = arg.startsWith("--resume=")
      ? arg.slice("--resume=".length)
      : arg === "--resume" || arg === "-r"
        ? argv[i + 1]
        : undefined;
    // `--resume` also takes a search term: only a session UUID names the parent.
    if (value !== undefined && UUID.test(value)) return value;
  }
  return null;
}

function commandLine(deps: Deps, pid: number): string[] {
  try {
    return (deps.fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") as string).split("\0");
  } catch {
    return [];
  }
}

/** The last reply's whole window as 2.1.332 counts `context_tokens`: input, cache and output. */
function lastWindow(deps: Deps, file: string): number | null {
  return withOpenFile(deps.fs, file, (fd, size) => {
    const lines = readRange(deps.fs, fd, Math.max(0, size - TAIL_BYTES), size)
      .toString("utf8")
      .split("\n");
    for (let i = lines.length - 1; i >= 0; i -= 1) {
      const line = lines[i] ?? "";
      if (!line.includes('"usage"') || !line.includes('"assistant"')) continue;
      try {
        const usage = (JSON.parse(line) as { message?: { usage?: Record<string, unknown> } })
          .message?.usage;
        if (!usage) continue;
        const n = (k: string) => (typeof usage[k] === "number" ? (usage[k] as number) : 0);
        return (
          n("input_tokens") +
          n("cache_read_input_tokens") +
          n("cache_creation_input_tokens") +
          n("output_tokens")
        );
      } catch {
        // a line cut by the window's start
      }
    }
    return null;
  });
}

function byContextTokens(
  deps: Deps,
  transcript: string,
  own: string,
  tokens: number,
): string | null {
  const others = listByMtime(
    deps.fs,
    path.dirname(transcript),
    (n) => n.endsWith(".jsonl") && n !== `${own}.jsonl`,
  ).slice(0, TRANSCRIPT_CANDIDATES);
  for (const f of others) {
    if (lastWindow(deps, f.path) !== tokens) continue;
    const id = checkSessionId(path.basename(f.path, ".jsonl"));
    if (id.ok) return id.id;
  }
  return null;
}

export function forkParent(
  deps: Deps,
  config: string,
  fork: { sid: string; transcriptPath?: string; contextTokens?: unknown },
  clientPid: number | null,
): string | null {
  if (clientPid !== null) {
    const inPlace = sameProcessSession(deps, config, clientPid, fork.sid);
    if (inPlace) return inPlace;
    const resumed = resumeArgument(commandLine(deps, clientPid));
    if (resumed && resumed !== fork.sid) return resumed;
  }
  if (!fork.transcriptPath || typeof fork.contextTokens !== "number") return null;
  return byContextTokens(deps, fork.transcriptPath, fork.sid, fork.contextTokens);
}
