// One parser per git output lib/ reads. Pure; each is tested on output a real git printed
// (test/unit/core/git-parse.test.ts).

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** `rev-parse HEAD` (or `--verify`): the full object id, lowercase, or null for anything else. */
export function parseObjectId(out: string): string | null {
  const v = out.trim().toLowerCase();
  return OBJECT_ID.test(v) ? v : null;
}

// ---------------------------------------------------------------------------------------------
// git status --porcelain (v1)

export type StatusKind =
  | "modified"
  | "added"
  | "deleted"
  | "renamed"
  | "copied"
  | "conflicted"
  | "untracked"
  | "ignored";

/**
 * The kind of a porcelain v1 `XY`: the one classifier. A `C` (a copy, shown when status.renames
 * is `copies`) is "copied", git's own word; a reader with a smaller vocabulary maps it (the
 * checkpoint's uncommitted list calls a copy "added": a new file at that path). Both columns
 * count, the strongest kind first: a conflict, then a rename, an addition, a deletion, a copy.
 */
export function statusKind(xy: string): StatusKind {
  if (xy === "??") return "untracked";
  if (xy === "!!") return "ignored";
  if (xy.includes("U") || xy === "AA" || xy === "DD") return "conflicted";
  if (xy.includes("R")) return "renamed";
  if (xy.includes("A")) return "added";
  if (xy.includes("D")) return "deleted";
  if (xy.includes("C")) return "copied";
  return "modified";
}

export interface StatusEntry {
  /** the line as git printed it */
  line: string;
  xy: string;
  kind: StatusKind;
  /** the path now: a rename's or copy's new name, git's C-style quotes taken off */
  path: string;
}

/** The path a porcelain line names now (the new name of a rename), quotes of git's C-style kept out. */
export function statusPath(line: string): string {
  let p = line.slice(3);
  const arrow = p.indexOf(" -> ");
  if (arrow >= 0) p = p.slice(arrow + 4);
  if (p.startsWith('"') && p.endsWith('"')) p = p.slice(1, -1);
  return p;
}

/** The non-empty lines of `git status --porcelain`. */
export function parseStatusLines(out: string): string[] {
  return out.split("\n").filter((l) => l.trim() !== "");
}

export function parseStatus(out: string): StatusEntry[] {
  return parseStatusLines(out)
    .filter((l) => l.length >= 4)
    .map((line) => {
      const xy = line.slice(0, 2);
      return { line, xy, kind: statusKind(xy), path: statusPath(line) };
    });
}

// ---------------------------------------------------------------------------------------------
// git log --format=<fields joined by tabs>

/** The placeholders lib/ reads from git log, by name. The subject is always last (it may hold tabs). */
export const LOG_FIELDS = {
  full: "%H",
  hash: "%h",
  parents: "%P",
  isoTime: "%cI",
  subject: "%s",
} as const;

export type LogField = keyof typeof LOG_FIELDS;

export interface LogCommit {
  full: string;
  /** the short hash */
  hash: string;
  parents: string[];
  /** committer time, ISO 8601 */
  isoTime: string;
  subject: string;
}

/** `--format=` for these fields, tab-separated, in this order. */
export function logFormat(fields: readonly LogField[]): string {
  return `--format=${fields.map((f) => LOG_FIELDS[f]).join("%x09")}`;
}

/** git log lines printed with logFormat(fields), one commit a line. */
export function parseLog<F extends LogField>(
  fields: readonly F[],
  out: string,
): Pick<LogCommit, F>[] {
  return out
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line) => {
      const parts = line.split("\t");
      const rec: Record<string, string | string[]> = {};
      fields.forEach((f, i) => {
        const v = i === fields.length - 1 ? parts.slice(i).join("\t") : (parts[i] ?? "");
        rec[f] = f === "parents" ? v.trim().split(/\s+/).filter(Boolean) : v;
      });
      return rec as unknown as Pick<LogCommit, F>;
    });
}

// ---------------------------------------------------------------------------------------------
// git diff --stat

export interface DiffStat {
  /** ` path | 3 ++-` lines */
  files: string[];
  /** ` 1 file changed, 2 insertions(+), 1 deletion(-)`, or "" with no change */
  summary: string;
}

export function parseDiffStat(out: string): DiffStat {
  const lines = out.split("\n").filter((l) => l.trim() !== "");
  const last = lines.at(-1) ?? "";
  const isSummary = /^\s*\d+ files? changed\b/.test(last);
  return { files: isSummary ? lines.slice(0, -1) : lines, summary: isSummary ? last : "" };
}

// ---------------------------------------------------------------------------------------------
// Objects: ls-tree -r -l -z, cat-file --batch-check, cat-file --batch

export interface TreeEntry {
  mode: string;
  type: string;
  id: string;
  /** bytes; null for an entry with no size (a submodule's commit) */
  size: number | null;
  path: string;
}

/** `ls-tree -r -z` with or without `-l` (`<mode> <type> <id>[ <size>]\t<path>` records, NUL-ended). */
export function parseLsTree(out: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const rec of out.split("\0")) {
    const m = /^(\d+) (\w+) ([0-9a-f]+)(?: +(\d+|-))?\t(.+)$/s.exec(rec);
    if (!m) continue;
    const size = m[4] === undefined || m[4] === "-" ? null : Number(m[4]);
    entries.push({ mode: m[1]!, type: m[2]!, id: m[3]!, size, path: m[5]! });
  }
  return entries;
}

export interface BatchCheck {
  /** the name asked for (an id, or `<hash>^{commit}`) */
  asked: string;
  /** null: missing (or ambiguous) */
  found: { id: string; type: string; size: number } | null;
}

/** `cat-file --batch-check` for `asked` (one line each, in order). */
export function parseBatchCheck(asked: readonly string[], out: string): BatchCheck[] {
  const lines = out.split("\n");
  return asked.map((name, i) => {
    const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(lines[i] ?? "");
    return { asked: name, found: m ? { id: m[1]!, type: m[2]!, size: Number(m[3]) } : null };
  });
}

const NL = 0x0a;

/**
 * `cat-file --batch` for `ids` in order: `<id> <type> <size>\n<content>\n` each, `<id> missing\n`
 * for an absent one. Sizes are bytes; the text came decoded, so it is walked as UTF-8 bytes (a blob
 * that is not valid UTF-8 reads as what the decoder made of it, found by the next header).
 */
export function parseCatFileBatch(ids: readonly string[], out: string): Map<string, string> {
  const buf = Buffer.from(out, "utf8");
  const found = new Map<string, string>();
  let pos = 0;
  ids.forEach((id, i) => {
    const eol = buf.indexOf(NL, pos);
    if (eol < 0) return;
    const header = buf.toString("utf8", pos, eol);
    const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(header);
    if (!m) {
      pos = eol + 1;
      return;
    }
    const start = eol + 1;
    let end = start + Number(m[3]);
    const next = ids[i + 1];
    const aligned =
      buf[end] === NL &&
      (next === undefined || buf.toString("utf8", end + 1, end + 2 + next.length) === `${next} `);
    if (!aligned) {
      const at = next === undefined ? -1 : buf.indexOf(`\n${next} `, start);
      end = at >= 0 ? at : buf.length - 1;
    }
    found.set(m[1] === id ? id : m[1]!, buf.toString("utf8", start, Math.max(start, end)));
    pos = end + 1;
  });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Commit and merge output (what `git commit`, `merge`, `cherry-pick`, `revert` print)

export interface CommitOutputEntry {
  /** where in the text it was found (for order) */
  index: number;
  /** "" for a merge commit git printed no hash for */
  hash: string;
  subject: string;
  branch: string;
  /**
   * a `git merge` that printed no `[branch hash]` line: `fast-forward` (hash: the HEAD it moved
   * to, from `Updating a..b`) or `commit` (hash "": git named none)
   */
  merge?: "fast-forward" | "commit";
}

/** `[branch hash] subject` lines (`[main (root-commit) 1a2b3c4] x`, `[detached HEAD 1a2b3c4] x`). */
const COMMIT_LINE = /^\[(.+?) ([0-9a-f]{7,40})\] (.+)$/gm;
/** A fast-forward `git merge`: `Updating <from>..<to>` then `Fast-forward` (not `--squash`: HEAD stays). */
const FAST_FORWARD =
  /^Updating ([0-9a-f]{7,40})\.\.([0-9a-f]{7,40})\nFast-forward$(?!\nSquash commit -- not updating HEAD)/gm;
/** A merge commit that git made without printing its hash. */
const MERGE_MADE = /^Merge made by the '[^'\n]+' strategy\.$/gm;

/** The commits a committing command's output reports, in order. */
export function parseCommitOutput(text: string): CommitOutputEntry[] {
  const found: CommitOutputEntry[] = [];
  const clean = text.replace(/\r/g, "");
  for (const m of clean.matchAll(COMMIT_LINE)) {
    const branch = m[1]!.replace(/\s*\(root-commit\)$/, "");
    found.push({ index: m.index, hash: m[2]!, subject: m[3]!.trim(), branch });
  }
  for (const m of clean.matchAll(FAST_FORWARD)) {
    const subject = `fast-forward merge (from ${m[1]!})`;
    found.push({ index: m.index, hash: m[2]!, subject, branch: "", merge: "fast-forward" });
  }
  for (const m of clean.matchAll(MERGE_MADE))
    found.push({ index: m.index, hash: "", subject: "merge commit", branch: "", merge: "commit" });
  return found.sort((a, b) => a.index - b.index);
}
