import { allTakenLine, claimedBy, claimReplay } from "../store/prompt-claims.ts";
import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import { titleOf } from "../store/checkpoint-sections.ts";
import { parseCheckpoint, type ParsedCheckpoint } from "../store/checkpoint-parse.ts";
import { EMPTY_SESSION, listLines, rereadList, resumeSession } from "./resume-session.ts";
import { appendLedgerRow, ledgerRow } from "../store/cost-ledger.ts";
import { withFrozenClock, type Deps } from "../core/deps.ts";
import { isUsableSessionId, reduceTaskName } from "../core/ids.ts";
import type { Knobs } from "../core/knobs.ts";
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
} from "./prompt-replay.ts";
import { reconcile } from "./reconcile.ts";
import {
  CHECKPOINT_WINDOW_DAYS,
  checkpointIndex,
  sentinelTarget,
  toCandidate,
} from "./restore-candidates.ts";
import {
  b3Key,
  isSameSession,
  numberedList,
  pickerSettings,
  pickFastPath,
  pickRestore,
  type PickerDecision,
  type PickerSettings,
} from "./restore-picker.ts";
import { cleanupAfterRestore } from "./restore-cleanup.ts";
import { buildMemoryListing, type MemoryListing } from "./memory-listing.ts";
import { parseSentinelName, sentinelPath } from "../store/sentinels.ts";
import type { B3Synthesis } from "./b3-synthesis.ts";
import { checkpointKindLine } from "./checkpoint-kind-line.ts";
import { CHECKPOINT_READ_CAP, damageOf, shownHead } from "./checkpoint-damage.ts";
import { readHead } from "../core/file-range.ts";
import {
  NO_SURROUNDINGS,
  type RestoreDecision,
  type RestoreOutcome,
  type RestoreRequest,
  type Restored,
  type ResumeSummary,
} from "./restore-outcome.ts";
import { findMidAgentHandoff } from "../store/mid-agent-handoff.ts";
import { markRunningSessions } from "./running-sessions.ts";

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

/** `--pick N` past the local candidates: the shared checkpoint the picker numbered N, as its `sN`. */
function sharedAlias(req: RestoreRequest, snap: MemoryListing, s: PickerSettings): string | null {
  if (req.pick === undefined || !req.sharedSource) return null;
  const local = numberedList(snap, s).length;
  if (req.pick <= local) return null;
  return req.pick - local <= req.sharedSource.list().length ? `s${req.pick - local}` : null;
}

type Picked =
  | { decision: PickerDecision; snap: MemoryListing }
  | { sharedAlias: string; snap: MemoryListing };

/**
 * Restore step 1 (the picker): Tier 1 (this session's own pending-restore) on a first listing of that sentinel alone, else the
 * full picker; the full listing is built once, and a pick past its candidates names a shared one.
 */
function pick(deps: Deps, knobs: Knobs, req: RestoreRequest): Picked {
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
    // an explicit pick may name any file `list` numbers: every head is read (the head cache holds them)
    checkpointWindowDays:
      req.pick === undefined ? CHECKPOINT_WINDOW_DAYS : Number.POSITIVE_INFINITY,
    sentinelWindowDays: settings.sentinelWindowDays,
    headCachePid: deps.pid,
  });
  const alias = sharedAlias(req, snap, settings);
  if (alias) return { sharedAlias: alias, snap };
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
  const files = readPendingPrompts(deps, snap);
  out.prompts = classifyPendingPrompts(
    files,
    req.sessionId,
    preferSid,
    (sid) => replayedPrompts(deps, sid),
    claimedBy(deps, promptKey),
  );
  if (out.prompts.case === "A") {
    const taken = allTakenLine(deps, files, preferSid, promptKey);
    if (taken) out.warnings.push(taken);
    return null;
  }
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
  // Each held prompt is handed to one restore only, even when two run at once (prompt-claims.ts).
  if (out.prompts.case !== "A" && out.replay) {
    const mine = claimReplay(deps, out.prompts.source.file, out.replay, promptKey, req.sessionId);
    out.replay = { ...out.replay, replay: mine.replay, edit: mine.edit };
    if (mine.warning) out.warnings.push(mine.warning);
  }
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
function decide(deps: Deps, knobs: Knobs, req: RestoreRequest): Decided {
  const picked = pick(deps, knobs, req);
  if ("sharedAlias" in picked) return adoptAndRestore(deps, knobs, req, picked.sharedAlias);
  return { decision: decidePicked(deps, req, picked), adopted: null };
}

type Decided = { decision: RestoreDecision; adopted: string | null };

function decidePicked(
  deps: Deps,
  req: RestoreRequest,
  { decision, snap }: { decision: PickerDecision; snap: MemoryListing },
): RestoreDecision {
  if (decision.action === "invalid" || decision.action === "choose" || decision.action === "none")
    return decision;
  if (decision.action === "synthesize" && !decision.confirmed) return decision;

  let out: Restored;
  let preferSid: string | null = null;
  if (decision.action === "synthesize") {
    // Synthesis from a session-state file consumes no sentinel; current-session cleanup still runs.
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

/**
 * `--shared sN` (or a pick past the local rows): the shared checkpoint copied here and named by
 * this session's own sentinel, then restored by Tier 1 (the picker's look at that sentinel); a picked shared checkpoint asks no
 * same-session question.
 */
function adoptAndRestore(deps: Deps, knobs: Knobs, req: RestoreRequest, arg: string): Decided {
  const refused = (reason: string, expected: string): Decided => ({
    decision: { action: "invalid", reason, expected },
    adopted: null,
  });
  if (!isUsableSessionId(req.sessionId) || !req.sharedSource)
    return refused(
      "restore --shared needs this session's id",
      "--session ID (the skill passes it)",
    );
  const adopted = req.sharedSource.adopt(arg, req.sessionId);
  if (!adopted.ok) return refused(adopted.reason, adopted.expected);
  const { decision } = decide(deps, knobs, {
    ...req,
    pick: undefined,
    shared: undefined,
    proceed: true,
    sharedSource: undefined,
  });
  return { decision, adopted: adopted.file };
}

/** One restore, computed: the decision, running sessions marked, and what was found around it. */
export function runRestore(rawDeps: Deps, knobs: Knobs, req: RestoreRequest): RestoreOutcome {
  // The clock is read once per restore (see withFrozenClock).
  const deps = withFrozenClock(rawDeps);
  const { decision, adopted } = req.shared
    ? adoptAndRestore(deps, knobs, req, req.shared)
    : decide(deps, knobs, req);
  const marked = req.running ? markRunningSessions(decision, req.sessionId, req.running) : decision;
  const offered =
    marked.action === "choose" || marked.action === "synthesize"
      ? (req.sharedSource?.list() ?? [])
      : [];
  return {
    ...marked,
    ...NO_SURROUNDINGS,
    midAgentHandoff: findMidAgentHandoff(
      deps.fs,
      req.paths.memory,
      req.sessionId,
      deps.now().getTime(),
      knobs.QUOIN_RESTORE_SENTINEL_WINDOW,
    ),
    offeredShared: offered,
    sharedHint: marked.action === "none" ? sharedHint(req) : null,
    adoptedShared: adopted,
  };
}

/** With nothing to pick: the shared checkpoints fetched here, else whether the remote holds some. */
function sharedHint(req: RestoreRequest): RestoreOutcome["sharedHint"] {
  const source = req.sharedSource;
  if (!source) return null;
  const fetched = source.list().length;
  if (fetched > 0) return { fetched };
  const remote = source.remoteHolding();
  return remote ? { remote } : null;
}
