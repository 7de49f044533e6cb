import * as path from "node:path";
import type { FsApi } from "./deps.ts";

// THE rule for every file the tool opens, reads, appends or creates in its own trees: the
// project's `.workflow_artifacts/` (the memory folder, a task's cost-ledger.md), the config
// folder's `quoin-checkpoint/` (session state, the hook log, dispatch cache) and the cache folder's
// `quoin-checkpoint/` (the prompt hook's code cache). There a file is opened only when it is a
// regular file reached without following a symlink at any step: every folder from the tree's
// root down is lstat-ed, the leaf is opened with O_NOFOLLOW, and every open is O_NONBLOCK so that
// a FIFO answers at once (ENXIO, or an fd that fstat shows is no regular file) instead of
// blocking the whole process, where no deadline timer can fire. A repository can commit any of
// those paths, so a symlink there could send an append into ~/.bashrc or a read to /dev/stdout.
// Outside the trees (transcripts, settings.json, git's own files) symlinks are followed, as a
// dotfile manager needs, but the regular-file and non-blocking parts of the rule still hold.

/** The folders a tree starts at; the last one named in a path is the tree it lies in. */
const ARTIFACTS_TREE = ".workflow_artifacts";
const OWN_TREE = "quoin-checkpoint";

// Linux's values, where node's fs.constants lacks one (Windows has no O_NOFOLLOW or O_NONBLOCK).
function flag(fs: FsApi, name: "O_NOFOLLOW" | "O_NONBLOCK"): number {
  return (fs.constants as Partial<Record<string, number>> | undefined)?.[name] ?? 0;
}

/** Why a file was not opened: a symlink or a non-regular file where the tool keeps its own files. */
export class RefusedFileError extends Error {
  override readonly name = "RefusedFileError";
}

// Refused paths, each named once per process (the edges drain them into the hook log or onto
// stderr). NOTE: module state, because the rule is applied deep inside readers that are handed
// an FsApi only; a test reads and clears it through takeRefusals.
const refusals = new Map<string, string>();
let refusalsSeen = new Set<string>();

function refuse(file: string, why: string): RefusedFileError {
  const line = `${file} is ${why}`;
  if (!refusalsSeen.has(file)) {
    refusalsSeen.add(file);
    refusals.set(file, line);
  }
  return new RefusedFileError(line);
}

/** Name a path refused by another rule of the same kind (the project root's ownership check). */
export function noteRefusal(file: string, why: string): void {
  refuse(file, why);
}

/** The refusal lines not yet reported, each path once per process; clears them. */
export function takeRefusals(): string[] {
  const out = [...refusals.values()];
  refusals.clear();
  return out;
}

/** For tests: forget which paths were already named. */
export function resetRefusals(): void {
  refusals.clear();
  refusalsSeen = new Set<string>();
}

/**
 * Index in `parts` of the first folder the walk checks, or -1 outside the tool's trees. A
 * `.workflow_artifacts` is checked itself (a repository commits it); a config or cache folder's
 * `quoin-checkpoint/` is the user's own, so the walk starts below it (and a project folder that
 * happens to be named quoin-checkpoint may still be a symlink).
 */
function treeStart(parts: readonly string[]): number {
  const artifacts = parts.lastIndexOf(ARTIFACTS_TREE);
  if (artifacts >= 0) return artifacts;
  const own = parts.lastIndexOf(OWN_TREE);
  return own >= 0 ? own + 1 : -1;
}

/** True when `file` lies in one of the tool's own trees (the strict half of the rule applies). */
export function inOwnTree(file: string): boolean {
  const parts = path.resolve(file).split(path.sep);
  const artifacts = parts.lastIndexOf(ARTIFACTS_TREE);
  const root = artifacts >= 0 ? artifacts : parts.lastIndexOf(OWN_TREE);
  return root >= 0 && root < parts.length - 1;
}

/**
 * The lstat walk: throws a RefusedFileError when a folder of the tree on the way to `file` is a
 * symlink or not a folder. A folder that does not exist yet ends the walk (what mkdir makes from
 * there down is real). Nothing is checked outside the trees.
 */
export function refuseSymlinkedFolders(fs: FsApi, file: string): void {
  const parts = path.resolve(file).split(path.sep);
  const at = treeStart(parts);
  if (at < 0) return;
  for (let i = at; i < parts.length - 1; i += 1) {
    const dir = parts.slice(0, i + 1).join(path.sep) || path.sep;
    let st: ReturnType<FsApi["lstatSync"]>;
    try {
      st = fs.lstatSync(dir);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) throw refuse(dir, FOLDER_LINK);
    if (!st.isDirectory()) throw refuse(dir, "not a folder; quoin-checkpoint does not write in it");
  }
}

const FOLDER_LINK =
  "a symlink; quoin-checkpoint does not write through it (replace it with a folder)";
const FILE_LINK = "a symlink; quoin-checkpoint does not follow it";
const notRegular = (kind: string) =>
  `${kind}, not a regular file; quoin-checkpoint does not open it`;

type OpenMode = "read" | "append" | "create";

function openFlags(fs: FsApi, mode: OpenMode, strict: boolean): number {
  const c = fs.constants;
  const base =
    mode === "read"
      ? c.O_RDONLY
      : mode === "append"
        ? c.O_WRONLY | c.O_APPEND | c.O_CREAT
        : c.O_WRONLY | c.O_CREAT | c.O_EXCL;
  return base | flag(fs, "O_NONBLOCK") | (strict ? flag(fs, "O_NOFOLLOW") : 0);
}

/**
 * Open `file` by the rule; the fd of a regular file. Throws a RefusedFileError for a symlink (in
 * the trees), a FIFO, a device, a socket or a folder, and the fs error otherwise (ENOENT ...).
 */
export function openByRule(fs: FsApi, file: string, mode: OpenMode, fileMode = 0o644): number {
  const strict = inOwnTree(file);
  if (strict) refuseSymlinkedFolders(fs, file);
  let fd: number;
  try {
    fd = fs.openSync(file, openFlags(fs, mode, strict), fileMode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // O_NOFOLLOW on a symlink: ELOOP (Linux), EMLINK (FreeBSD). A FIFO without a reader: ENXIO.
    if (strict && (code === "ELOOP" || code === "EMLINK")) throw refuse(file, FILE_LINK);
    if (code === "ENXIO") throw refuse(file, notRegular("a FIFO"));
    if (code === "EISDIR") throw refuse(file, notRegular("a folder"));
    throw err;
  }
  let kind = "";
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile())
      kind = st.isFIFO() ? "a FIFO" : st.isDirectory() ? "a folder" : "a device or socket";
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  if (kind) {
    fs.closeSync(fd);
    throw refuse(file, notRegular(kind));
  }
  return fd;
}

/** Open for reading by the rule; null when the file is missing, refused or unreadable. */
export function openForRead(fs: FsApi, file: string): number | null {
  try {
    return openByRule(fs, file, "read");
  } catch {
    return null;
  }
}

function writeAll(fs: FsApi, fd: number, data: string | Uint8Array): void {
  let rest = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
  while (rest.length > 0) rest = rest.subarray(fs.writeSync(fd, rest));
}

/**
 * Append `text` with O_APPEND (concurrent writers interleave whole lines), creating the file
 * when absent. Throws a RefusedFileError for a symlink or a non-regular file, and I/O errors.
 */
export function appendByRule(fs: FsApi, file: string, text: string, fileMode = 0o644): void {
  const fd = openByRule(fs, file, "append", fileMode);
  try {
    writeAll(fs, fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Create `file`, which must not exist (O_EXCL: never through a symlink, never over a file), with
 * `data`. A write that fails (ENOSPC, EIO) removes the half-written file before throwing, so an
 * interrupted write leaves nothing behind.
 */
export function createByRule(
  fs: FsApi,
  file: string,
  data: string | Uint8Array,
  fileMode = 0o644,
): void {
  const fd = openByRule(fs, file, "create", fileMode);
  try {
    writeAll(fs, fd, data);
  } catch (err) {
    fs.closeSync(fd);
    try {
      fs.unlinkSync(file);
    } catch {
      // already gone
    }
    throw err;
  }
  fs.closeSync(fd);
}
