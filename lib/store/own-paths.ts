import { SENTINEL_FAMILIES } from "./sentinels.ts";
import { SESSION_STATE_KINDS } from "./session-registry.ts";

// Every path the tool opens in its own trees, by tree, with what it does there. The safe-file rule
// (lib/core/safe-file.ts) applies to each; the symlink and FIFO suite
// (test/guarantees/safe-files.test.ts) plants a symlink and a FIFO at every row and runs the
// hooks and the engine against them. The sentinel families and the session-state kinds come from
// their registries (a new family or kind gets its row here by itself); a unit test holds the rows
// written out by hand against the memory paths, so a new path cannot skip the suite.
// `<sid>` is a session id, `<task>` a task folder, `<name>` any file name of that folder's kind.

export type OwnTree = "memory" | "task" | "config" | "cache";

export interface OwnPath {
  tree: OwnTree;
  /** relative to the tree: memory = <root>/.workflow_artifacts/memory, task = <root>/.workflow_artifacts,
   * config = <config>/quoin-checkpoint, cache = ${XDG_CACHE_HOME:-~/.cache}/quoin-checkpoint */
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
  ...SENTINEL_FAMILIES.map((f) => ({
    tree: "memory" as const,
    path: `${f}-<sid>.txt`,
    opens: "read, replace",
  })),
  { tree: "task", path: "<task>/cost-ledger.md", opens: "append" },
  { tree: "config", path: "logs/hooks.log", opens: "append" },
  ...SESSION_STATE_KINDS.map((k) => ({
    tree: "config" as const,
    path: `state/${k}-<sid>.json`,
    opens: "read, replace",
  })),
  { tree: "config", path: "config.json", opens: "read" },
  { tree: "config", path: "dispatch-cache.json", opens: "read, replace" },
  { tree: "cache", path: "<hook>-<hash>-<node>-<arch>-<build>.v8cache", opens: "read, replace" },
];
