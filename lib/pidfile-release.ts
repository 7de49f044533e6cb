import type { Deps } from "./deps.ts";
import { pidfilePath } from "./pidfile.ts";
import { trashIfPresent } from "./trash.ts";

/** End of a skill run: the pidfile goes to trash/ (nothing is deleted). Null when there was none. */
export function releasePidfile(deps: Deps, sessionsDir: string, memoryDir: string, skill: string, sid: string): string | null {
  return trashIfPresent(deps.fs, pidfilePath(sessionsDir, skill, sid), memoryDir, deps.now());
}
