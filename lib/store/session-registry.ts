import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import type { Deps } from "../core/deps.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import { checkSessionId } from "../core/ids.ts";
import { DAY_MS } from "../core/time-format.ts";
import { isRecord } from "../core/value-checks.ts";

// What hooks must know about sessions that are still running lives outside the repository:
// <config>/quoin-checkpoint/state/<kind>-<sid>.json, one small file per session and kind, no user
// content, pruned by age. Every writer, reader and sweep goes through this module.

export type SessionStateKind =
  | "process"
  | "window"
  | "ended"
  | "b3-declined"
  | "ref-acted"
  | "replayed"
  | "rotation"
  | "save-failed";

/** Every kind, one file each per session (lib/store/own-paths.ts lists them for the safe-file suite). */
export const SESSION_STATE_KINDS: readonly SessionStateKind[] = [
  "process",
  "window",
  "ended",
  "b3-declined",
  "ref-acted",
  "replayed",
  "rotation",
  "save-failed",
];
/** Files older than this are deleted by pruneRegistry's default callers. */
export const REGISTRY_MAX_AGE_MS = 7 * DAY_MS;
/** At most this many files are looked at per prune: a hook never walks an unbounded folder. */
const PRUNE_SCAN_LIMIT = 2000;
const NAME = /^([a-z0-9-]+?)-([A-Za-z0-9-]{1,128})\.json$/;

export function sessionRegistryDir(configDir: string): string {
  return path.join(configDir, "quoin-checkpoint", "state");
}

/** <dir>/<kind>-<sid>.json; throws on a session id that is not a valid file-name part. */
export function registryPath(configDir: string, kind: SessionStateKind, sid: string): string {
  const check = checkSessionId(sid);
  if (!check.ok) throw new Error(check.reason);
  if (!SESSION_STATE_KINDS.includes(kind))
    throw new Error(`unknown session state kind ${JSON.stringify(kind)}`);
  return path.join(sessionRegistryDir(configDir), `${kind}-${sid}.json`);
}

/** Atomic, mode 0600, folder created on demand. Throws on failure (hooks catch and fail open). */
export function writeRegistry(
  deps: Deps,
  configDir: string,
  kind: SessionStateKind,
  sid: string,
  value: object,
): void {
  const file = registryPath(configDir, kind, sid);
  writeAtomic(deps.fs, file, `${JSON.stringify(value)}\n`, { mode: 0o600, pid: deps.pid });
}

/** The stored object, or null when absent, unreadable, not JSON, not an object, or the sid is invalid. */
export function readRegistry(
  deps: Deps,
  configDir: string,
  kind: SessionStateKind,
  sid: string,
): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(readTextByRule(deps.fs, registryPath(configDir, kind, sid)));
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Remove one entry; true when a file was there. */
export function deleteRegistry(
  deps: Deps,
  configDir: string,
  kind: SessionStateKind,
  sid: string,
): boolean {
  try {
    deps.fs.unlinkSync(registryPath(configDir, kind, sid));
    return true;
  } catch {
    return false;
  }
}

/** Session ids that have an entry of this kind (bounded listing; no parse). */
export function listRegistry(deps: Deps, configDir: string, kind: SessionStateKind): string[] {
  let names: string[];
  try {
    names = (deps.fs.readdirSync(sessionRegistryDir(configDir)) as string[]).slice(
      0,
      PRUNE_SCAN_LIMIT,
    );
  } catch {
    return [];
  }
  const prefix = `${kind}-`;
  return names
    .filter((n) => n.startsWith(prefix) && n.endsWith(".json"))
    .map((n) => n.slice(prefix.length, -".json".length))
    .filter((sid) => checkSessionId(sid).ok)
    .sort();
}

/**
 * Delete entries (and leftover temp files) whose mtime is older than maxAgeMs. They hold no user
 * content, so they are deleted, not trashed. Never throws.
 */
export function pruneRegistry(
  deps: Deps,
  configDir: string,
  maxAgeMs: number = REGISTRY_MAX_AGE_MS,
): void {
  const dir = sessionRegistryDir(configDir);
  let names: string[];
  try {
    names = (deps.fs.readdirSync(dir) as string[]).slice(0, PRUNE_SCAN_LIMIT);
  } catch {
    return;
  }
  const cutoff = deps.now().getTime() - maxAgeMs;
  for (const name of names) {
    if (!NAME.test(name) && !(name.startsWith(".") && name.endsWith(".tmp"))) continue;
    const file = path.join(dir, name);
    try {
      if (deps.fs.statSync(file).mtimeMs < cutoff) deps.fs.unlinkSync(file);
    } catch {
      // gone already, or not ours to remove: leave it
    }
  }
}
