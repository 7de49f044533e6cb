import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { runCleanup } from "../save/cleanup-sweep.ts";
import { contextAnswer, type HookAnswer, type SessionStartInput } from "./hook-io.ts";
import { isUsableSessionId } from "../core/ids.ts";
import type { Knobs } from "../core/knobs.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { projectMemory } from "../store/project-root.ts";
import { chooseBanner } from "./restore-banner.ts";
import { bannerLine } from "../notes/banner-note.ts";
import { REENTRY_NOTE } from "../notes/reentry-note.ts";
import { lastSessionNote, recoveredText, type Note } from "../notes/start-notes.ts";
import { listSentinelFiles } from "../store/sentinel-listing.ts";
import { parseKeyValues, renderKeyValues, sentinelPath } from "../store/sentinels.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { REENTRY_GIVEN_KEY, reentryAtStart } from "./reentry-at-prompt.ts";
import { fitLastWords, NOTE_BUDGET, reentryLastWords } from "./reentry-last-words.ts";
import type { LastWord } from "../store/checkpoint-values.ts";
import { DAY_MS, utcIso } from "../core/time-format.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { reduceTaskName } from "../core/ids.ts";
import { newestSessionEndSnapshot } from "../store/session-checkpoints.ts";
import { clearNotice } from "./clear-handoff.ts";
import { forkAndResumeNotes } from "./resume-advice.ts";
import { clientProcessPid, recordSessionProcess } from "../store/session-liveness.ts";
import { pruneRegistry, readRegistry, writeRegistry } from "../store/session-registry.ts";
import type { SentinelFile } from "../store/sentinel-listing.ts";
import { tryRecoverKilledSession } from "./recover-killed.ts";
import { takeSaveFailure, withSaveFailure } from "./save-failure.ts";

const EVENT = "SessionStart";

/**
 * `source: compact`: compact-happened and postcompact-reset, keys compacted_at= and session_id=,
 * and reentry=given when this note already carried what the summary dropped.
 */
function markCompaction(deps: Deps, paths: MemoryPaths, sid: string, given: boolean): string[] {
  const body = renderKeyValues({
    compacted_at: utcIso(deps.now()),
    session_id: sid,
    ...(given ? { [REENTRY_GIVEN_KEY]: "given" } : {}),
  });
  return (["compact-happened", "postcompact-reset"] as const).map((family) => {
    const file = sentinelPath(paths.memory, family, sid);
    writeAtomic(deps.fs, file, body, { pid: deps.pid });
    return file;
  });
}

/** compacted_at of this session's compact-happened sentinel, before this compaction rewrites it. */
function previousCompactionAt(deps: Deps, paths: MemoryPaths, sid: string): string | null {
  const text = readTextOrNull(deps.fs, sentinelPath(paths.memory, "compact-happened", sid));
  return text === null ? null : (parseKeyValues(text)["compacted_at"] ?? null);
}

/**
 * Record this session's Claude Code process outside the repository, so a restore can
 * say that a checkpoint's session is still running; old entries pruned. Best effort.
 */
function noteSessionProcess(deps: Deps, sid: string, cwd: string): number | null {
  try {
    const config = claudeConfigDir(deps.env, deps.home);
    pruneRegistry(deps, config);
    const pid = clientProcessPid(deps, deps.pid);
    if (pid !== null) recordSessionProcess(deps, config, sid, pid, cwd);
    return pid;
  } catch {
    // fail open: without the record no session is called running
    return null;
  }
}

/** The session a load-as-reference sentinel (this version of it) was already shown to, else null. */
function referenceTakenBy(deps: Deps, config: string, s: SentinelFile): string | null {
  const rec = s.sid ? readRegistry(deps, config, "ref-acted", s.sid) : null;
  return rec && rec["mtimeMs"] === Math.floor(s.mtimeMs) && typeof rec["by"] === "string"
    ? rec["by"]
    : null;
}

function markReferenceTaken(
  deps: Deps,
  config: string,
  sentinel: string,
  sid: string,
  listing: readonly SentinelFile[],
): void {
  const s = listing.find((l) => l.path === sentinel);
  if (!s?.sid || referenceTakenBy(deps, config, s) === sid) return;
  try {
    writeRegistry(deps, config, "ref-acted", s.sid, { mtimeMs: Math.floor(s.mtimeMs), by: sid });
  } catch {
    // fail open: the banner may show once more
  }
}

/**
 * Every start: sweep sentinels older than QUOIN_RESTORE_SENTINEL_WINDOW (never this session's;
 * the restore picker looks that far back, so a shorter window would hide its candidates), then
 * at most one banner.
 */
export function handleSessionStart(
  deps: Deps,
  input: SessionStartInput,
  knobs: Knobs,
): HookAnswer | null {
  // A save of this session that failed (PreCompact, SessionEnd) is said once, even where this
  // hook's own writes fail too (the same read-only project).
  const failed = takeSaveFailure(
    deps,
    isUsableSessionId(input.session_id) ? input.session_id : null,
  );
  if (!failed) return sessionStartAnswer(deps, input, knobs);
  let answer: HookAnswer | null = null;
  try {
    answer = sessionStartAnswer(deps, input, knobs);
  } catch {
    // the failure is said without the rest
  }
  return withSaveFailure(answer, failed, EVENT);
}

function sessionStartAnswer(deps: Deps, input: SessionStartInput, knobs: Knobs): HookAnswer | null {
  const paths = projectMemory(deps, input.cwd ?? deps.cwd);
  const sid = isUsableSessionId(input.session_id) ? input.session_id : null;
  // Outside a project ($HOME, /) nothing was saved and nothing is written: no note, no sweep.
  if (!paths) return null;
  const notes: string[] = [];
  let lastWords: { at: number; words: LastWord[] } | null = null;
  if (input.source === "compact" && sid) {
    const previous = previousCompactionAt(deps, paths, sid);
    // The summary is usually not in the transcript yet: then the first prompt carries the list.
    const digest = reentryAtStart(deps, paths, sid, input.transcript_path, previous);
    markCompaction(deps, paths, sid, digest?.given ?? false);
    notes.push(REENTRY_NOTE);
    if (digest) notes.push(digest.text);
    lastWords = { at: notes.length, words: reentryLastWords(deps, paths, sid) };
  }
  // A session killed without SessionEnd gets the snapshot it missed (before the listing: the
  // startup line below offers it like any session-end snapshot).
  const recovered =
    input.source === "compact"
      ? null
      : tryRecoverKilledSession(deps, paths, sid, input.cwd ?? deps.cwd, deps.now().getTime());
  // One listing of the memory folder serves the sweep and the banner ([] when there is no folder).
  const sentinels = listSentinelFiles(deps.fs, paths.memory);
  const swept = runCleanup(deps.fs, paths, deps.now(), {
    currentSessionId: sid,
    sentinelWindowDays: knobs.QUOIN_RESTORE_SENTINEL_WINDOW,
    checkpointWindowDays: null,
    trashDays: null,
    dryRun: false,
    sentinelFiles: sentinels,
  });
  const moved = new Set(swept.sentinels);
  const clientPid = sid ? noteSessionProcess(deps, sid, input.cwd ?? deps.cwd) : null;
  const config = claudeConfigDir(deps.env, deps.home);
  const banner = chooseBanner(
    deps,
    paths,
    sid,
    sentinels.filter((s) => !moved.has(s.path)),
    (s) => referenceTakenBy(deps, config, s),
  );
  if (banner?.kind === "reference" && sid)
    markReferenceTaken(deps, config, banner.sentinel, sid, sentinels);
  if (banner) notes.push(banner.text);
  const line =
    banner && input.source !== "clear" ? null : sessionEndLine(deps, paths, sid, input.source);
  if (line) notes.push(line.context);
  if (recovered && !line?.context.includes(recovered.checkpoint))
    notes.push(recoveredText(recovered));
  // Resume and fork (2.1.332): the fork's parent and its checkpoint, the re-cache figures.
  const started = forkAndResumeNotes(deps, paths, input, knobs, {
    sid,
    configDir: config,
    clientPid,
  });
  for (const n of started) notes.push(n.context);
  // The last words go after the digest, only where the whole note stays within its budget.
  const words =
    lastWords && fitLastWords(lastWords.words, NOTE_BUDGET - notes.join("\n").length - 1);
  if (lastWords && words) notes.splice(lastWords.at, 0, words);
  // One line for the person: the cleared session's fate or the last session's, else the banner's.
  const message = line?.person ?? (banner ? bannerLine(banner.facts) : started.at(-1)?.person);
  return notes.length ? contextAnswer(EVENT, notes.join("\n"), message) : null;
}

/** How old a session-end snapshot may be for the startup line. */
const LAST_SESSION_LINE_MAX_AGE_MS = DAY_MS;

/**
 * After /clear, what became of the cleared session (clear-handoff.ts); at startup when no banner
 * applies, the newest session-end snapshot of another session under a day old.
 */
function sessionEndLine(
  deps: Deps,
  paths: MemoryPaths,
  sid: string | null,
  source: string | undefined,
): Note | null {
  if (source === "clear")
    return clearNotice(deps, claudeConfigDir(deps.env, deps.home), paths.root, sid);
  if (source !== "startup") return null;
  const snap = newestSessionEndSnapshot(deps, paths, sid, LAST_SESSION_LINE_MAX_AGE_MS);
  if (!snap?.savedMs) return null;
  return lastSessionNote({
    task: reduceTaskName(snap.task),
    agoMs: deps.now().getTime() - snap.savedMs,
    file: snap.file,
  });
}
