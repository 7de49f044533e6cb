import type { Deps } from "../core/deps.ts";
import {
  deleteRegistry,
  listRegistry,
  readRegistry,
  writeRegistry,
} from "../store/session-registry.ts";
import { reduceTaskName } from "../core/ids.ts";
import { isInsideCheckpoints, memoryPaths } from "../store/memory-paths.ts";
import { clearNote, type Note } from "../notes/start-notes.ts";

// /clear: SessionEnd(clear) of the old session and SessionStart(clear) of the new one are two
// processes that may overlap. The first leaves a small "ended" entry in the session registry
// (<config>/quoin-checkpoint/state/ended-<old sid>.json): "writing" when it starts, then "saved"
// (with the checkpoint) or "skipped". The second finds it by project root and age, waits a little
// while it still says "writing", tells the model and the person, and removes it.

/** A marker older than this is not the /clear that just happened. */
const CLEAR_MARKER_MAX_AGE_MS = 30_000;
/** How long SessionStart(clear) waits for a marker to appear, then for "writing" to end (SessionEnd is cut at 1.5 s). */
export const CLEAR_WAIT_APPEAR_MS = 800;
export const CLEAR_WAIT_WRITING_MS = 1600;
const CLEAR_POLL_MS = 25;

export type ClearMarker =
  | { state: "writing"; root: string; at: string }
  | { state: "saved"; root: string; at: string; checkpoint: string; task: string }
  | { state: "skipped"; root: string; at: string; why: string; checkpoint?: string };

type Outcome =
  | { saved: true; checkpoint: string; task: string }
  | { saved: false; skip: string; detail: string; previous?: string };

/** SessionEnd(clear), first thing: say a save is under way. Never throws. */
export function markClearStart(deps: Deps, configDir: string, sid: string, root: string): void {
  try {
    writeRegistry(deps, configDir, "ended", sid, {
      state: "writing",
      root,
      at: deps.now().toISOString(),
    });
  } catch {
    // the marker is a courtesy for the next SessionStart; the save goes on without it
  }
}

/** SessionEnd(clear), last thing: what became of the save. Never throws. */
export function markClearDone(
  deps: Deps,
  configDir: string,
  sid: string,
  root: string,
  outcome: Outcome,
): void {
  const at = deps.now().toISOString();
  const value: ClearMarker = outcome.saved
    ? { state: "saved", root, at, checkpoint: outcome.checkpoint, task: outcome.task }
    : {
        state: "skipped",
        root,
        at,
        why: outcome.skip,
        ...(outcome.previous ? { checkpoint: outcome.previous } : {}),
      };
  try {
    writeRegistry(deps, configDir, "ended", sid, value);
  } catch {
    // as above
  }
}

function asMarker(raw: Record<string, unknown> | null): ClearMarker | null {
  if (!raw || typeof raw["root"] !== "string" || typeof raw["at"] !== "string") return null;
  if (raw["state"] === "writing") return { state: "writing", root: raw["root"], at: raw["at"] };
  if (
    raw["state"] === "saved" &&
    typeof raw["checkpoint"] === "string" &&
    typeof raw["task"] === "string"
  ) {
    return {
      state: "saved",
      root: raw["root"],
      at: raw["at"],
      checkpoint: raw["checkpoint"],
      task: raw["task"],
    };
  }
  if (raw["state"] === "skipped" && typeof raw["why"] === "string") {
    return {
      state: "skipped",
      root: raw["root"],
      at: raw["at"],
      why: raw["why"],
      ...(typeof raw["checkpoint"] === "string" ? { checkpoint: raw["checkpoint"] } : {}),
    };
  }
  return null;
}

/** The newest fresh marker for this project root, other than the new session's own. */
function freshMarker(
  deps: Deps,
  configDir: string,
  root: string,
  newSid: string | null,
): { sid: string; marker: ClearMarker } | null {
  const nowMs = deps.now().getTime();
  let best: { sid: string; marker: ClearMarker; ms: number } | null = null;
  for (const sid of listRegistry(deps, configDir, "ended")) {
    if (sid === newSid) continue;
    const marker = asMarker(readRegistry(deps, configDir, "ended", sid));
    const ms = marker ? Date.parse(marker.at) : NaN;
    if (
      !marker ||
      marker.root !== root ||
      !Number.isFinite(ms) ||
      nowMs - ms > CLEAR_MARKER_MAX_AGE_MS
    )
      continue;
    if (!best || ms > best.ms) best = { sid, marker, ms };
  }
  return best;
}

/**
 * SessionStart(clear): the cleared session's marker, once it says "saved" or "skipped", waiting
 * boundedly (deps.sleep) for it to appear and for "writing" to end. Null when there is none.
 */
export function awaitClearMarker(
  deps: Deps,
  configDir: string,
  root: string,
  newSid: string | null,
): { sid: string; marker: ClearMarker } | null {
  const start = deps.now().getTime();
  for (;;) {
    const found = freshMarker(deps, configDir, root, newSid);
    const waited = deps.now().getTime() - start;
    if (found && found.marker.state !== "writing") return found;
    const limit = found ? CLEAR_WAIT_WRITING_MS : CLEAR_WAIT_APPEAR_MS;
    if (!deps.sleep || waited >= limit) return found;
    deps.sleep(CLEAR_POLL_MS);
  }
}

/** What SessionStart(clear) says about the cleared session, and the marker removed; null: nothing to say. */
export function clearNotice(
  deps: Deps,
  configDir: string,
  root: string,
  newSid: string | null,
): Note | null {
  const found = awaitClearMarker(deps, configDir, root, newSid);
  if (!found) return null;
  const { sid, marker } = found;
  deleteRegistry(deps, configDir, "ended", sid);
  const paths = memoryPaths(root);
  // Only a path inside this project's checkpoints/ is ever named (the marker is a file on disk).
  const trusted = (file: string | undefined) =>
    file && isInsideCheckpoints(paths, file) && deps.fs.existsSync(file) ? file : null;
  if (marker.state === "saved" && trusted(marker.checkpoint))
    return clearNote({
      state: "saved",
      sid,
      checkpoint: marker.checkpoint!,
      task: reduceTaskName(marker.task),
    });
  if (marker.state === "skipped" && marker.why === "unchanged" && trusted(marker.checkpoint))
    return clearNote({ state: "unchanged", sid, checkpoint: marker.checkpoint! });
  if (marker.state === "writing") return clearNote({ state: "writing" });
  return null;
}
