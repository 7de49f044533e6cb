import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { checkSessionId } from "../core/ids.ts";
import type { MemoryPaths } from "./memory-paths.ts";
import { sentinelPath } from "./sentinels.ts";
import { utcIso } from "../core/time-format.ts";

export type DeferOutcome =
  | { ok: true; file: string; message: string }
  | { ok: false; reason: string };

export const DEFER_REFUSED =
  "[checkpoint] WARNING: session UUID empty/unknown; refusing to write checkpoint-defer sentinel (would create orphan checkpoint-defer-.txt). Defer mode aborted.";

/** Defer mode: checkpoint-defer-<sid>.txt holding one ISO UTC line; refused for an empty or unknown id. */
export function writeDeferMarker(
  deps: Deps,
  paths: MemoryPaths,
  sid: string | null | undefined,
): DeferOutcome {
  const check = checkSessionId(sid);
  if (!check.ok)
    return {
      ok: false,
      reason:
        sid === "" || sid === "unknown" || sid == null
          ? DEFER_REFUSED
          : `${DEFER_REFUSED} (${check.reason})`,
    };
  const file = sentinelPath(paths.memory, "checkpoint-defer", check.id);
  writeAtomic(deps.fs, file, `${utcIso(deps.now())}\n`, { pid: deps.pid });
  return {
    ok: true,
    file,
    message:
      "[checkpoint] the context warning before each prompt is off for this session until the next compaction or save.",
  };
}
