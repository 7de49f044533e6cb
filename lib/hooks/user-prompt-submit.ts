import type { Deps } from "../core/deps.ts";
import type { Knobs } from "../core/knobs.ts";
import { readTextOrNull } from "../core/file-range.ts";
import { measureUtilization, type Utilization } from "../context/context-utilization.ts";
import { contextAnswer, type HookAnswer, type UserPromptSubmitInput } from "./hook-io.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { projectMemory } from "../store/project-root.ts";
import {
  advisoryLine,
  advisoryText,
  blockMode,
  blockLine,
  blockText,
  idleText,
  isExemptPrompt,
  isInjectedPrompt,
  rotationDue,
  rotationText,
  utilizationTier,
  type RotationState,
} from "./prompt-gate.ts";
import { sentinelPath } from "../store/sentinels.ts";
import { formatDuration, utcIso } from "../core/time-format.ts";
import { trashIfPresent } from "../core/trash.ts";
import { engineInvocation } from "../core/shell-quote.ts";
import { readRegistry, registryPath, writeRegistry } from "../store/session-registry.ts";
// The block tier and the re-entry after a compaction are rare: in the bundle they are compiled only
// when reached (prompt-cold.ts; scripts/build.ts).
import {
  failedLine,
  failedText,
  holdPrompt,
  makeWindowKnown,
  reentryAtPrompt,
  takeSaveFailure,
  withSaveFailure,
} from "./prompt-cold.ts";
import type { PromptHookOptions } from "./prompt-hook-options.ts";
import {
  consumeIdleAdvisory,
  type IdleGap,
  pendingIdleAdvisory,
  persistIdleGap,
  recordPrompt,
} from "./prompt-idle.ts";

const EVENT = "UserPromptSubmit";

/**
 * Prompt hook step 0.5: a compaction happened since the last prompt; it expires any defer, and
 * this first prompt after it carries what the summary dropped of the compaction's checkpoint
 * (reentry-at-prompt.ts). A plain prompt pays one existsSync, as before.
 */
function postcompactReset(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  now: Date,
  transcriptPath: string | null | undefined,
): string | null {
  const reset = sentinelPath(paths.memory, "postcompact-reset", sid);
  if (!deps.fs.existsSync(reset)) return null;
  const text = readTextOrNull(deps.fs, reset);
  trashIfPresent(deps.fs, reset, paths.memory, now);
  trashIfPresent(deps.fs, sentinelPath(paths.memory, "checkpoint-defer", sid), paths.memory, now);
  return text === null ? null : reentryAtPrompt(deps, paths, sid, transcriptPath, text);
}

/**
 * Seed 001's rotation budget: count this prompt, and say so once when the budget is spent. The
 * count is per-session state, kept outside the repository (a plain prompt writes nothing there).
 */
function rotationNote(deps: Deps, sid: string, now: Date, knobs: Knobs): string | null {
  if (knobs.QUOIN_ROTATE_OBSERVATIONS <= 0 && knobs.QUOIN_ROTATE_HOURS <= 0) return null;
  const config = claudeConfigDir(deps.env, deps.home);
  const kv = readRegistry(deps, config, "rotation", sid) ?? {};
  const started =
    typeof kv["started_at"] === "string" && Number.isFinite(Date.parse(kv["started_at"]))
      ? kv["started_at"]
      : utcIso(now);
  const state: RotationState = {
    startedAt: started,
    prompts: (Number(kv["prompts"]) || 0) + 1,
    advised: kv["advised"] === true,
  };
  const due = rotationDue(state, now, knobs);
  try {
    writeRegistry(deps, config, "rotation", sid, {
      started_at: state.startedAt,
      prompts: state.prompts,
      advised: due || state.advised,
    });
  } catch {
    // the count is not kept; the note (if due) is still given
  }
  return due ? rotationText(state, now, knobs, engineInvocation(deps)) : null;
}

/**
 * Steps 0.5 and 0.7. A project that cannot be written is still judged: these writes failing
 * change no answer (the block tier says so when it has to save).
 */
function arrival(
  deps: Deps,
  paths: MemoryPaths,
  sid: string,
  now: Date,
  transcriptPath: string | null | undefined,
): { gap: IdleGap | null; reentry: string | null } {
  let reentry: string | null = null;
  try {
    reentry = postcompactReset(deps, paths, sid, now, transcriptPath);
    return { gap: recordPrompt(deps, paths, sid, now), reentry };
  } catch {
    return { gap: null, reentry };
  }
}

interface BlockTierInput {
  paths: MemoryPaths;
  sid: string;
  input: UserPromptSubmitInput;
  now: Date;
  u: Utilization;
  knobs: Knobs;
  reentry: string | null;
  opts: PromptHookOptions;
}

/** The block tier: hold (or advise) once the forced save is on disk; say why when it is not. */
function blockTier(deps: Deps, b: BlockTierInput): HookAnswer {
  const { u, knobs, reentry } = b;
  const mode = blockMode(u, knobs);
  const files = holdPrompt(deps, b.paths, b.sid, b.input, b.now, mode === "block", b.opts);
  const withReentry = (words: string) => (reentry ? `${reentry}\n${words}` : words);
  if (files.failure)
    return contextAnswer(EVENT, withReentry(failedText(u, knobs, files)), failedLine(u, files));
  // A held prompt's answer reaches the person only: the re-entry list is then not given (the
  // block tier cannot follow a compaction in practice, the context was just made small).
  const makeKnown = mode === "advise-guess" ? makeWindowKnown(deps) : undefined;
  const words = blockText(u, knobs, files, mode, makeKnown);
  if (mode === "block") return { decision: "block", reason: words };
  return contextAnswer(EVENT, withReentry(words), blockLine(u, knobs, mode));
}

/**
 * A PreCompact or SessionEnd save of this session that failed and was not told yet (its record,
 * outside the repository: save-failure.ts). One stat on the plain path.
 */
function saveFailurePending(deps: Deps, sid: string): boolean {
  try {
    return deps.fs.existsSync(
      registryPath(claudeConfigDir(deps.env, deps.home), "save-failed", sid),
    );
  } catch {
    return false;
  }
}

/**
 * The UserPromptSubmit hook. A save of this session that failed is said once, at this prompt when
 * no SessionStart said it first (a PreCompact whose compaction did not happen leaves the session
 * going on without one): for the model first in additionalContext, for the person as the one line.
 */
export function handleUserPromptSubmit(
  deps: Deps,
  input: UserPromptSubmitInput,
  knobs: Knobs,
  opts: PromptHookOptions = {},
): HookAnswer | null {
  const sid = isUsableSessionId(input.session_id) ? input.session_id : null;
  if (!sid || !saveFailurePending(deps, sid)) return promptAnswer(deps, input, knobs, opts);
  let answer: HookAnswer | null = null;
  try {
    answer = promptAnswer(deps, input, knobs, opts);
  } catch {
    // the failure is said without the rest
  }
  // A held prompt's reason reaches the person only: the record waits for a prompt the model reads.
  if (answer && "decision" in answer) return answer;
  const failed = takeSaveFailure(deps, sid);
  return failed ? withSaveFailure(answer, failed, EVENT) : answer;
}

/**
 * Every step of the UserPromptSubmit hook, in the seed's order: the post-compaction reset (step
 * 0.5), recent-sessions and the idle note (step 0.7), the exempt prompts, then the tier by
 * utilization.
 */
function promptAnswer(
  deps: Deps,
  input: UserPromptSubmitInput,
  knobs: Knobs,
  opts: PromptHookOptions,
): HookAnswer | null {
  const now = deps.now();
  // Without a usable id, or outside any project ($HOME, /), nothing is written: advice only.
  const paths = projectMemory(deps, input.cwd ?? deps.cwd);
  const sid = paths && isUsableSessionId(input.session_id) ? input.session_id : null;

  // What the compaction's summary dropped: given with whatever answer lets this prompt through.
  const { gap, reentry } =
    paths && sid
      ? arrival(deps, paths, sid, now, input.transcript_path)
      : { gap: null, reentry: null };
  // A turn the client injected (a /loop wakeup, a scheduled task, a task notification) is not the
  // person's: it is never held at the block tier and gets no advisory, as an exempt command.
  if (isExemptPrompt(input.prompt) || isInjectedPrompt(input.source, input.prompt)) {
    if (paths && sid) persistIdleGap(deps, paths, sid, now, gap);
    return reentry ? contextAnswer(EVENT, reentry) : null;
  }

  // The status-line record and the settings are read only when the figure could reach the
  // advisory on some window, or an idle note will show it.
  const pendingIdle = paths && sid ? pendingIdleAdvisory(deps, paths, sid) : null;
  const idleNote = gap !== null || pendingIdle !== null;
  const u = input.transcript_path
    ? measureUtilization({
        deps,
        transcriptPath: input.transcript_path,
        knobs,
        configDir: claudeConfigDir(deps.env, deps.home),
        projectRoot: paths?.root ?? null,
        sessionId: sid ?? undefined,
        ...(idleNote ? {} : { sourcesFromBps: knobs.QUOIN_STOP_BPS }),
      })
    : null;
  // A figure estimated from the transcript's size (no usage line in the bytes read) is never a
  // reason to hold a prompt: at most an advisory, which says it is an estimate.
  const measured = u ? utilizationTier(u.bps, knobs) : "quiet";
  const tier = measured === "block" && u?.source === "bytes" ? "advisory" : measured;

  if (tier === "block" && u && paths && sid) {
    persistIdleGap(deps, paths, sid, now, gap);
    return blockTier(deps, { paths, sid, input, now, u, knobs, reentry, opts });
  }

  const notes: string[] = reentry ? [reentry] : [];
  let line: string | undefined;
  if (paths && sid) {
    // A gap seen now wins over one an earlier (exempt or held) prompt left; either is said once.
    const pending =
      pendingIdle === null ? null : consumeIdleAdvisory(deps, paths, sid, now, pendingIdle, u);
    const idle = gap ? idleText(gap.gapMs, gap.previousIso, u, formatDuration) : pending;
    if (idle) notes.push(idle);
  }
  if (u && tier !== "quiet") {
    const deferred =
      paths !== null &&
      sid !== null &&
      deps.fs.existsSync(sentinelPath(paths.memory, "checkpoint-defer", sid));
    if (!deferred) {
      notes.push(advisoryText(u, knobs));
      line = advisoryLine(u);
    }
  }
  if (paths && sid) {
    const rotation = rotationNote(deps, sid, now, knobs);
    if (rotation) notes.push(rotation);
  }
  return notes.length ? contextAnswer(EVENT, notes.join("\n"), line) : null;
}
