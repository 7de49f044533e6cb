import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import { titleOf } from "../store/checkpoint-sections.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import type { Deps, FsApi } from "../core/deps.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import { oversized, SHARED_BLOB_MAX, type ShareGit } from "./share-git.ts";
import { originLabel, splitOriginHeader, type ShareOrigin } from "./share-tree.ts";

// Checkpoints other clones shared, as fetched into refs/quoin/remotes/<remote>/checkpoints:
// listed beside local ones (`s1`, `s2`, ... so a local number never means a shared one), shown,
// and copied into this clone's checkpoints folder when a person picks one.

export interface SharedCheckpoint {
  /** `s1`, `s2`, ... newest first */
  label: string;
  remote: string;
  /** <task>/<session id>/<file name> on the ref */
  path: string;
  name: string;
  blob: string;
  task: string | null;
  branch: string | null;
  sessionId: string | null;
  savedAt: string | null;
  origin: ShareOrigin | null;
  from: string;
}

const REMOTE_REF = /^refs\/quoin\/remotes\/(.+)\/checkpoints$/;

/** `skipped shared checkpoint a/b/c.md (20.0 MB, over the 64 KB bound): not read` */
function skippedLine(remote: string, path: string, size: number): string {
  const mb =
    size >= 1024 * 1024 ? `${(size / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(size / 1024)} KB`;
  return `[checkpoint] skipped shared checkpoint ${path} from ${remote} (${mb}, over the ${SHARED_BLOB_MAX / 1024} KB bound): not read, not shared again`;
}

/**
 * Every fetched shared checkpoint that is not already a file here: this clone's own shares come
 * back on fetch, and an adopted one was copied in under its name. A same-named file of another
 * session (two machines, one minute) does not hide it. Sizes first (one ls-tree a remote), a blob
 * over the bound skipped with one line through `warn`, then one cat-file for the rest: 3,000
 * shared checkpoints cost two git processes, not 3,000.
 */
export function listSharedCheckpoints(
  git: ShareGit,
  local: { fs: FsApi; checkpoints: string; warn?: (line: string) => void },
): SharedCheckpoint[] {
  if (!git.isRepository()) return [];
  const refs = git.refsUnder("refs/quoin/remotes/").filter((r) => REMOTE_REF.test(r));
  if (refs.length === 0) return [];
  const seen = new Set<string>();
  const picked: { remote: string; path: string; id: string; size: number | null }[] = [];
  for (const ref of refs) {
    const remote = (REMOTE_REF.exec(ref) as RegExpExecArray)[1] as string;
    for (const e of git.treeEntries(git.resolve(ref))) {
      // the tombstone file (root level) is not a checkpoint
      if (seen.has(e.path) || !e.path.includes("/")) continue;
      seen.add(e.path);
      if (oversized(e)) local.warn?.(skippedLine(remote, e.path, e.size ?? 0));
      else picked.push({ remote, path: e.path, id: e.id, size: e.size });
    }
  }
  const texts = git.readBlobs(picked);
  const names = localNames(local);
  const out: Omit<SharedCheckpoint, "label">[] = [];
  for (const { remote, path: p, id } of picked) {
    const blob = texts.get(id);
    if (blob === undefined) continue;
    const { origin, text } = splitOriginHeader(blob);
    const parsed = parseCheckpoint(text);
    const name = p.slice(p.lastIndexOf("/") + 1);
    if (isHere(local, names, name, parsed.sessionId ?? null)) continue;
    out.push({
      remote,
      path: p,
      name,
      blob: id,
      task: parsed.task ?? null,
      branch: parsed.branch ?? null,
      sessionId: parsed.sessionId ?? null,
      savedAt: parsed.savedAt ?? null,
      origin,
      from: originLabel(origin),
    });
  }
  out.sort((a, b) => cmp(b.savedAt, a.savedAt) || cmp(b.path, a.path));
  return out.map((c, i) => ({ label: `s${i + 1}`, ...c }));
}

/** The file names in the checkpoints folder, read once (3,000 shared ones cost one listing). */
function localNames(local: { fs: FsApi; checkpoints: string }): Set<string> {
  try {
    return new Set(local.fs.readdirSync(local.checkpoints, { encoding: "utf8" }));
  } catch {
    return new Set();
  }
}

function isHere(
  local: { fs: FsApi; checkpoints: string },
  names: ReadonlySet<string>,
  name: string,
  sid: string | null,
): boolean {
  if (!names.has(name)) return false;
  const file = path.join(local.checkpoints, name);
  try {
    return (
      parseCheckpoint(splitOriginHeader(readTextByRule(local.fs, file)).text).sessionId === sid
    );
  } catch {
    return false;
  }
}

function cmp(a: string | null, b: string | null): number {
  const x = a ?? "";
  const y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `s2` or `2` -> the shared checkpoint, or a refusal naming the range. */
export function findShared(
  shared: readonly SharedCheckpoint[],
  arg: string,
): { ok: true; shared: SharedCheckpoint } | { ok: false; reason: string; expected: string } {
  const m = /^s?(\d+)$/i.exec(arg.trim());
  const found = m ? shared[Number(m[1]) - 1] : undefined;
  if (found) return { ok: true, shared: found };
  return {
    ok: false,
    reason:
      shared.length === 0
        ? "no shared checkpoint fetched here"
        : `no shared checkpoint ${arg}; expected s1 to s${shared.length} (see list)`,
    expected: shared.length === 0 ? "fetch first, then list" : "a shared number from list, e.g. s1",
  };
}

/** `s1.  <saved>  task [branch]  name  shared by ...` */
export function sharedRowText(c: SharedCheckpoint): string {
  return `${c.label.padStart(3)}.   ${(c.savedAt ?? "?").padEnd(26)} ${c.task ?? `(no ${titleOf("task")})`}  [${c.branch ?? "?"}]  ${c.name}  shared by ${c.from} (${c.remote})`;
}

/** Relative artifact paths (as redaction left them) resolved against this clone, `~/` against this home. */
function localizeSharedText(text: string, root: string, home: string): string {
  return text
    .split("\n")
    .map((line) => {
      const m =
        /^(- (?:current-plan\.md|architecture\.md|latest critic-response|latest review|session-state): )(.+)$/.exec(
          line,
        );
      if (!m) return line;
      const value = (m[2] as string).trim();
      if (value.startsWith("(") || path.isAbsolute(value)) return line;
      const abs = value.startsWith("~/") ? path.join(home, value.slice(2)) : path.join(root, value);
      return `${m[1]}${abs}`;
    })
    .join("\n");
}

/**
 * The picked shared checkpoint as a file of this clone's checkpoints folder (the same name; a
 * different local file of that name keeps it, the copy gets `-shared`). Its origin header stays.
 */
export function adoptShared(
  deps: Deps,
  git: ShareGit,
  paths: MemoryPaths,
  c: SharedCheckpoint,
): string {
  const blob = git.readBlob(c.blob);
  const { text } = splitOriginHeader(blob);
  const header = blob.slice(0, blob.length - text.length);
  const local = `${header}${localizeSharedText(text, paths.root, deps.home)}`;
  let file = path.join(paths.checkpoints, c.name);
  if (deps.fs.existsSync(file) && readTextByRule(deps.fs, file) !== local)
    file = path.join(paths.checkpoints, c.name.replace(/\.md$/, "-shared.md"));
  writeAtomic(deps.fs, file, local, { mode: 0o600 });
  return file;
}
