import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import type { CleanupResult } from "./cleanup-sweep.ts";
import type { Utilization } from "../context/context-utilization.ts";
import { appendLedgerRow, ledgerRow } from "../store/cost-ledger.ts";
import type { Knobs } from "../core/knobs.ts";
import type { GatherInput } from "./save-gather.ts";
import type { SaveMode } from "./save-sentinel.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { releaseCheckpointPidfile } from "./skill-presence.ts";
import { trashIfPresent } from "../core/trash.ts";

// One save's shared state and its outcome: the request, the one clock reading, the warnings
// and info lines so far, the ledger row and the release every path ends with.

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

export function ledger(
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
export function finish(deps: Deps, req: SaveRequest, expireDefer: boolean): void {
  releaseCheckpointPidfile(deps, req.paths, req.sessionId);
  if (expireDefer && req.sessionId)
    trashIfPresent(
      deps.fs,
      sentinelPath(req.paths.memory, "checkpoint-defer", req.sessionId),
      req.paths.memory,
      deps.now(),
    );
}

export function done(partial: Partial<SaveDone> & Pick<SaveDone, "mode" | "report">): SaveDone {
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
export interface SaveRun {
  /** deps whose clock is frozen at this save's one reading */
  deps: Deps;
  req: SaveRequest;
  sid: string | null;
  warnings: string[];
  info: string[];
}

/** The warnings of save step 0 and save step 0.5 (the deprecated --after-compact flag clears its legacy marker). */
export function startRun(deps: Deps, req: SaveRequest): SaveRun {
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
