import { SENTINEL_FAMILIES } from "./sentinels.ts";
import { SESSION_STATE_KINDS } from "./session-registry.ts";

// Every path the tool opens in its own trees, by tree, with what it does there. The safe-file rule
// (lib/core/safe-file.ts) applies to each; the symlink and FIFO suite
// (test/guarantees/safe-files.test.ts) plants a symlink and a FIFO at every row and runs the
// hooks and the engine against them. The sentinel families and the session-state kinds come from
// their registries (a new family or kind gets its row here by itself); a unit test holds the rows
// written out by hand against the memory paths, so a new path cannot skip the suite.
// `<sid>` is a session id, `<task>` a task folder, `<name>` any file name of that folder's kind,
// `<hash>` 16 hex digits, `<date>` a UTC YYYY-MM-DD. Temp files of atomic writes have no row
// (isOwnTempFile says why). test/unit/store/own-paths-complete.test.ts runs a session's hooks and
// commands in process and fails on any path they open in the trees that matches no row.

export type OwnTree = "memory" | "task" | "config" | "cache" | "install";

export interface OwnPath {
  tree: OwnTree;
  /** relative to the tree: memory = <root>/.workflow_artifacts/memory, task = <root>/.workflow_artifacts,
   * config = <config>/quoin-checkpoint, cache = ${XDG_CACHE_HOME:-~/.cache}/quoin-checkpoint,
   * install = an install's bundle folder: the user's <config>/quoin-checkpoint (the config tree's
   * own folder) or a project install's <root>/.claude/quoin-checkpoint (committed with the project) */
  path: string;
  opens: string;
}

export const OWN_PATHS: readonly OwnPath[] = [
  { tree: "memory", path: ".gitignore", opens: "create" },
  { tree: "memory", path: "recent-sessions.md", opens: "append, read" },
  { tree: "memory", path: "checkpoint-heads.json", opens: "read, replace" },
  { tree: "memory", path: "checkpoints/<name>.md", opens: "read, create, replace" },
  { tree: "memory", path: "sessions/<name>.md", opens: "read" },
  { tree: "memory", path: "sessions/<name>.pidfile.lock", opens: "read, create" },
  // A trash move claims its name with a hard link (never over a file there: -2, -3 ...).
  { tree: "memory", path: "trash/<date>/<name>", opens: "create" },
  ...SENTINEL_FAMILIES.map((f) => ({
    tree: "memory" as const,
    path: `${f}-<sid>.txt`,
    opens: "read, replace",
  })),
  { tree: "task", path: "<task>/cost-ledger.md", opens: "append" },
  { tree: "config", path: "logs/hooks.log", opens: "append" },
  { tree: "config", path: "logs/hooks.log.1", opens: "replace (the log moved aside past its cap)" },
  ...SESSION_STATE_KINDS.map((k) => ({
    tree: "config" as const,
    path: `state/${k}-<sid>.json`,
    opens: "read, replace",
  })),
  // A held prompt claimed by one restore, and the lock of a restore claiming a run of them (the
  // same name made from the key "claiming"): lib/store/prompt-claims.ts.
  { tree: "config", path: "state/claimed-<hash>.json", opens: "create, read" },
  { tree: "config", path: "config.json", opens: "read" },
  { tree: "config", path: "dispatch-cache.json", opens: "read, replace" },
  { tree: "cache", path: "<hook>-<hash>-<node>-<arch>-<build>.v8cache", opens: "read, replace" },
  // The installer's copies (the engine, any-ascii and status-line bundles, each hook) and its record.
  { tree: "install", path: "<bundle>.cjs", opens: "read, replace" },
  { tree: "install", path: "hooks/<hook>.cjs", opens: "read, replace" },
  { tree: "install", path: "install-state.json", opens: "read, replace" },
];

/** The folders a row's tree starts at, for one project and one user (install: one or more). */
export type OwnRoots = Readonly<Record<OwnTree, string | readonly string[]>>;

// What each placeholder of a row stands for: one path segment, never a slash.
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  sid: "[A-Za-z0-9-]{1,128}",
  hash: "[0-9a-f]{16}",
  date: "\\d{4}-\\d{2}-\\d{2}",
};

/** A row's path as a pattern: `<sid>`, `<hash>`, `<date>` as they are written, any other `<x>` one name. */
export function ownPathPattern(row: Pick<OwnPath, "path">): RegExp {
  const parts = row.path.split(/(<[a-z]+>)/);
  const source = parts
    .map((p) => {
      const name = /^<([a-z]+)>$/.exec(p)?.[1];
      if (name) return `(?:${PLACEHOLDERS[name] ?? "[^/]+"})`;
      return p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${source}$`);
}

// Names a write makes for itself and drops at once: never a row, because nothing reopens them (a
// temp file is created O_EXCL beside its target: a symlink or FIFO planted at its name makes the
// create fail with EEXIST, and the write steps to the next name or gives up).
const TEMP_NAMES: readonly RegExp[] = [
  // lib/core/atomic-write.ts: .<target>.<pid>.<counter>.tmp
  /^\..+\.\d+\.\d+\.tmp$/,
  // lib/core/memory-dir.ts: an empty .gitignore's repair, renamed over it
  /^\.gitignore\.repair\.tmp$/,
];
// lib/core/memory-dir.ts: a new memory folder is built in a mkdtemp folder beside it.
const TEMP_FOLDER = /(^|\/)\.memory-[^/]+\//;

/** True for a name a write makes only for itself (a temp file of an atomic write). */
export function isOwnTempFile(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return TEMP_NAMES.some((re) => re.test(name)) || TEMP_FOLDER.test(file);
}

/**
 * The row `file` (absolute) falls under, or null when it lies in one of the trees and no row names
 * it. Outside every tree: undefined. A tree may lie in another (memory in the task tree, a user
 * install in the config tree): every tree that holds the file is tried, the memory folder never
 * as a task.
 */
export function ownPathRow(file: string, roots: OwnRoots): OwnPath | null | undefined {
  let inTree = false;
  for (const tree of ["memory", "config", "install", "cache", "task"] as const) {
    for (const root of [roots[tree]].flat()) {
      const base = root.replace(/\/+$/, "");
      if (!file.startsWith(`${base}/`)) continue;
      const rel = file.slice(base.length + 1);
      if (tree === "task" && rel.startsWith("memory/")) continue;
      inTree = true;
      const row = OWN_PATHS.find((r) => r.tree === tree && ownPathPattern(r).test(rel));
      if (row) return row;
    }
  }
  return inTree ? null : undefined;
}
