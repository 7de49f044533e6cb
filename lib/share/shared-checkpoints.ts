import { readTextByRule } from "../core/file-range.ts";
import * as path from "node:path";
import { titleOf } from "../store/checkpoint-sections.ts";
import { writeAtomic } from "../core/atomic-write.ts";
import type { Deps, FsApi } from "../core/deps.ts";
import { parseCheckpoint } from "../store/checkpoint-parse.ts";
import type { MemoryPaths } from "../store/memory-paths.ts";
import type { ShareGit } from "./share-git.ts";
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

/**
 * Every fetched shared checkpoint that is not already a file here: this clone's own shares come
 * back on fetch, and an adopted one was copied in under its name. A same-named file of another
 * session (two machines, one minute) does not hide it.
 */
export function listSharedCheckpoints(
  git: ShareGit,
  local: { fs: FsApi; checkpoints: string },
): SharedCheckpoint[] {
  if (!git.isRepository()) return [];
  const refs = git
    .run(["for-each-ref", "--format=%(refname)", "refs/quoin/remotes/"])
    .stdout.split("\n")
    .filter((r) => REMOTE_REF.test(r));
  if (refs.length === 0) return [];
  const seen = new Set<string>();
  const out: Omit<SharedCheckpoint, "label">[] = [];
  for (const ref of refs) {
    const remote = (REMOTE_REF.exec(ref) as RegExpExecArray)[1] as string;
    for (const [p, blob] of git.readTree(git.resolve(ref))) {
      // the tombstone file (root level) is not a checkpoint
      if (seen.has(p) || !p.includes("/")) continue;
      seen.add(p);
      const { origin, text } = splitOriginHeader(git.readBlob(blob));
      const parsed = parseCheckpoint(text);
      if (isHere(local, p.slice(p.lastIndexOf("/") + 1), parsed.sessionId ?? null)) continue;
      out.push({
        remote,
        path: p,
        name: p.slice(p.lastIndexOf("/") + 1),
        blob,
        task: parsed.task ?? null,
        branch: parsed.branch ?? null,
        sessionId: parsed.sessionId ?? null,
        savedAt: parsed.savedAt ?? null,
        origin,
        from: originLabel(origin),
      });
    }
  }
  out.sort((a, b) => cmp(b.savedAt, a.savedAt) || cmp(b.path, a.path));
  return out.map((c, i) => ({ label: `s${i + 1}`, ...c }));
}

function isHere(
  local: { fs: FsApi; checkpoints: string },
  name: string,
  sid: string | null,
): boolean {
  const file = path.join(local.checkpoints, name);
  if (!local.fs.existsSync(file)) return false;
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
