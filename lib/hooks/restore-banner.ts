import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { parseCheckpointName } from "../store/checkpoint-names.ts";
import { checkSessionId, reduceTaskName } from "../core/ids.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { readSentinelHead, trustedCheckpoint } from "../store/pending-restore.ts";
import { listSentinelFiles, type SentinelFile } from "../store/sentinel-listing.ts";
import { parseKeyValues, type SentinelFamily } from "../store/sentinels.ts";
import { parseActiveTask } from "../store/checkpoint-parse.ts";
import { readHead } from "../core/file-range.ts";
import { handoffSkillList } from "../store/mid-agent-handoff.ts";
import { CHECKPOINT_READ_CAP, damageOf, type DamageKind } from "../restore/checkpoint-damage.ts";
import { bannerText, type BannerFacts, type BannerKind } from "../notes/banner-note.ts";
import { newestCheckpointOf } from "../store/session-checkpoints.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";

const TASK_HEAD_BYTES = 4096;

/** The banner found: its facts, the sentinel behind it, and its words for the model. */
export interface Banner {
  kind: BannerKind;
  facts: BannerFacts;
  text: string;
  checkpoint: string | null;
  sentinel: string;
}

function banner(facts: BannerFacts, sentinel: string): Banner {
  return {
    kind: facts.kind,
    facts,
    text: bannerText(facts),
    checkpoint: "checkpoint" in facts ? facts.checkpoint : null,
    sentinel,
  };
}

/**
 * The task a checkpoint is for: its `task` section line (quoin's forced save is named
 * <date>T<HHMM>-<pid>-<task>-blocksave.md and a same-minute save gets -2, -3: the name misleads),
 * else the file name. Reduced to [a-z0-9-] either way, so no free text reaches the banner.
 */
export function taskOf(deps: Deps, checkpoint: string): string {
  const fromFile = parseActiveTask(readHead(deps.fs, checkpoint, TASK_HEAD_BYTES) ?? "");
  if (fromFile) return reduceTaskName(fromFile);
  const shape = parseCheckpointName(path.basename(checkpoint));
  return reduceTaskName(shape?.rest ?? "unknown");
}

/** Why the checkpoint a sentinel names cannot be restored as one, or null (checkpoint-damage.ts). */
function damageOfFile(deps: Deps, checkpoint: string): DamageKind | null {
  try {
    const size = deps.fs.statSync(checkpoint).size;
    const text = readHead(deps.fs, checkpoint, CHECKPOINT_READ_CAP);
    return text === null ? null : damageOf(text, size);
  } catch {
    return null;
  }
}

/** When a checkpoint was saved: its `## Saved at`, else its mtime; null when neither is read. */
function savedMsOf(deps: Deps, checkpoint: string): number | null {
  const saved = parseCheckpoint(readHead(deps.fs, checkpoint, TASK_HEAD_BYTES) ?? "").savedAt;
  const ms = saved ? Date.parse(saved) : NaN;
  if (Number.isFinite(ms)) return ms;
  try {
    return deps.fs.statSync(checkpoint).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * The checkpoint to offer for a sentinel of session `sid`: the one it names, unless a newer,
 * undamaged checkpoint of the same session exists (a session-end snapshot after the block tier's
 * forced save holds the later work), then that one.
 */
function newestOfSession(deps: Deps, paths: MemoryPaths, sid: string, named: string): string {
  const newest = newestCheckpointOf(deps, paths, sid, null);
  if (!newest || path.resolve(newest.file) === path.resolve(named)) return named;
  const namedMs = savedMsOf(deps, named);
  if (namedMs !== null && Date.parse(newest.savedAt) <= namedMs) return named;
  const trusted = trustedCheckpoint(deps, paths, newest.file);
  return trusted && damageOfFile(deps, trusted) === null ? trusted : named;
}

function sentinelsOf(
  listing: readonly SentinelFile[],
  family: SentinelFamily,
): Array<{ file: string; sid: string }> {
  return listing.filter((s) => s.family === family).map((s) => ({ file: s.path, sid: s.sid }));
}

/**
 * At most one banner, in this order: this session's pending restore; else the newest other
 * session's (marked as such); else a load-as-reference checkpoint; else a mid-agent handoff.
 * Paths and task names only. `listing` is the memory folder's sentinels, newest first;
 * `refTakenBy` names the session a reference banner already went to (then only that one sees it).
 */
export function chooseBanner(
  deps: Deps,
  paths: MemoryPaths,
  sid: string | null,
  listing: readonly SentinelFile[] = listSentinelFiles(deps.fs, paths.memory),
  refTakenBy: (s: SentinelFile) => string | null = () => null,
): Banner | null {
  const restores = sentinelsOf(listing, "pending-restore").filter((s) => s.sid !== "");
  const ordered = sid
    ? [...restores.filter((s) => s.sid === sid), ...restores.filter((s) => s.sid !== sid)]
    : restores;
  for (const s of ordered) {
    const named = trustedCheckpoint(deps, paths, readSentinelHead(deps, s.file)?.split("\n")[0]);
    if (!named) continue;
    const checkpoint = newestOfSession(deps, paths, s.sid, named);
    const damage = damageOfFile(deps, checkpoint);
    return banner(
      {
        kind: s.sid === sid ? "own-restore" : "other-restore",
        checkpoint,
        sid: s.sid,
        task: damage ? "unknown" : taskOf(deps, checkpoint),
        ...(damage ? { damage } : {}),
      },
      s.file,
    );
  }
  for (const s of listing.filter((l) => l.family === "pending-resume-ref")) {
    // Shown until a session acts on it (the first session it reached), not to every new session.
    const taken = refTakenBy(s);
    if (taken !== null && taken !== sid) continue;
    const kv = parseKeyValues(readSentinelHead(deps, s.path) ?? "");
    const checkpoint = trustedCheckpoint(deps, paths, kv["checkpoint_path"]);
    const prior = checkSessionId(kv["prior_session_uuid"]);
    if (!checkpoint || !prior.ok) continue;
    return banner(
      { kind: "reference", checkpoint, prior: prior.id, task: taskOf(deps, checkpoint) },
      s.path,
    );
  }
  for (const s of sentinelsOf(listing, "mid-agent-handoff")) {
    const head = readSentinelHead(deps, s.file) ?? "";
    const kv = parseKeyValues(head);
    const prior = checkSessionId(kv["prior_session_uuid"]);
    if (!prior.ok) continue;
    return banner(
      {
        kind: "mid-agent",
        prior: prior.id,
        task: reduceTaskName(kv["task_name"]),
        skills: handoffSkillList(head),
      },
      s.file,
    );
  }
  return null;
}
