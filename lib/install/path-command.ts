import { readTextByRule } from "../core/file-range.ts";
import type { Deps } from "../core/deps.ts";

// `quoin-checkpoint` on the PATH (an `npm i -g` install): its version, so a message for a person
// names `quoin-checkpoint <cmd>` only when that command is this install's version.

const PATH_COMMAND = "quoin-checkpoint";

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

/**
 * doctor's line on the PATH command: which form a person can type. Ok either way (the hooks and
 * skills run the copied engine, never the PATH one); a warning when it is another version.
 */
export function pathCommandCheck(
  deps: Pick<Deps, "run" | "cwd" | "fs">,
  stateFile: string | undefined,
  engine: string,
): { name: string; ok: true; warn?: boolean; detail: string; fix?: string } {
  const name = "`quoin-checkpoint` on the PATH";
  let installed: string | null = null;
  try {
    if (stateFile)
      installed =
        (JSON.parse(readTextByRule(deps.fs, stateFile)) as { packageVersion?: string })
          .packageVersion ?? null;
  } catch {
    installed = null;
  }
  const onPath = pathCommandVersion(deps);
  if (onPath === null)
    return { name, ok: true, detail: `none; run the engine by its path, e.g. ${engine} status` };
  if (installed !== null && onPath === installed)
    return {
      name,
      ok: true,
      detail: `${onPath}, this install's version: quoin-checkpoint <cmd> works`,
    };
  return {
    name,
    ok: true,
    warn: true,
    detail: `it is ${onPath}, this install is ${installed ?? "of an unrecorded version"}: run the engine by its path, e.g. ${engine} status`,
    fix: "install the same version both ways (npm i -g quoin-checkpoint@<version>, then quoin-checkpoint install)",
  };
}
