import * as path from "node:path";
import { withFrozenClock, type Deps } from "../core/deps.ts";
import { capOf, renderCheckpoint } from "../store/checkpoint-format.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import { voluntaryCheckpointName } from "../store/checkpoint-names.ts";
import { cleanupSummary, runCleanup, type CleanupResult } from "./cleanup-sweep.ts";
import { measureUtilization, type Utilization } from "../context/context-utilization.ts";
import { appendLedgerRow, ledgerRow } from "../store/cost-ledger.ts";
import { asciiBody } from "../core/ascii-text.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { createUnique } from "../core/atomic-write.ts";
import type { Knobs } from "../core/knobs.ts";
import { statusText } from "../store/checkpoint-status.ts";
import { appendRecentSession } from "../store/recent-sessions.ts";
import { gatherCheckpoint, type GatherInput } from "./save-gather.ts";
import { compactAlreadyRanReport, panicReport, saveReport } from "./save-report.ts";
import { refusedSentinelWarning, writeModeSentinel, type SaveMode } from "./save-sentinel.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { skillWithPid } from "../store/pidfile.ts";
import { checkpointIdentity } from "./checkpoint-identity.ts";
import { writeSnapshotCheckpoint } from "./snapshot-save.ts";
import { describeSkills, otherActiveSkills, releaseCheckpointPidfile } from "./skill-presence.ts";
import { utcDate } from "../core/time-format.ts";
import { trashIfPresent } from "../core/trash.ts";
import { ownPendingRestore, settleOwnPendingRestore } from "../store/pending-restore.ts";
import { CHECKPOINT_SOFT_CAP_BYTES, describeCuts } from "../store/checkpoint-budget.ts";

const SOFT_CAP_BYTES = CHECKPOINT_SOFT_CAP_BYTES;

export interface SaveRequest extends GatherInput {
  /** why sessionId is null, for the warning */
  sessionUnavailable?: string;
  /** --mode; null when not passed (auto-detect) */
  mode: SaveMode | null;
  /** --ask-mode: with no --mode, stop after the checks (1.4, 1.45, mid-agent) so the skill asks the user */
  askMode?: boolean;
  /** --asked: --mode is the user's answer to that question, not an argument (the high-use notice applies) */
  modeAsked?: boolean;
  /** the deprecated --after-compact flag (save step 0.5) */
  afterCompact?: boolean;
  noCleanup: boolean;
  knobs: Knobs;
}

export type SaveKind = SaveMode | "panic" | "compact-already-ran";

export interface SaveDone {
  ok: true;
  mode: SaveKind;
  checkpoint: string | null;
  sentinel: string | null;
  warnings: string[];
  info: string[];
  activeSkills: string[];
  highUtil: boolean;
  utilization: Utilization | null;
  cleanup: CleanupResult | null;
  cleanupLine: string | null;
  ledger: string | null;
  bytes: number | null;
  report: string[];
}

export interface SaveRefused {
  ok: false;
  reason: string;
  /** set when the skill should ask the user for a mode and call again with --mode */
  needsMode?: boolean;
  activeSkills?: string[];
  /** with needsMode: the one question the skill asks, with the --mode each answer means */
  ask?: string;
}

export type SaveOutcome = SaveDone | SaveRefused;

function writtenByManualCompact(deps: Deps, checkpoint: string): boolean {
  try {
    const { kind } = parseCheckpoint(deps.fs.readFileSync(checkpoint, "utf8"));
    return kind.kind === "precompact" && kind.trigger === "manual";
  } catch {
    return false;
  }
}

function ledger(
  deps: Deps,
  req: SaveRequest,
  task: string,
  note: string,
  warnings: string[],
): string | null {
  try {
    return appendLedgerRow(
      deps.fs,
      req.paths.root,
      task,
      ledgerRow(req.sessionId, deps.now(), note),
    );
  } catch (err) {
    warnings.push(`[checkpoint] WARNING: cost-ledger row not written: ${(err as Error).message}`);
    return null;
  }
}

/**
 * Save step 6: release the pidfile; a full save also expires this session's defer marker (the skip and
 * panic paths of save steps 1.4 and 1.45 only release the pidfile, as in the seed).
 */
function finish(deps: Deps, req: SaveRequest, expireDefer: boolean): void {
  releaseCheckpointPidfile(deps, req.paths, req.sessionId);
  if (expireDefer && req.sessionId)
    trashIfPresent(
      deps.fs,
      sentinelPath(req.paths.memory, "checkpoint-defer", req.sessionId),
      req.paths.memory,
      deps.now(),
    );
}

function done(partial: Partial<SaveDone> & Pick<SaveDone, "mode" | "report">): SaveDone {
  return {
    ok: true,
    checkpoint: null,
    sentinel: null,
    warnings: [],
    info: [],
    activeSkills: [],
    highUtil: false,
    utilization: null,
    cleanup: null,
    cleanupLine: null,
    ledger: null,
    bytes: null,
    ...partial,
  };
}

/** What every step of one save shares: the request, the one clock reading, and the lines so far. */
interface SaveRun {
  /** deps whose clock is frozen at this save's one reading */
  deps: Deps;
  req: SaveRequest;
  sid: string | null;
  warnings: string[];
  info: string[];
}

/** The warnings of save step 0 and save step 0.5 (the deprecated --after-compact flag clears its legacy marker). */
function startRun(deps: Deps, req: SaveRequest): SaveRun {
  const { paths } = req;
  const sid = req.sessionId;
  const run: SaveRun = { deps, req, sid, warnings: [], info: [] };
  if (!sid)
    run.warnings.push(
      `[checkpoint] WARNING: ${req.sessionUnavailable ?? "session UUID unavailable"}`,
    );
  // Nested-root warning: the save goes to the resolved root, not the launch folder.
  if (
    req.launchCwd !== paths.root &&
    deps.fs.existsSync(path.join(req.launchCwd, ".workflow_artifacts"))
  ) {
    run.warnings.push(
      `[checkpoint] WARNING: nested .workflow_artifacts/ detected at ${req.launchCwd}; writing session state to project root ${paths.root} instead. Remove ${req.launchCwd}/.workflow_artifacts/ to eliminate this confusion.`,
    );
  }
  if (req.afterCompact) {
    run.info.push(
      "[checkpoint] --after-compact flag is deprecated; it now has no effect - compact-already-ran detection is automatic via the compact-happened sentinel. Proceeding to normal save.",
    );
    if (sid)
      trashIfPresent(
        deps.fs,
        sentinelPath(paths.memory, "checkpoint-pending-compact", sid),
        paths.memory,
        deps.now(),
      );
  }
  return run;
}

/** Save step 1.4: compact already ran (both sentinels): the precompact checkpoint stands; null goes on to save. */
function compactAlreadyRan(run: SaveRun): SaveDone | null {
  const { deps, req, sid, warnings, info } = run;
  const { paths } = req;
  if (!sid) {
    warnings.push(
      "[checkpoint] WARNING: session UUID unavailable for compact-happened check; skipping skip-path",
    );
    return null;
  }
  if (!deps.fs.existsSync(sentinelPath(paths.memory, "compact-happened", sid))) return null;
  const { held: pending, trashed } = settleOwnPendingRestore(deps, paths, sid, deps.now());
  // Both sentinels, but the checkpoint is gone (or never was inside checkpoints/): skipping would
  // leave this session's place unsaved, so save; the dangling sentinel went to trash/.
  if (trashed) {
    warnings.push(
      `[checkpoint] WARNING: compact-happened and pending-restore-${sid}.txt exist, but the checkpoint it names is missing or outside checkpoints/; moved it to trash/ and saving normally`,
    );
  }
  // NOTE: the seed's precompact saved on auto only, so after a manual /compact save step 1.4 let the
  // user's save run. Here precompact saves on manual too; its skeleton must not stand in for it.
  if (pending && !writtenByManualCompact(deps, pending.checkpoint)) {
    const { task } = checkpointIdentity(deps, paths, { sessionId: sid, digest: req.digest });
    const led = ledger(deps, req, task, "skip (compact-already-ran)", warnings);
    finish(deps, req, false);
    return done({
      mode: "compact-already-ran",
      checkpoint: pending.checkpoint,
      sentinel: pending.sentinel,
      warnings,
      info,
      ledger: led,
      report: compactAlreadyRanReport(pending.checkpoint),
    });
  }
  if (pending) {
    info.push(
      `[checkpoint] ${path.basename(pending.checkpoint)} was written by PreCompact for a manual /compact; it does not stand in for this save, which goes ahead and replaces it as the one to restore.`,
    );
  }
  return null;
}

/** Save step 1.45: panic tier: a skeleton checkpoint with the transcript digest, and pending-restore. */
function panicSave(run: SaveRun, utilization: Utilization): SaveDone {
  const { deps, req, sid, warnings, info } = run;
  const saved = writeSnapshotCheckpoint(deps, {
    paths: req.paths,
    transcriptPath: req.transcriptPath,
    sessionId: sid,
    launchCwd: req.launchCwd,
    status: statusText({ kind: "panic" }),
    shape: "voluntary",
    writeSentinel: true,
    // The panic tier writes from cheap sources only: no git process; commits marked unchecked.
    gitCheck: { git: false },
  });
  if (!sid) warnings.push(refusedSentinelWarning("restore"));
  const led = ledger(deps, req, saved.task, "save (panic mode)", warnings);
  finish(deps, req, false);
  return done({
    mode: "panic",
    info,
    checkpoint: saved.checkpoint,
    sentinel: saved.sentinel,
    warnings,
    utilization,
    highUtil: true,
    ledger: led,
    report: panicReport(utilization, req.knobs.QUOIN_PANIC_BPS, saved.checkpoint, saved.sentinel),
  });
}

/** Why save step 1.47 does not sweep, or null when it does. */
function cleanupSkipReason(req: SaveRequest, mode: SaveMode, bps: number): string | null {
  if (req.noCleanup) return "--no-cleanup";
  if (mode === "mid-agent") return "mid-agent";
  if (bps >= req.knobs.QUOIN_PANIC_BPS) return "panic";
  if (bps >= req.knobs.QUOIN_COMPACT_FIRST_BPS) return "high-util";
  return null;
}

/** Save step 1.47: auto-cleanup before the write, unless --no-cleanup, mid-agent or high use. */
function cleanupBeforeWrite(
  run: SaveRun,
  mode: SaveMode,
  bps: number,
): { cleanup: CleanupResult | null; line: string } {
  const { deps, req, sid } = run;
  const skip = cleanupSkipReason(req, mode, bps);
  if (skip) return { cleanup: null, line: `[checkpoint] cleanup skipped (${skip})` };
  const now = deps.now();
  const cleanup = runCleanup(deps.fs, req.paths, now, {
    currentSessionId: sid,
    sentinelWindowDays: req.knobs.QUOIN_CLEANUP_SENTINEL_WINDOW,
    checkpointWindowDays: req.knobs.QUOIN_CLEANUP_CKPT_WINDOW,
    trashDays: req.knobs.QUOIN_TRASH_DAYS,
    dryRun: false,
  });
  return { cleanup, line: cleanupSummary(req.paths, cleanup, utcDate(now)) };
}

interface Written {
  checkpoint: string | null;
  bytes: number | null;
  task: string;
}

/** Save step 4c: no gathering, no checkpoint file, session-state untouched; the task as every writer names it. */
function midAgentTask(run: SaveRun): Written {
  const id = checkpointIdentity(run.deps, run.req.paths, {
    sessionId: run.sid,
    task: run.req.task,
    digest: run.req.digest,
  });
  if (id.taskWarning) run.warnings.push(id.taskWarning);
  return { checkpoint: null, bytes: null, task: id.task };
}

/** Save steps 1, 1.6 and 2: gather, record the session in recent-sessions.md, write the checkpoint. */
function writeCheckpoint(run: SaveRun, mode: "restore" | "load-as-reference"): Written {
  const { deps, req, sid, warnings, info } = run;
  const { paths } = req;
  // Save step 1: gather.
  const status = statusText({ kind: "voluntary", reference: mode === "load-as-reference" });
  const gathered = gatherCheckpoint(deps, { ...req, sessionId: sid }, status);
  info.push(...gathered.info);
  warnings.push(...gathered.warnings);
  const task = gathered.data.task;
  // Save step 1.6: recent-sessions.md (fail open).
  if (sid) {
    try {
      appendRecentSession(deps.fs, paths.recentSessions, deps.now(), sid, deps.pid);
    } catch (err) {
      warnings.push(
        `[checkpoint] WARNING: recent-sessions.md not updated: ${(err as Error).message}`,
      );
    }
  }
  // Save step 2: the checkpoint, created exclusively (a second save in the same minute gets -2).
  const { text: body, cuts } = renderCheckpoint(gathered.data, asciiBody);
  const savedAt = gathered.data.savedAt;
  const checkpoint = createUnique(
    deps.fs,
    paths.checkpoints,
    (n) => voluntaryCheckpointName(savedAt, task, n),
    body,
    { mode: 0o600, pid: deps.pid },
  );
  const bytes = Buffer.byteLength(body);
  const cap = capOf(gathered.data);
  if (bytes > cap) {
    warnings.push(
      `[quoin checkpoint] WARNING: checkpoint file ${checkpoint} exceeds ${cap === SOFT_CAP_BYTES ? "4 KB soft cap" : "6 KB hard cap"} (${bytes} bytes) - paths-not-content rule may be violated; check for accidentally-included content.`,
    );
  }
  const cut = describeCuts(cuts);
  if (cut)
    warnings.push(
      `[checkpoint] cut to fit the 6 KB cap: ${cut} (each field kept its first lines; a shorter document keeps them all)`,
    );
  return { checkpoint, bytes, task };
}

/** The question between the two full modes (save step 1.5 C), with the --mode each answer means. */
const MODE_QUESTION = `AskUserQuestion "How would you like to save this checkpoint?": "Restore" (resume later; default: --mode restore) / "Load as reference" (read-only background: --mode load-as-reference)`;

/** Save step 1.5 B: other skills running. Checked before anything is written, so asking the user for a mode leaves no trace. */
function needsMode(
  activeSkills: string[],
  skills: Parameters<typeof describeSkills>[0],
): SaveRefused {
  return {
    ok: false,
    needsMode: true,
    activeSkills,
    ask: `AskUserQuestion "Active skills detected: ${activeSkills.join(", ")}. Save in mid-agent mode (minimal sentinel only)?": "Yes, save mid-agent" (--mode mid-agent) / "Choose different mode" (then ${MODE_QUESTION})`,
    reason: `active skills detected: ${describeSkills(skills)}; ask the user and call again with --mode mid-agent (minimal sentinel only) or --mode restore|load-as-reference`,
  };
}

/**
 * Save step 1.5 C: the checks passed and nothing is written; the skill asks restore or
 * load-as-reference. No running skill (the checkpoint skill's own pidfile is none): no mid-agent question.
 */
function askForMode(): SaveRefused {
  return {
    ok: false,
    needsMode: true,
    activeSkills: [],
    ask: MODE_QUESTION,
    reason:
      "no compaction, panic or running skill stops this save; ask the user (restore or load-as-reference) and call again with --mode M --asked",
  };
}

/** Every step of the seed's save mode, in order (save steps 0.5, 1.4, 1.45, 1.5, 1.47, 1, 1.6, 2, 3/4a/4b/4c, 4, 5, 6). */
function saveUtilization(deps: Deps, req: SaveRequest, sid: string | null) {
  if (!req.transcriptPath) return null;
  const configDir = claudeConfigDir(deps.env, deps.home);
  return measureUtilization({
    deps,
    transcriptPath: req.transcriptPath,
    knobs: req.knobs,
    configDir,
    projectRoot: req.paths.root,
    sessionId: sid ?? undefined,
  });
}

/** Save steps 3, 4a, 4b, 4c: the sentinel for the mode, refused for an empty or unknown id. */
function modeSentinel(
  run: SaveRun,
  mode: SaveMode,
  fields: { checkpoint: string | null; task: string; activeSkills: string },
): string | null {
  if (run.sid) return writeModeSentinel(run.deps, run.req.paths, mode, { sid: run.sid, ...fields });
  run.warnings.push(refusedSentinelWarning(mode));
  return null;
}

export function runSave(rawDeps: Deps, req: SaveRequest): SaveOutcome {
  // The clock is read once per save (see withFrozenClock).
  const deps = withFrozenClock(rawDeps);
  const run = startRun(deps, req);
  const { paths, knobs } = req;
  const { sid, warnings, info } = run;
  const autoDetect = req.mode === null && !req.afterCompact;

  if (autoDetect) {
    const skipped = compactAlreadyRan(run);
    if (skipped) return skipped;
  }

  // Utilization (save steps 1.45, 1.47 and 1.5 A); unreadable counts as 0, as in the seed.
  const utilization = saveUtilization(deps, req, sid);
  const bps = utilization?.bps ?? 0;
  if (autoDetect && utilization && bps >= knobs.QUOIN_PANIC_BPS) return panicSave(run, utilization);

  const skills = otherActiveSkills(deps, paths, sid);
  const activeSkills = skills.map(skillWithPid);
  if (req.mode === null && skills.length > 0) return needsMode(activeSkills, skills);
  if (req.mode === null && req.askMode) return askForMode();
  const mode: SaveMode = req.mode ?? "restore";

  const { cleanup, line: cleanupLine } = cleanupBeforeWrite(run, mode, bps);
  // The notice is for a save whose mode was left to the engine (seed step 1.5 A), not an explicit --mode.
  const highUtil =
    (req.mode === null || req.modeAsked === true) &&
    utilization !== null &&
    bps >= knobs.QUOIN_COMPACT_FIRST_BPS
      ? utilization
      : null;
  const { checkpoint, bytes, task } =
    mode === "mid-agent" ? midAgentTask(run) : writeCheckpoint(run, mode);

  const sentinel = modeSentinel(run, mode, {
    checkpoint,
    task,
    activeSkills: activeSkills.join(", "),
  });

  // Save step 4: the ledger row; save step 6: release.
  const led = ledger(deps, req, task, `save (${mode} mode)`, warnings);
  finish(deps, req, true);

  const report = [
    ...info,
    cleanupLine,
    ...saveReport({
      mode,
      checkpoint,
      sentinel,
      sid,
      activeSkills: activeSkills.join(", "),
      highUtil,
      compactFirstBps: knobs.QUOIN_COMPACT_FIRST_BPS,
      // PreCompact keeps a pending-restore that names an existing checkpoint and writes none of its own.
      precompactSkips: sid !== null && ownPendingRestore(deps, paths, sid)?.checkpoint != null,
    }),
    ...(req.afterCompact
      ? ["Mode: --after-compact flag (deprecated; proceeded to normal save)"]
      : []),
  ];
  return done({
    mode,
    checkpoint,
    sentinel,
    warnings,
    info,
    activeSkills,
    highUtil: highUtil !== null,
    utilization,
    cleanup,
    cleanupLine,
    ledger: led,
    bytes,
    report,
  });
}
