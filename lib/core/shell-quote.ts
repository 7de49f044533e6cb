import type { Deps } from "./deps.ts";
import { ENGINE_BUNDLE } from "./engine-name.ts";

/**
 * One word a person can paste into a shell: in double quotes when nothing in it expands there,
 * else in single quotes (`"`, `$`, a backtick, a backslash or `!` would expand or end the quotes).
 */
export function shellWord(text: string): string {
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * How a message names the engine so the command runs as printed: `node "<path>"` (Claude Code's
 * PATH is not a login shell's, and a `quoin-checkpoint` on it may be another version).
 */
export function engineInvocation(deps: Pick<Deps, "engineScript">): string {
  return `node ${shellWord(deps.engineScript ?? ENGINE_BUNDLE)}`;
}
