import type { Deps } from "../core/deps.ts";
import { isUsableSessionId } from "../core/ids.ts";
import type { MemoryPaths } from "./memory-paths.ts";
import { pidfilePath } from "./pidfile.ts";
import { trashIfPresent } from "../core/trash.ts";

/**
 * End of a skill run (the seed's section 0c, and save step 6): the skill's pidfile goes to
 * trash/ (nothing is deleted). Null when there was none, or no usable session id to name it by.
 */
export function releasePidfile(
  deps: Deps,
  paths: Pick<MemoryPaths, "sessions" | "memory">,
  skill: string,
  sid: string | null,
): string | null {
  if (!isUsableSessionId(sid)) return null;
  return trashIfPresent(deps.fs, pidfilePath(paths.sessions, skill, sid), paths.memory, deps.now());
}
