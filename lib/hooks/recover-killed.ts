import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { listByMtime } from "../core/dir-listing.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { transcriptDir } from "../core/project-hash.ts";
import { DAY_MS } from "../core/time-format.ts";
import { readTranscriptDigest } from "../context/transcript-digest-read.ts";
import { checkHandover } from "../save/session-git.ts";
import { writeSkeletonCheckpoint } from "../save/skeleton-save.ts";
import { statusText } from "../store/checkpoint-status.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import { isSessionRunning } from "../store/session-liveness.ts";
import { readRegistry } from "../store/session-registry.ts";
import { sessionEndSkip } from "./session-end-rules.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { readHeadCheap } from "../core/git.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import { RECOVERED_NOTE } from "../notes/start-notes.ts";

// A way back from a killed session. A session that ends without SessionEnd (a killed terminal, a
// crash, OOM, a machine that slept and was rebooted) leaves its transcript and no checkpoint. At
// the next SessionStart in the project, the newest such transcript gets the checkpoint SessionEnd
// would have written, marked as recovered, and the startup line offers it like any session-end
// snapshot.

/** The status's reason: `checkpoint save (session end, recovered)`. */
export const RECOVERED_REASON = "recovered";

/** Transcripts older than this are not looked at. */
const MAX_AGE_MS = 7 * DAY_MS;
/** The newest this many transcripts of the project are looked at. */
const LOOKED_AT = 5;
/** With no process record, a transcript unchanged this long is taken as a session that is gone. */
const QUIET_MS = 30 * 60 * 1000;
/** Bytes digested per candidate (SessionEnd's budget), and at most this many digests per start. */
const DIGEST_BYTES = 4 * 1024 * 1024;
const HEAD_BYTES = 128 * 1024;
const DIGESTS = 2;
/** Past this much time since the hook's start, no further candidate is digested. */
export const RECOVERY_BUDGET_MS = 700;
/** The git check of the recovered session's commits stops this long after that. */
const GIT_MS = 400;

export interface Recovered {
  sessionId: string;
  checkpoint: string;
  task: string;
}

/** Whether the session's client process is gone: its record's process is dead, or (no record) its transcript has been quiet 30 minutes. */
function processGone(deps: Deps, config: string, sid: string, mtimeMs: number): boolean {
  const rec = readRegistry(deps, config, "process", sid);
  if (rec) return !isSessionRunning(deps, config, sid);
  return deps.now().getTime() - mtimeMs >= QUIET_MS;
}

/**
 * At most one recovered checkpoint per start: the newest transcript of this project (of the newest
 * 5, at most 7 days old, never the starting session's) whose session SessionEnd never marked
 * ended, whose process is gone, with no checkpoint saved after its last write, and that did real
 * work (SessionEnd's trivial rule). null when none qualifies or the budget ran out.
 */
export function recoverKilledSession(
  deps: Deps,
  paths: MemoryPaths,
  startingSid: string | null,
  launchCwd: string,
  startedAtMs: number,
): Recovered | null {
  const config = claudeConfigDir(deps.env, deps.home);
  const nowMs = deps.now().getTime();
  const transcripts = listByMtime(
    deps.fs,
    transcriptDir(config, launchCwd),
    (n) => n.endsWith(".jsonl") && !n.startsWith("agent-"),
  ).slice(0, LOOKED_AT);
  let digests = 0;
  for (const t of transcripts) {
    const sid = path.basename(t.path, ".jsonl");
    if (nowMs - t.mtimeMs > MAX_AGE_MS) break;
    if (sid === startingSid || !isUsableSessionId(sid)) continue;
    if (readRegistry(deps, config, "ended", sid)) continue;
    if (!processGone(deps, config, sid, t.mtimeMs)) continue;
    const newest = newestCheckpointOf(deps, paths, sid, null);
    // `## Saved at` has whole seconds: a checkpoint in the transcript's last second counts as after it
    if (newest && Date.parse(newest.savedAt) + 1000 > t.mtimeMs) continue;
    if (digests >= DIGESTS || deps.now().getTime() - startedAtMs > RECOVERY_BUDGET_MS) return null;
    digests += 1;
    const digest = readTranscriptDigest(deps.fs, t.path, {
      projectRoot: paths.root,
      sessionId: sid,
      budgetBytes: DIGEST_BYTES,
      headBytes: HEAD_BYTES,
    });
    // SessionEnd's own rules: real work (not trivial), and something new since its newest checkpoint
    const text = newest ? readTextOrNull(deps.fs, newest.file) : null;
    const skip = sessionEndSkip({
      rootIsHomeOrSlash: false,
      root: paths.root,
      digest,
      transcriptPath: t.path,
      previous: newest ? { ...newest, parsed: text === null ? null : parseCheckpoint(text) } : null,
      commitsSincePrevious: () => 0,
      headNow: () => readHeadCheap(deps.fs, paths.root),
    });
    if (!digest || skip) continue;
    const written = writeSkeletonCheckpoint(deps, {
      paths,
      sessionId: sid,
      launchCwd,
      status: statusText({ kind: "session-end", reason: RECOVERED_REASON }),
      shape: "voluntary",
      writeSentinel: false,
      notes: [RECOVERED_NOTE],
      digest,
      handover: checkHandover(deps, paths.root, digest, [], {
        git: true,
        deadlineAt: startedAtMs + RECOVERY_BUDGET_MS + GIT_MS,
      }),
    });
    return { sessionId: sid, checkpoint: written.checkpoint, task: written.task };
  }
  return null;
}

/** recoverKilledSession, failing open: a recovery that throws leaves the start as it was. */
export function tryRecoverKilledSession(
  deps: Deps,
  paths: MemoryPaths,
  startingSid: string | null,
  launchCwd: string,
  startedAtMs: number,
): Recovered | null {
  try {
    return recoverKilledSession(deps, paths, startingSid, launchCwd, startedAtMs);
  } catch {
    return null;
  }
}
