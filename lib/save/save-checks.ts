import { readTextByRule } from "../core/file-range.ts";
import {
  done,
  finish,
  ledger,
  type SaveDone,
  type SaveRefused,
  type SaveRequest,
  type SaveRun,
} from "./save-run.ts";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import { cleanupSummary, runCleanup, type CleanupResult } from "./cleanup-sweep.ts";
import { measureUtilization, type Utilization } from "../context/context-utilization.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { statusText } from "../store/checkpoint-status.ts";
import { compactAlreadyRanReport, panicReport } from "./save-report.ts";
import { refusedSentinelWarning, type SaveMode } from "./save-sentinel.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { checkpointIdentity } from "./checkpoint-identity.ts";
import { writeSnapshotCheckpoint } from "./snapshot-save.ts";
import { describeSkills } from "./skill-presence.ts";
import { utcDate } from "../core/time-format.ts";
import { settleOwnPendingRestore } from "../store/pending-restore.ts";

// The checks a save makes before it writes (save steps 1.4, 1.45, 1.47 and 1.5): compaction
// already ran, the panic tier, the sweep, and the mode question.

function writtenByManualCompact(deps: Deps, checkpoint: string): boolean {
  try {
    const { kind } = parseCheckpoint(readTextByRule(deps.fs, checkpoint));
    return kind.kind === "precompact" && kind.trigger === "manual";
  } catch {
    return false;
  }
}

/** Save step 1.4: compact already ran (both sentinels): the precompact checkpoint stands; null goes on to save. */
export function compactAlreadyRan(run: SaveRun): SaveDone | null {
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
export function panicSave(run: SaveRun, utilization: Utilization): SaveDone {
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
export function cleanupBeforeWrite(
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

/** The question between the two full modes (save step 1.5 C), with the --mode each answer means. */
const MODE_QUESTION = `AskUserQuestion "How would you like to save this checkpoint?": "Restore" (resume later; default: --mode restore) / "Load as reference" (read-only background: --mode load-as-reference)`;

/** Save step 1.5 B: other skills running. Checked before anything is written, so asking the user for a mode leaves no trace. */
export function needsMode(
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
export function askForMode(): SaveRefused {
  return {
    ok: false,
    needsMode: true,
    activeSkills: [],
    ask: MODE_QUESTION,
    reason:
      "no compaction, panic or running skill stops this save; ask the user (restore or load-as-reference) and call again with --mode M --asked",
  };
}

/** This session's context use (save steps 1.45, 1.47 and 1.5 A); null without a transcript. */
export function saveUtilization(deps: Deps, req: SaveRequest, sid: string | null) {
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
