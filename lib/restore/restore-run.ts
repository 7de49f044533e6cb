import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import { titleOf } from "../store/checkpoint-sections.ts";
import { parseCheckpoint, type ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import {
  EMPTY_SESSION,
  listLines,
  rereadList,
  resumeSession,
  type ResumeSession,
} from "./resume-session.ts";
import { appendLedgerRow, ledgerRow } from "../store/cost-ledger.ts";
import { withFrozenClock, type Deps } from "../core/deps.ts";
import { isUsableSessionId, reduceTaskName } from "../core/ids.ts";
import type { Knobs } from "../core/knobs.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { listRegistry, readRegistry, writeRegistry } from "../store/session-registry.ts";
import { freshestSessionState } from "./restore-gate.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import {
  applyReplaySelection,
  classifyPendingPrompts,
  promptKey,
  parseReplaySelection,
  type PendingPromptSource,
  type ReplayCase,
  type ReplayResult,
} from "./prompt-replay.ts";
import { reconcile, type Reconciliation } from "./reconcile.ts";
import {
  CHECKPOINT_WINDOW_DAYS,
  checkpointIndex,
  sentinelTarget,
  toCandidate,
} from "./restore-candidates.ts";
import {
  b3Key,
  isSameSession,
  pickFastPath,
  pickRestore,
  type PickerDecision,
  type PickerSettings,
} from "./restore-picker.ts";
import { cleanupAfterRestore, type CleanupReport } from "./restore-cleanup.ts";
import { buildMemoryListing, type MemoryListing } from "./memory-listing.ts";
import { parseSentinelName, sentinelPath } from "../store/sentinels.ts";
import type { B3Synthesis } from "./b3-synthesis.ts";
import { checkpointKindLine } from "./checkpoint-kind-line.ts";

export interface RestoreRequest {
  paths: MemoryPaths;
  /** "" when no session id could be resolved */
  sessionId: string;
  /** the id was only the newest transcript's: never claim the checkpoint is the person's own session */
  sessionGuessed?: boolean;
  pick?: number;
  synthesize?: boolean;
  /** the answer to "Replay which?", as typed */
  replay?: string;
  /** the user chose to proceed after the same-session warning */
  proceed?: boolean;
  /**
   * the user said no to the B3 (session-state) synthesis offer: remember it for that file, then
   * pick without it
   */
  declineSynthesis?: boolean;
}

export function pickerSettings(knobs: Knobs): PickerSettings {
  return {
    sentinelWindowDays: knobs.QUOIN_RESTORE_SENTINEL_WINDOW,
    staleDays: knobs.QUOIN_RESTORE_STALE_DAYS,
    fallbackWindowDays: knobs.QUOIN_SESSION_FALLBACK_WINDOW,
    dedupWindowDays: knobs.QUOIN_PICKER_DEDUP_WINDOW,
  };
}

/**
 * What the resumed session needs: the seed's restore step 2 summary, from a checkpoint or from B3
 * (the session-state synthesis).
 */
export interface ResumeSummary {
  source: "checkpoint" | "session-state";
  /** automatic (a hook's save: no notes of the model) or curated (/checkpoint) */
  kind: "automatic" | "curated" | "session-state";
  /** the brief's line saying so */
  kindLine: string;
  file: string;
  task: string;
  branch: string;
  intent: string;
  sessionId: string | null;
  /** `claude --resume <id>`, or why there is none */
  resume: string;
  savedAt?: string;
  artifacts: string[];
  openQuestions: string[];
  /** what the session was doing, from the checkpoint (the model's fields and the transcript digest) */
  session: ResumeSession;
  /** files to Read now: the artifacts, then the newest changed files that still exist (absolute) */
  reread: string[];
}

export type Need = "same-session" | "replay" | "manual-recovery";

export interface Restored {
  action: "restore";
  /** false: a question is open (needs); nothing was cleaned up or logged yet */
  done: boolean;
  needs: Need[];
  path: string;
  summary: ResumeSummary | null;
  sameSession: boolean;
  consumedSentinel: string;
  warnings: string[];
  reconcile: Reconciliation | null;
  prompts: ReplayCase;
  replay: Extract<ReplayResult, { ok: true }> | null;
  cleanup: CleanupReport | null;
  ledger: string | null;
  corrupt?: { file: string; reason: string; raw: string; hint: string };
  /** flags that reach this same checkpoint again, to repeat with the answers to `needs` */
  rerun: string[];
}

export type RestoreOutcome =
  | Restored
  | Exclude<
      PickerDecision,
      { action: "restore" } | { action: "invalid" } | { action: "synthesize"; confirmed: true }
    >
  | { action: "invalid"; reason: string };

const MANUAL_RECOVERY_HINT =
  "Manual recovery: please paste the checkpoint content above and I will reconstruct state.";
const RAW_CAP = 16_000;

/** Restore step 2: a checkpoint is corrupt when it cannot be read, holds NUL bytes, or lacks its Active task or Branch. */
function checkCheckpointText(
  text: string,
): { ok: true; parsed: ParsedCheckpoint } | { ok: false; reason: string } {
  if (text.includes("\u0000")) return { ok: false, reason: "binary content" };
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
  return {
    kind: kind.kind,
    kindLine: kind.line,
    session: resumeSession(p),
    reread: rereadList(deps, root, p),
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

function synthesisSummary(b: B3Synthesis): ResumeSummary {
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
  };
}

function readPendingPrompts(deps: Deps, snap: MemoryListing): PendingPromptSource[] {
  const out: PendingPromptSource[] = [];
  for (const p of snap.pendingPrompts) {
    try {
      out.push({
        file: p.path,
        sid: p.sid,
        mtimeMs: p.mtimeMs,
        text: readTextByRule(deps.fs, p.path),
      });
    } catch {
      // vanished or unreadable: nothing to replay from it
    }
  }
  return out;
}

function base(path: string, warnings: string[], prompts: ReplayCase): Restored {
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

/**
 * The checkpoint this session's own pending-restore names when it exists but Tier 1 could not parse
 * it (it fell through, so the user never saw it). NOTE: deviation: the seed's restore step 5 trashes this
 * session's sentinel on every successful restore; here it survives, as on the corrupt-file path.
 */
function ownSentinelUnparsed(snap: MemoryListing): string | null {
  if (!isUsableSessionId(snap.sessionId)) return null;
  const own = snap.pendingRestores.find((r) => r.sid === snap.sessionId);
  const target = own ? sentinelTarget(snap, checkpointIndex(snap), own) : null;
  return target && toCandidate(target, own!.path) === null ? target.path : null;
}

/**
 * B3 offers the user declined, from every session (registry kind "b3-declined"); with
 * `declineSynthesis` this answer is recorded first, for the file the offer was about.
 */
function declinedSyntheses(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  s: PickerSettings,
): Set<string> {
  const config = claudeConfigDir(deps.env, deps.home);
  const keys = new Set<string>();
  for (const sid of listRegistry(deps, config, "b3-declined")) {
    const files = readRegistry(deps, config, "b3-declined", sid)?.["files"];
    if (Array.isArray(files)) for (const k of files) if (typeof k === "string") keys.add(k);
  }
  const source = req.declineSynthesis ? freshestSessionState(snap, s.fallbackWindowDays) : null;
  if (source) {
    const key = b3Key(source.path, source.mtimeMs);
    keys.add(key);
    const owner = isUsableSessionId(req.sessionId) ? req.sessionId : "unknown-session";
    const mine = readRegistry(deps, config, "b3-declined", owner)?.["files"];
    const files = [
      ...new Set([
        ...(Array.isArray(mine) ? mine.filter((k): k is string => typeof k === "string") : []),
        key,
      ]),
    ].slice(-50);
    try {
      writeRegistry(deps, config, "b3-declined", owner, { files });
    } catch {
      // not recorded: the offer may come again next time; this run still skips it
    }
  }
  return keys;
}

/**
 * Restore step 1 (the picker): Tier 1 (this session's own pending-restore) on a first listing of
 * that sentinel alone, else the full picker.
 */
function pick(
  deps: Deps,
  knobs: Knobs,
  req: RestoreRequest,
): { decision: PickerDecision; snap: MemoryListing } {
  const now = deps.now();
  const answered = req.pick !== undefined || req.synthesize === true;
  // The common Tier 1 case returns without enumeration: when this session has a pending-restore,
  // a first listing reads only the checkpoint it names; the full one is built only if Tier 1 fails.
  const ownSentinel =
    isUsableSessionId(req.sessionId) &&
    deps.fs.existsSync(sentinelPath(req.paths.memory, "pending-restore", req.sessionId));
  if (ownSentinel && !answered) {
    const snap = buildMemoryListing(deps.fs, req.paths, req.sessionId, now, {
      checkpointWindowDays: 0,
      ownSentinelOnly: true,
    });
    const decision = pickFastPath(snap);
    if (decision) return { decision, snap };
  }
  const settings = pickerSettings(knobs);
  const snap = buildMemoryListing(deps.fs, req.paths, req.sessionId, now, {
    checkpointWindowDays: CHECKPOINT_WINDOW_DAYS,
    sentinelWindowDays: settings.sentinelWindowDays,
    headCachePid: deps.pid,
  });
  const declinedB3 = declinedSyntheses(deps, req, snap, settings);
  return {
    decision: pickRestore(snap, settings, {
      pick: req.pick,
      synthesize: req.synthesize,
      declinedB3,
    }),
    snap,
  };
}

/** Restore steps 1.5 and 2 for a picked checkpoint: read, check, summarize, reconcile; path 6 when corrupt. */
function restoreCheckpoint(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  decision: Extract<PickerDecision, { action: "restore" }>,
): { out: Restored; preferSid: string | null } {
  const out = base(decision.path, decision.warnings, { case: "A" });
  out.consumedSentinel = decision.consumedSentinelPath;
  const file = decision.candidate.file;
  let text: string | null = null;
  try {
    text = readTextByRule(deps.fs, file);
  } catch (err) {
    out.warnings.push(`[checkpoint] cannot read ${file}: ${(err as Error).message}`);
  }
  const checked =
    text === null ? ({ ok: false, reason: "unreadable" } as const) : checkCheckpointText(text);
  if (!checked.ok) {
    // Path 6 (a checkpoint that cannot be read): shown raw with the manual-recovery hint; no
    // sentinel is consumed or trashed.
    out.path = "6";
    out.consumedSentinel = "";
    out.needs = ["manual-recovery"];
    out.corrupt = {
      file,
      reason: checked.reason,
      raw: (text ?? "").slice(0, RAW_CAP),
      hint: MANUAL_RECOVERY_HINT,
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

/**
 * Prompts of another session's file that an earlier CASE C (another session's prompts) restore
 * replayed (registry kind "replayed").
 */
function replayedPrompts(deps: Deps, sid: string): Set<string> {
  if (!isUsableSessionId(sid)) return new Set();
  const rec = readRegistry(deps, claudeConfigDir(deps.env, deps.home), "replayed", sid);
  return new Set(
    Array.isArray(rec?.["prompts"])
      ? (rec["prompts"] as unknown[]).filter((k): k is string => typeof k === "string")
      : [],
  );
}

/**
 * After a CASE C replay the other session's file stays (it is not this session's to consume), so
 * what was replayed is recorded outside the repository and not offered again. Best effort.
 */
function recordReplayed(deps: Deps, out: Restored): void {
  if (out.prompts.case !== "C" || !out.replay || out.replay.trash) return;
  const sid = out.prompts.source.sid;
  const done = [...out.replay.replay, ...(out.replay.edit ? [out.replay.edit] : [])].map(promptKey);
  if (done.length === 0 || !isUsableSessionId(sid)) return;
  try {
    const prompts = [...new Set([...replayedPrompts(deps, sid), ...done])].slice(-200);
    writeRegistry(deps, claudeConfigDir(deps.env, deps.home), "replayed", sid, { prompts });
  } catch (err) {
    out.warnings.push(
      `[checkpoint] could not record the replayed prompts: ${(err as Error).message}`,
    );
  }
}

/** Restore step 4: pending-prompt rehydration; an answer that does not parse makes the whole call invalid. */
function replayStep(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  out: Restored,
  preferSid: string | null,
): { action: "invalid"; reason: string } | null {
  out.prompts = classifyPendingPrompts(
    readPendingPrompts(deps, snap),
    req.sessionId,
    preferSid,
    (sid) => replayedPrompts(deps, sid),
  );
  if (out.prompts.case === "A") return null;
  if (req.replay === undefined) {
    out.needs.push("replay");
    return null;
  }
  const parsed = parseReplaySelection(req.replay);
  if (!parsed.ok) return { action: "invalid", reason: parsed.reason };
  const result = applyReplaySelection(out.prompts, parsed.selection);
  if (!result.ok) return { action: "invalid", reason: `--replay ${result.reason}` };
  out.replay = result;
  return null;
}

/**
 * Restore step 5: sentinel cleanup (the six-path contract: which sentinel the pick consumed, if
 * any), then restore step 6: the ledger row.
 */
function finishRestore(
  deps: Deps,
  req: RestoreRequest,
  snap: MemoryListing,
  out: Restored,
): Restored {
  out.done = true;
  const unparsed = ownSentinelUnparsed(snap);
  if (unparsed)
    out.warnings.push(
      `[checkpoint] this session's pending-restore names ${unparsed}, which could not be parsed; the sentinel is kept`,
    );
  out.cleanup = cleanupAfterRestore(deps, req.paths, {
    sessionId: req.sessionId,
    keepOwn: unparsed !== null,
    consumedSentinelPath: out.consumedSentinel,
    pendingPromptFile:
      out.prompts.case !== "A" && out.replay?.trash ? out.prompts.source.file : null,
  });
  recordReplayed(deps, out);
  const task = reduceTaskName(out.summary?.task);
  try {
    out.ledger = appendLedgerRow(
      deps.fs,
      req.paths.root,
      task,
      ledgerRow(isUsableSessionId(req.sessionId) ? req.sessionId : null, deps.now(), "restore"),
    );
  } catch (err) {
    out.warnings.push(`[checkpoint] ledger row not written: ${(err as Error).message}`);
  }
  return out;
}

/** Restore mode end to end: picker, restore steps 1.5 and 2, reconciliation, step 4 replay, step 5 cleanup, step 6 ledger. */
export function runRestore(rawDeps: Deps, knobs: Knobs, req: RestoreRequest): RestoreOutcome {
  // The clock is read once per restore (see withFrozenClock).
  const deps = withFrozenClock(rawDeps);
  const { decision, snap } = pick(deps, knobs, req);
  if (decision.action === "invalid" || decision.action === "choose" || decision.action === "none")
    return decision;
  if (decision.action === "synthesize" && !decision.confirmed) return decision;

  let out: Restored;
  let preferSid: string | null = null;
  if (decision.action === "synthesize") {
    // Path 5: a session-state synthesis (B3) consumes no sentinel; current-session cleanup still
    // runs.
    out = base(decision.path, decision.warnings, { case: "A" });
    out.summary = synthesisSummary(decision.synthesis);
    out.warnings.push("[checkpoint] no in-flight artifacts to re-fire (session-state synthesis)");
  } else {
    ({ out, preferSid } = restoreCheckpoint(deps, req, snap, decision));
    if (out.corrupt) return out;
  }
  out.rerun = req.synthesize
    ? ["--synthesize"]
    : req.pick !== undefined
      ? ["--pick", String(req.pick)]
      : [];
  if (out.sameSession && !req.proceed) out.needs.push("same-session");
  const invalid = replayStep(deps, req, snap, out, preferSid);
  if (invalid) return invalid;
  if (out.needs.length > 0) return out;
  return finishRestore(deps, req, snap, out);
}
