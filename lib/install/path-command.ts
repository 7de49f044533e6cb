import type { Deps } from "../core/deps.ts";

// `quoin-checkpoint` on the PATH (an `npm i -g` install): its version, so a message for a person
// names `quoin-checkpoint <cmd>` only when that command is this install's version.

export const PATH_COMMAND = "quoin-checkpoint";

/** What `quoin-checkpoint --version` on the PATH prints, null when there is none (or it fails). */
export function pathCommandVersion(deps: Pick<Deps, "run" | "cwd">): string | null {
  try {
    const res = deps.run(PATH_COMMAND, ["--version"], { timeoutMs: 5000 });
    const v = res.status === 0 ? res.stdout.trim() : "";
    return /^\d+\.\d+\.\d+\S*$/.test(v) ? v : null;
  } catch {
    return null;
  }
}
