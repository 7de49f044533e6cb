import { createHash } from "node:crypto";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { createExclusive } from "../core/atomic-write.ts";
import { readTextByRule } from "../core/file-range.ts";
import { claudeConfigDir } from "../core/config-dir.ts";
import { isUsableSessionId } from "../core/ids.ts";
import { utcIso } from "../core/time-format.ts";
import { isRecord } from "../core/value-checks.ts";
import { parseBlockedPrompts, type BlockedPrompt } from "./pending-prompts.ts";
import { sessionRegistryDir } from "./session-registry.ts";

// A held prompt is handed to one restore only. Two restores of one checkpoint may run at once
// (two new sessions, or a resumed one and a new one); each read the pending-prompt file and the
// replayed registry before either wrote, so both replayed everything. Now each prompt is claimed
// by creating its claim file exclusively (a hard link: exactly one creator wins on every local
// file system), in the order the prompts were held; a restore stops at the first prompt another
// restore holds, so the prompts it replays are always a run from the front, never a gap. Claims
// live beside the session registry, outside the repository, and are pruned with it (7 days).

/** What identifies one held prompt of one file (restore-run's promptKey). */
export type PromptKeyOf = (e: BlockedPrompt) => string;

/** <config>/quoin-checkpoint/state/claimed-<16 hex>.json for one prompt of one pending-prompt file. */
export function claimFile(configDir: string, sourceFile: string, key: string): string {
  const hash = createHash("sha256").update(`${sourceFile}\0${key}`).digest("hex").slice(0, 16);
  return path.join(sessionRegistryDir(configDir), `claimed-${hash}.json`);
}

export interface Claim {
  /** the session whose restore took it ("unknown" without one) */
  by: string;
  at: string;
}

/** The claim on a prompt, or null when it is free. */
export function readClaim(deps: Deps, file: string): Claim | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readTextByRule(deps.fs, file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    return { by: "unknown", at: "unknown" };
  }
  if (!isRecord(raw)) return { by: "unknown", at: "unknown" };
  return {
    by: typeof raw["by"] === "string" ? raw["by"] : "unknown",
    at: typeof raw["at"] === "string" ? raw["at"] : "unknown",
  };
}

/** A predicate for classifyPendingPrompts: true for a prompt some restore already took. */
export function claimedBy(deps: Deps, keyOf: PromptKeyOf) {
  const config = claudeConfigDir(deps.env, deps.home);
  return (sourceFile: string, e: BlockedPrompt): boolean =>
    deps.fs.existsSync(claimFile(config, sourceFile, keyOf(e)));
}

export interface ClaimOutcome<T extends BlockedPrompt> {
  /** claimed by this restore, in the order given */
  claimed: T[];
  /** the first prompt another restore holds, and who */
  taken: { entry: T; claim: Claim } | null;
  /** after a taken one: not claimed, left for a later restore */
  left: T[];
}

/**
 * Claim `entries` (oldest first) for session `by`. Throws only when a claim cannot be written at
 * all (the caller then replays nothing: a prompt is never handed out unclaimed).
 */
export function claimPrompts<T extends BlockedPrompt>(
  deps: Deps,
  sourceFile: string,
  entries: readonly T[],
  keyOf: PromptKeyOf,
  by: string,
): ClaimOutcome<T> {
  const config = claudeConfigDir(deps.env, deps.home);
  const who = isUsableSessionId(by) ? by : "unknown";
  const body = `${JSON.stringify({ by: who, at: utcIso(deps.now()) })}\n`;
  // One restore claims a run at a time: another that listed the prompts while this one was
  // between two claims would otherwise take the later ones and split the run between sessions.
  // A run is claimed in milliseconds, so a restore that finds the lock waits for it (bounded) and
  // then reads the claims the other wrote: it can say which prompts were taken, and by whom.
  const lock = claimFile(config, sourceFile, "claiming");
  if (!takeRunLockWaiting(deps, lock, body)) {
    const [first, ...rest] = entries;
    if (!first) return { claimed: [], taken: null, left: [] };
    return {
      claimed: [],
      taken: { entry: first, claim: readClaim(deps, lock) ?? UNKNOWN },
      left: rest,
    };
  }
  try {
    return claimInOrder(deps, config, sourceFile, entries, keyOf, body);
  } finally {
    try {
      deps.fs.unlinkSync(lock);
    } catch {
      // a lock left behind is taken over once it is older than RUN_LOCK_MS
    }
  }
}

const UNKNOWN: Claim = { by: "unknown", at: "unknown" };
/** A run's lock older than this was left by a restore that died while claiming. */
const RUN_LOCK_MS = 10_000;

/** How long a restore waits for another's run lock before it reports the prompts as taken. */
const RUN_LOCK_WAIT_MS = 3_000;
const RUN_LOCK_STEP_MS = 20;

function takeRunLockWaiting(deps: Deps, lock: string, body: string): boolean {
  for (let waited = 0; ; waited += RUN_LOCK_STEP_MS) {
    if (takeRunLock(deps, lock, body)) return true;
    if (!deps.sleep || waited >= RUN_LOCK_WAIT_MS) return false;
    deps.sleep(RUN_LOCK_STEP_MS);
  }
}

function takeRunLock(deps: Deps, lock: string, body: string): boolean {
  if (createExclusive(deps.fs, lock, body, { mode: 0o600, pid: deps.pid })) return true;
  try {
    // A restore's lock is a regular file it made. Anything else at the name (a symlink, a FIFO)
    // is no restore's: it is removed like a stale lock, not waited on (which would hold off every
    // restore for RUN_LOCK_WAIT_MS and then hand out nothing). lstat: never a link target's age.
    const st = deps.fs.lstatSync(lock);
    if (st.isFile() && deps.now().getTime() - st.mtimeMs < RUN_LOCK_MS) return false;
    deps.fs.unlinkSync(lock);
  } catch {
    return false;
  }
  return createExclusive(deps.fs, lock, body, { mode: 0o600, pid: deps.pid });
}

function claimInOrder<T extends BlockedPrompt>(
  deps: Deps,
  config: string,
  sourceFile: string,
  entries: readonly T[],
  keyOf: PromptKeyOf,
  body: string,
): ClaimOutcome<T> {
  const claimed: T[] = [];
  for (const [i, entry] of entries.entries()) {
    const file = claimFile(config, sourceFile, keyOf(entry));
    if (createExclusive(deps.fs, file, body, { mode: 0o600, pid: deps.pid })) {
      claimed.push(entry);
      continue;
    }
    const claim = readClaim(deps, file) ?? { by: "unknown", at: "unknown" };
    return { claimed, taken: { entry, claim }, left: entries.slice(i + 1) };
  }
  return { claimed, taken: null, left: [] };
}

/** The line a restore prints when another restore took prompts first. */
export function takenLine(
  taken: { entry: { n: number }; claim: Claim },
  left: readonly { n: number }[],
): string {
  const who =
    taken.claim.by === "unknown" ? "another session" : `session ${taken.claim.by.slice(0, 8)}`;
  const later = left.length ? `, nor the later ${left.map((e) => e.n).join(", ")}` : "";
  return `[checkpoint] held prompt ${taken.entry.n} was taken by ${who}'s restore (at ${taken.claim.at}); not replayed here${later}, so each prompt runs once and in order`;
}

export interface ReplayPick<T extends BlockedPrompt & { n: number }> {
  replay: T[];
  edit: T | null;
}

/**
 * Restore step 4's chosen prompts, claimed: what this restore may hand out, and the line to print
 * when another restore took some first or no claim could be written (then nothing is handed out).
 */
export function claimReplay<T extends BlockedPrompt & { n: number }>(
  deps: Deps,
  sourceFile: string,
  pick: ReplayPick<T>,
  keyOf: PromptKeyOf,
  by: string,
): ReplayPick<T> & { warning: string | null } {
  const wanted = [...pick.replay, ...(pick.edit ? [pick.edit] : [])].sort((a, b) => a.n - b.n);
  if (wanted.length === 0) return { ...pick, warning: null };
  let got: ClaimOutcome<T>;
  try {
    got = claimPrompts(deps, sourceFile, wanted, keyOf, by);
  } catch (err) {
    return {
      replay: [],
      edit: null,
      warning: `[checkpoint] the held prompts could not be claimed (${(err as Error).message}); none is replayed, so none runs twice: run the restore again`,
    };
  }
  const mine = new Set(got.claimed);
  return {
    replay: pick.replay.filter((e) => mine.has(e)),
    edit: pick.edit && mine.has(pick.edit) ? pick.edit : null,
    warning: got.taken ? takenLine(got.taken, got.left) : null,
  };
}

/**
 * When the session being restored held prompts and every one of them was already claimed: the
 * line that says by whom, so the restore that came second is not silent about them.
 */
export function allTakenLine(
  deps: Deps,
  files: readonly { file: string; sid: string; text: string }[],
  sid: string | null,
  keyOf: PromptKeyOf,
): string | null {
  if (!sid) return null;
  const config = claudeConfigDir(deps.env, deps.home);
  for (const f of files) {
    if (f.sid !== sid) continue;
    const held = parseBlockedPrompts(f.text).filter((e) => e.text !== "" && !e.nonReplayable);
    const claims = held.map((e) => readClaim(deps, claimFile(config, f.file, keyOf(e))));
    const first = claims[0];
    if (!first || claims.some((c) => c === null)) continue;
    const who = first.by === "unknown" ? "another session" : `session ${first.by.slice(0, 8)}`;
    return `[checkpoint] the ${held.length} held prompt(s) of session ${sid.slice(0, 8)} were already taken by ${who}'s restore (at ${first.at}); none is replayed here, so each runs once`;
  }
  return null;
}
