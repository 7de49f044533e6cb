// The shared ref's content as data: a map from `<task>/<session id>/<checkpoint file>` to a blob
// id, the three-way merge of two such maps, and the origin header each shared blob starts with.

/** The ref a clone records its shares on; pushed as is. */
export const SHARE_REF = "refs/quoin/checkpoints";

/** Where `fetch` puts a remote's shares: never over SHARE_REF, which may hold unpushed shares. */
export function remoteShareRef(remote: string): string {
  return `refs/quoin/remotes/${remote}/checkpoints`;
}

/** path -> blob id */
export type ShareTree = ReadonlyMap<string, string>;

/** A path segment git and every file system accept: no slash, no dot-only name, no control bytes. */
export function safeSegment(raw: string | null | undefined, fallback: string): string {
  const s = (raw ?? "")
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+|-+$/g, "")
    .slice(0, 80);
  return s === "" ? fallback : s;
}

export function sharePath(
  task: string | undefined,
  sessionId: string | null | undefined,
  name: string,
): string {
  return `${safeSegment(task, "no-task")}/${safeSegment(sessionId, "unknown-session")}/${safeSegment(name, "checkpoint.md")}`;
}

/**
 * Both sides' additions; a path either side removed since the common base stays removed, so a
 * prune on one clone is never undone by another clone's older history. A path both sides changed
 * (a re-share of one file) takes ours: names are unique per session, so only one machine writes it.
 */
export function mergeShareTrees(
  base: ShareTree,
  ours: ShareTree,
  theirs: ShareTree,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of new Set([...ours.keys(), ...theirs.keys()])) {
    const mine = ours.get(p);
    const other = theirs.get(p);
    if (base.has(p) && (mine === undefined || other === undefined)) continue;
    out.set(p, (mine ?? other) as string);
  }
  return out;
}

/** Who shared a checkpoint, from where: the first line of its blob. */
export interface ShareOrigin {
  user: string;
  host: string;
  branch: string;
  /** ISO time of the share */
  sharedAt: string;
}

const HEADER = /^<!-- quoin-share (\{.*\}) -->\n/;

function field(v: unknown): string {
  return typeof v === "string" ? v.replace(/[^\x20-\x7e]/g, "").slice(0, 120) : "";
}

export function withOriginHeader(origin: ShareOrigin, text: string): string {
  const json = JSON.stringify({
    user: origin.user,
    host: origin.host,
    branch: origin.branch,
    sharedAt: origin.sharedAt,
  }).replace(/-->/g, "--\\u003e");
  return `<!-- quoin-share ${json} -->\n${text}`;
}

/** The origin and the checkpoint text under it; a blob without a header has an unknown origin. */
export function splitOriginHeader(blob: string): { origin: ShareOrigin | null; text: string } {
  const m = HEADER.exec(blob);
  if (!m) return { origin: null, text: blob };
  try {
    const o = JSON.parse(m[1] as string) as Record<string, unknown>;
    return {
      origin: {
        user: field(o["user"]),
        host: field(o["host"]),
        branch: field(o["branch"]),
        sharedAt: field(o["sharedAt"]),
      },
      text: blob.slice(m[0].length),
    };
  } catch {
    return { origin: null, text: blob.slice(m[0].length) };
  }
}

/** `alice@laptop, branch main, 2026-12-02T18:20Z` */
export function originLabel(o: ShareOrigin | null): string {
  if (!o) return "origin unknown";
  const who = [o.user, o.host].filter(Boolean).join("@") || "someone";
  return `${who}, branch ${o.branch || "?"}, ${o.sharedAt || "?"}`;
}

/** The paths to keep when pruning: those whose checkpoint file name `keep` accepts. */
export function prunedShareTree(
  tree: ShareTree,
  keep: (fileName: string) => boolean,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [p, id] of tree) if (keep(p.slice(p.lastIndexOf("/") + 1))) out.set(p, id);
  return out;
}
