import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { readHead } from "../core/file-range.ts";
import { titleOf } from "../store/checkpoint-sections.ts";
import { parseCheckpoint, type ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import { parseSentinelName } from "../store/sentinels.ts";
import {
  EMPTY_SESSION,
  listLines,
  rereadBytes,
  rereadList,
  resumeSession,
} from "./resume-session.ts";
import type { B3Synthesis } from "./b3-synthesis.ts";
import { checkpointKindLine } from "./checkpoint-kind-line.ts";
import { CHECKPOINT_READ_CAP, damageOf, shownHead } from "./checkpoint-damage.ts";
import { reconcile } from "./reconcile.ts";
import { isSameSession } from "./restore-picker.ts";
import type { PickerDecision } from "./picker-decision.ts";
import type { ReplayCase } from "./prompt-replay.ts";
import type { MemoryListing } from "./memory-listing.ts";
import type { RestoreRequest, Restored, ResumeSummary } from "./restore-outcome.ts";

// Restore steps 1.5 and 2 for what the picker chose: the checkpoint read and checked (a damaged
// one shown as it is), summarized, tested for the same session and reconciled with git; or the
// summary of a session-state synthesis.

const MANUAL_RECOVERY_HINT =
  "Manual recovery: please paste the checkpoint content above and I will reconstruct state.";

/**
 * Restore step 2: a checkpoint is damaged when it cannot be read, is empty, not a checkpoint or cut
 * short (checkpoint-damage.ts), or lacks its Active task or Branch.
 */
function checkCheckpointText(
  text: string,
  size: number,
): { ok: true; parsed: ParsedCheckpoint } | { ok: false; reason: string } {
  const damage = damageOf(text, size);
  if (damage) return { ok: false, reason: damage };
  const parsed = parseCheckpoint(text);
  if (!parsed.task) return { ok: false, reason: `no ## ${titleOf("task")}` };
  if (!parsed.branch) return { ok: false, reason: `no ## ${titleOf("branch")}` };
  return { ok: true, parsed };
}

function resumeLine(sid: string | null | undefined): string {
  if (sid === undefined) return "(not recorded in this checkpoint - legacy format)";
  if (sid === null) return "(session UUID was unavailable at save time)";
  return `claude --resume ${sid}`;
}

function checkpointSummary(
  deps: Deps,
  root: string,
  file: string,
  p: ParsedCheckpoint,
): ResumeSummary {
  const kind = checkpointKindLine(p.kind);
  const reread = rereadList(deps, root, p);
  return {
    kind: kind.kind,
    kindLine: kind.line,
    session: resumeSession(p),
    reread,
    rereadBytes: rereadBytes(deps, reread),
    source: "checkpoint",
    file,
    task: p.task ?? "(unknown)",
    branch: p.branch ?? "(unknown)",
    intent: p.intent ?? "(none recorded)",
    sessionId: p.sessionId ?? null,
    resume: resumeLine(p.sessionId),
    savedAt: p.savedAt,
    artifacts: p.artifactPaths,
    openQuestions: listLines(p.openQuestions),
  };
}

/** The summary of a session-state synthesis (B3): no transcript digest, no session to resume. */
export function synthesisSummary(b: B3Synthesis): ResumeSummary {
  return {
    source: "session-state",
    kind: "session-state",
    kindLine:
      "Checkpoint kind: none: synthesized from the session-state file (no transcript digest).",
    file: b.file,
    task: b.task,
    branch: b.branch,
    intent: b.intent,
    sessionId: null,
    resume: "(none: synthesized from session-state)",
    artifacts: [],
    openQuestions: listLines(b.openQuestions),
    session: EMPTY_SESSION,
    reread: [],
    rereadBytes: [],
  };
}

/** A restore on `path` with nothing read, asked or done yet. */
export function openRestored(path: string, warnings: string[], prompts: ReplayCase): Restored {
  return {
    action: "restore",
    done: false,
    needs: [],
    path,
    summary: null,
    sameSession: false,
    consumedSentinel: "",
    warnings,
    reconcile: null,
    prompts,
    replay: null,
    cleanup: null,
    ledger: null,
    rerun: [],
  };
}

/** Restore steps 1.5 and 2 for a picked checkpoint: read, check, summarize, reconcile; path 6 when corrupt. */
export function restoreCheckpoint(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  decision: Extract<PickerDecision, { action: "restore" }>,
): { out: Restored; preferSid: string | null } {
  const out = openRestored(decision.path, decision.warnings, { case: "A" });
  out.consumedSentinel = decision.consumedSentinelPath;
  const file = decision.candidate.file;
  let text: string | null = null;
  let size = 0;
  try {
    size = deps.fs.statSync(file).size;
    text = readHead(deps.fs, file, CHECKPOINT_READ_CAP);
    if (text === null) throw new Error("not a regular file it can open");
  } catch (err) {
    out.warnings.push(`[checkpoint] cannot read ${file}: ${(err as Error).message}`);
  }
  const checked =
    text === null
      ? ({ ok: false, reason: "unreadable" } as const)
      : checkCheckpointText(text, size);
  if (!checked.ok) {
    // Path 6 (a damaged file): its head shown with the manual-recovery hint and the other
    // checkpoints listed; no sentinel is consumed or trashed.
    out.path = "6";
    out.consumedSentinel = "";
    out.needs = ["manual-recovery"];
    out.corrupt = {
      file,
      reason: checked.reason,
      raw: shownHead(text ?? ""),
      hint: MANUAL_RECOVERY_HINT,
      others: decision.list.filter((c) => c.file !== file),
    };
    return { out, preferSid: null };
  }
  out.summary = checkpointSummary(deps, req.paths.root, file, checked.parsed);
  // Restore step 1.5, for every tier that resolved a checkpoint.
  out.sameSession = !req.sessionGuessed && isSameSession(snap, checked.parsed.sessionId);
  out.reconcile = reconcile(deps, req.paths.root, checked.parsed);
  const sentinel = decision.candidate.sentinel;
  const preferSid =
    checked.parsed.sessionId ??
    ((sentinel && parseSentinelName(path.basename(sentinel))?.sid) || null);
  return { out, preferSid };
}
