import type { ShareTree } from "./share-tree.ts";

// Tombstones: what cleanup pruned from the shared ref, kept in the ref's own tree (the file
// `.pruned`), so a prune survives a squashed history. After a squash there is no common merge base
// with another clone's older history, and a three-way merge cannot tell "pruned here" from "added
// there"; a tombstone says it. One line per pruned blob: `<pruned at ISO> <blob id> <path>`. Keyed
// by blob too, so the same path shared again (a new origin line, a new blob) is not dropped.

/** The tree path of the tombstone file; a root-level dot name is never a checkpoint path. */
export const TOMBSTONE_PATH = ".pruned";

/**
 * Tombstones older than this are dropped. A clone absent that long only brings back entries whose
 * names are older than the checkpoint window, and a base-less merge drops those by age anyway.
 */
export const TOMBSTONE_DAYS = 180;

const DAY_MS = 86_400_000;

export interface Tombstone {
  prunedAt: string;
  blob: string;
  path: string;
}

const LINE = /^(\S+) ([0-9a-f]{7,64}) (\S.*)$/;

export function parseTombstones(text: string): Tombstone[] {
  const out: Tombstone[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line.trim());
    if (m) out.push({ prunedAt: m[1] as string, blob: m[2] as string, path: m[3] as string });
  }
  return out;
}

export function formatTombstones(list: readonly Tombstone[]): string {
  return list.map((t) => `${t.prunedAt} ${t.blob} ${t.path}\n`).join("");
}

const key = (path: string, blob: string) => `${blob} ${path}`;

/**
 * Both sides' tombstones, one per blob and path (the earliest prune date), sorted; with `nowMs`,
 * those older than TOMBSTONE_DAYS go.
 */
export function unionTombstones(
  sides: readonly (readonly Tombstone[])[],
  nowMs?: number,
): Tombstone[] {
  const byKey = new Map<string, Tombstone>();
  for (const t of sides.flat()) {
    const had = byKey.get(key(t.path, t.blob));
    if (!had || t.prunedAt < had.prunedAt) byKey.set(key(t.path, t.blob), t);
  }
  const fresh = (t: Tombstone) => {
    const at = Date.parse(t.prunedAt);
    return nowMs === undefined || !Number.isFinite(at) || nowMs - at <= TOMBSTONE_DAYS * DAY_MS;
  };
  return [...byKey.values()]
    .filter(fresh)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.blob < b.blob ? -1 : 1));
}

/** The tree without the tombstone file and without every path whose blob a tombstone names. */
export function withoutTombstoned(
  tree: ShareTree,
  tombstones: readonly Tombstone[],
): Map<string, string> {
  const dead = new Set(tombstones.map((t) => key(t.path, t.blob)));
  const out = new Map<string, string>();
  for (const [p, blob] of tree)
    if (p !== TOMBSTONE_PATH && !dead.has(key(p, blob))) out.set(p, blob);
  return out;
}
