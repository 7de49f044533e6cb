import type { Deps } from "../core/deps.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { activePidfiles, skillWithPid, type ActivePidfile } from "../store/pidfile.ts";
import { releasePidfile } from "../store/pidfile-release.ts";

const CHECKPOINT_SKILL = "checkpoint";

/**
 * Save step 1.5 sub-step B: live pidfiles of other skills. The seed excluded only its own pid; here the
 * checkpoint skill's own pidfile is excluded, and with a known session id only that session's
 * skills count (several sessions share a repository, and another session's running skill
 * is no reason to save this one in mid-agent mode). A quoin pidfile names no session (""): it
 * counts, as every pidfile did in the seed.
 */
export function otherActiveSkills(
  deps: Deps,
  paths: MemoryPaths,
  sid: string | null,
): ActivePidfile[] {
  return activePidfiles(deps, paths.sessions).filter(
    (p) => p.skill !== CHECKPOINT_SKILL && (sid === null || p.session === sid || p.session === ""),
  );
}

/** "plan (pid 412), implement (pid 977)" */
export function describeSkills(skills: readonly ActivePidfile[]): string {
  return skills.map(skillWithPid).join(", ");
}

/** Save step 6: release the checkpoint skill's pidfile (moved to trash: nothing is deleted). */
export function releaseCheckpointPidfile(
  deps: Deps,
  paths: MemoryPaths,
  sid: string | null,
): string | null {
  return releasePidfile(deps, paths, CHECKPOINT_SKILL, sid);
}
