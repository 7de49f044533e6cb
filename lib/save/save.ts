import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import type { CommitRef, NextUp } from "../store/checkpoint-format.ts";
import { parseCheckpoint, renderCheckpoint } from "../store/checkpoint-format.ts";
import { voluntaryCheckpointName } from "../store/checkpoint-names.ts";
import { cleanupSummary, runCleanup, type CleanupResult } from "./cleanup-sweep.ts";
import { measureUtilization, type Utilization } from "../context/context-utilization.ts";
import { appendLedgerRow, ledgerRow } from "../store/cost-ledger.ts";
import { createUnique } from "../core/atomic-write.ts";
import type { Knobs } from "../core/knobs.ts";
import { isManualPrecompactStatus } from "../store/checkpoint-status.ts";
import { appendRecentSession } from "../store/recent-sessions.ts";
import { gatherCheckpoint, resolveTask, type GatherInput } from "./save-gather.ts";
import { compactAlreadyRanReport, panicReport, saveReport } from "./save-report.ts";
import { refusedSentinelWarning, writeModeSentinel, type SaveMode } from "./save-sentinel.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { cheapTaskName, writeSkeletonCheckpoint } from "./skeleton-save.ts";
import { describeSkills, otherActiveSkills, releaseCheckpointPidfile } from "./skill-presence.ts";
import { utcDate } from "../core/time-format.ts";
import { trashIfPresent } from "../core/trash.ts";
import { ownPendingRestore } from "../store/pending-restore.ts";

export const SOFT_CAP_BYTES = 4096;

export interface SaveRequest extends GatherInput {
  /** why sessionId is null, for the warning */
  sessionUnavailable?: string;
  /** --mode; null when not passed (auto-detect) */
  mode: SaveMode | null;
  /** the deprecated --after-compact flag (step 0.5) */
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
}

export type SaveOutcome = SaveDone | SaveRefused;

function writtenByManualCompact(deps: Deps, checkpoint: string): boolean {
  try {
    return isManualPrecompactStatus(parseCheckpoint(deps.fs.readFileSync(checkpoint, "utf8") as string).status);
  } catch {
    return false;
  }
}

function ledger(deps: Deps, req: SaveRequest, task: string, note: string, warnings: string[]): string | null {
  try {
    return appendLedgerRow(deps.fs, req.paths.root, task, ledgerRow(req.sessionId, deps.now(), note));
  } catch (err) {
    warnings.push(`[checkpoint] WARNING: cost-ledger row not written: ${(err as Error).message}`);
    return null;
  }
}

/**
 * Step 6: release the pidfile; a full save also expires this session's defer marker (the skip and
 * panic paths of steps 1.4 and 1.45 only release the pidfile, as in the seed).
 */
function finish(deps: Deps, req: SaveRequest, expireDefer: boolean): void {
  releaseCheckpointPidfile(deps, req.paths, req.sessionId);
  if (expireDefer && req.sessionId) trashIfPresent(deps.fs, sentinelPath(req.paths.memory, "checkpoint-defer", req.sessionId), req.paths.memory, deps.now());
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

/** Every step of the seed's save mode, in order (steps 1.4, 1.45, 1.47, 1.5, 1, 1.6, 2, 3/4a/4b/4c, 4, 5, 6). */
export function runSave(deps: Deps, req: SaveRequest): SaveOutcome {
  const { paths, knobs } = req;
  const sid = req.sessionId;
  const warnings: string[] = [];
  if (!sid) warnings.push(`[checkpoint] WARNING: ${req.sessionUnavailable ?? "session UUID unavailable"}`);
  // Nested-root warning: the save goes to the resolved root, not the launch folder.
  if (req.launchCwd !== paths.root && deps.fs.existsSync(path.join(req.launchCwd, ".workflow_artifacts"))) {
    warnings.push(
      `[checkpoint] WARNING: nested .workflow_artifacts/ detected at ${req.launchCwd}; writing session state to project root ${paths.root} instead. Remove ${req.launchCwd}/.workflow_artifacts/ to eliminate this confusion.`,
    );
  }
  const info: string[] = [];
  // Step 0.5: --after-compact is deprecated; it only clears the legacy marker and skips steps 1.4 and 1.45.
  if (req.afterCompact) {
    info.push("[checkpoint] --after-compact flag is deprecated; it now has no effect - compact-already-ran detection is automatic via the compact-happened sentinel. Proceeding to normal save.");
    if (sid) trashIfPresent(deps.fs, sentinelPath(paths.memory, "checkpoint-pending-compact", sid), paths.memory, deps.now());
  }
  const autoDetect = req.mode === null && !req.afterCompact;

  // Step 1.4: compact already ran (both sentinels). Only on the auto-detect path, as in the seed.
  if (autoDetect) {
    if (!sid) {
      warnings.push("[checkpoint] WARNING: session UUID unavailable for compact-happened check; skipping skip-path");
    } else {
      const pending = deps.fs.existsSync(sentinelPath(paths.memory, "compact-happened", sid)) ? ownPendingRestore(deps, paths, sid) : null;
      // NOTE: the seed's precompact saved on auto only, so after a manual /compact step 1.4 let the
      // user's save run. Here precompact saves on manual too; its skeleton must not stand in for it.
      if (pending?.checkpoint && !writtenByManualCompact(deps, pending.checkpoint)) {
        const led = ledger(deps, req, cheapTaskName(deps, paths), "skip (compact-already-ran)", warnings);
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
      // Both sentinels, but the checkpoint is gone (or never was inside checkpoints/): skipping would
      // leave this session's place unsaved, so save; the new sentinel replaces the dangling one.
      if (pending) {
        warnings.push(
          `[checkpoint] WARNING: compact-happened and ${path.basename(pending.sentinel)} exist, but the checkpoint it names is missing or outside checkpoints/; saving normally`,
        );
      }
    }
  }

  // Utilization (steps 1.45, 1.47 and 1.5 A); unreadable counts as 0, as in the seed.
  const utilization = req.transcriptPath
    ? measureUtilization({ fs: deps.fs, transcriptPath: req.transcriptPath, knobs, memoryDir: paths.memory, sessionId: sid ?? undefined })
    : null;
  const bps = utilization?.bps ?? 0;

  // Step 1.45: panic tier: a skeleton checkpoint and pending-restore only, from cheap sources.
  if (autoDetect && utilization && bps >= knobs.QUOIN_PANIC_BPS) {
    const saved = writeSkeletonCheckpoint(deps, {
      paths,
      sessionId: sid,
      launchCwd: req.launchCwd,
      status: "checkpoint save (panic mode)",
      shape: "voluntary",
      writeSentinel: true,
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
      report: panicReport(utilization, knobs.QUOIN_PANIC_BPS, saved.checkpoint, saved.sentinel),
    });
  }

  // Step 1.5 B: other skills running. Checked before anything is written, so that asking the user
  // for a mode leaves no trace; the skill calls again with --mode.
  const skills = otherActiveSkills(deps, paths, sid);
  const activeSkills = skills.map((s) => `${s.skill} (pid ${s.pid})`);
  if (req.mode === null && skills.length > 0) {
    return {
      ok: false,
      needsMode: true,
      activeSkills,
      reason: `active skills detected: ${describeSkills(skills)}; ask the user and call again with --mode mid-agent (minimal sentinel only) or --mode restore|load-as-reference`,
    };
  }
  const mode: SaveMode = req.mode ?? "restore";

  // Step 1.47: auto-cleanup before the write, unless --no-cleanup, mid-agent or high use.
  let cleanup: CleanupResult | null = null;
  let cleanupLine: string;
  const skip = req.noCleanup
    ? "--no-cleanup"
    : mode === "mid-agent"
      ? "mid-agent"
      : bps >= knobs.QUOIN_PANIC_BPS
        ? "panic"
        : bps >= knobs.QUOIN_COMPACT_FIRST_BPS
          ? "high-util"
          : null;
  if (skip) {
    cleanupLine = `[checkpoint] cleanup skipped (${skip})`;
  } else {
    cleanup = runCleanup(deps.fs, paths, deps.now(), {
      currentSessionId: sid,
      sentinelWindowDays: knobs.QUOIN_CLEANUP_SENTINEL_WINDOW,
      checkpointWindowDays: knobs.QUOIN_CLEANUP_CKPT_WINDOW,
      dryRun: false,
    });
    cleanupLine = cleanupSummary(paths, cleanup, utcDate(deps.now()));
  }
  const highUtil = utilization !== null && bps >= knobs.QUOIN_COMPACT_FIRST_BPS ? utilization : null;

  let checkpoint: string | null = null;
  let bytes: number | null = null;
  let task: string;
  if (mode === "mid-agent") {
    // Step 4c: no gathering, no checkpoint file, session-state untouched.
    const resolved = resolveTask(req.task, undefined);
    if (resolved.warning) warnings.push(resolved.warning);
    task = req.task ? resolved.task : cheapTaskName(deps, paths);
  } else {
    // Step 1: gather.
    const status = mode === "restore" ? "checkpoint save (voluntary)" : "checkpoint save (voluntary, load-as-reference)";
    const gathered = gatherCheckpoint(deps, { ...req, sessionId: sid }, status);
    info.push(...gathered.info);
    warnings.push(...gathered.warnings);
    task = gathered.data.task;
    // Step 1.6: recent-sessions.md (fail open).
    if (sid) {
      try {
        appendRecentSession(deps.fs, paths.recentSessions, deps.now(), sid);
      } catch (err) {
        warnings.push(`[checkpoint] WARNING: recent-sessions.md not updated: ${(err as Error).message}`);
      }
    }
    // Step 2: the checkpoint, created exclusively (a second save in the same minute gets -2).
    const body = renderCheckpoint(gathered.data);
    const now = gathered.data.savedAt;
    checkpoint = createUnique(deps.fs, paths.checkpoints, (n) => voluntaryCheckpointName(now, task, n), body, { mode: 0o600, pid: deps.pid });
    bytes = Buffer.byteLength(body);
    if (bytes > SOFT_CAP_BYTES) {
      warnings.push(
        `[quoin checkpoint] WARNING: checkpoint file ${checkpoint} exceeds 4 KB soft cap (${bytes} bytes) - paths-not-content rule may be violated; check for accidentally-included content.`,
      );
    }
  }

  // Steps 3, 4a, 4b, 4c: the sentinel for the mode, refused for an empty or unknown id.
  let sentinel: string | null = null;
  if (sid) {
    sentinel = writeModeSentinel(deps, paths, mode, { sid, checkpoint, task, activeSkills: activeSkills.join(", ") });
  } else {
    warnings.push(refusedSentinelWarning(mode));
  }

  // Step 4: the ledger row.
  const led = ledger(deps, req, task, `save (${mode} mode)`, warnings);

  // Step 6.
  finish(deps, req, true);

  const report = [
    ...info,
    cleanupLine,
    ...saveReport({ mode, checkpoint, sentinel, sid, activeSkills: activeSkills.join(", "), highUtil, compactFirstBps: knobs.QUOIN_COMPACT_FIRST_BPS }),
  ];
  if (req.afterCompact) report.push("Mode: --after-compact flag (deprecated; proceeded to normal save)");
  return done({ mode, checkpoint, sentinel, warnings, info, activeSkills, highUtil: highUtil !== null, utilization, cleanup, cleanupLine, ledger: led, bytes, report });
}
