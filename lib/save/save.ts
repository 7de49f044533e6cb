import {
  done,
  finish,
  ledger,
  startRun,
  type SaveOutcome,
  type SaveRequest,
  type SaveRun,
} from "./save-run.ts";
import {
  askForMode,
  cleanupBeforeWrite,
  compactAlreadyRan,
  needsMode,
  panicSave,
  saveUtilization,
} from "./save-checks.ts";
import { withFrozenClock, type Deps } from "../core/deps.ts";
import { capOf, renderCheckpoint } from "../store/checkpoint-format.ts";
import { voluntaryCheckpointName } from "../store/checkpoint-names.ts";
import { asciiBody } from "../core/ascii-text.ts";
import { createUnique } from "../core/atomic-write.ts";
import { statusText } from "../store/checkpoint-status.ts";
import { appendRecentSession } from "../store/recent-sessions.ts";
import { gatherCheckpoint } from "./save-gather.ts";
import { saveReport } from "./save-report.ts";
import { refusedSentinelWarning, writeModeSentinel, type SaveMode } from "./save-sentinel.ts";
import { skillWithPid } from "../store/pidfile.ts";
import { checkpointIdentity } from "./checkpoint-identity.ts";
import { otherActiveSkills } from "./skill-presence.ts";
import { ownPendingRestore } from "../store/pending-restore.ts";
import { CHECKPOINT_SOFT_CAP_BYTES, describeCuts } from "../store/checkpoint-budget.ts";
import { nothingToSave } from "./save-from-nothing.ts";

const SOFT_CAP_BYTES = CHECKPOINT_SOFT_CAP_BYTES;

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
  const { text: body, cuts, limit } = renderCheckpoint(gathered.data, asciiBody);
  const savedAt = gathered.data.savedAt;
  const checkpoint = createUnique(
    deps.fs,
    paths.checkpoints,
    (n) => voluntaryCheckpointName(savedAt, task, n),
    body,
    { mode: 0o600, pid: deps.pid },
  );
  const bytes = Buffer.byteLength(body);
  // the cap that applies: the 4 KB soft cap plus what the handover's own lines (work items,
  // closed items, fixes) took beyond it, or the 6 KB hard cap
  const cap = Math.max(capOf(gathered.data), limit);
  if (bytes > cap) {
    const plus = cap - SOFT_CAP_BYTES;
    const name =
      plus >= 2048
        ? "6 KB hard cap"
        : `4 KB soft cap${plus ? ` (plus ${plus} bytes of work items)` : ""}`;
    warnings.push(
      `[quoin checkpoint] WARNING: checkpoint file ${checkpoint} exceeds ${name} (${bytes} bytes) - paths-not-content rule may be violated; check for accidentally-included content.`,
    );
  }
  const cut = describeCuts(cuts);
  if (cut)
    warnings.push(
      `[checkpoint] cut to fit the 6 KB cap: ${cut} (each field kept its first lines; a shorter document keeps them all)`,
    );
  return { checkpoint, bytes, task };
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

/** Every step of the seed's save mode, in order (save steps 0.5, 1.4, 1.45, 1.5, 1.47, 1, 1.6, 2, 3/4a/4b/4c, 4, 5, 6). */
export function runSave(rawDeps: Deps, req: SaveRequest): SaveOutcome {
  return nothingToSave(rawDeps, req) ?? saveKnown(rawDeps, req);
}

function saveKnown(rawDeps: Deps, req: SaveRequest): SaveOutcome {
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
