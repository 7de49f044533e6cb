import * as path from "node:path";
import type { FsApi } from "./deps.ts";
import { ensureDir } from "./memory-dir.ts";
import { createByRule } from "./safe-file.ts";

let counter = 0;
function tempName(target: string, pid: number): string {
  counter += 1;
  return path.join(path.dirname(target), `.${path.basename(target)}.${pid}.${counter}.tmp`);
}

/**
 * Create a fresh temp file beside the target. pid and counter are unique among live processes;
 * a leftover of a crashed process with a recycled pid is stepped over (EEXIST), never reused. A
 * write that fails (a full disk) removes its temp file: nothing is left behind.
 */
function createTemp(fs: FsApi, target: string, data: string, pid: number, mode: number): string {
  for (let attempt = 0; ; attempt++) {
    const tmp = tempName(target, pid);
    try {
      createByRule(fs, tmp, data, mode);
      return tmp;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 1000) throw err;
    }
  }
}

export interface WriteOptions {
  /** File mode for a new file; 0o600 for anything that may hold private text. */
  mode?: number;
  pid?: number;
}

/** Write a temp file beside the target, then rename: a reader sees the old file or the new one, never half. */
export function writeAtomic(
  fs: FsApi,
  target: string,
  data: string,
  opts: WriteOptions = {},
): void {
  ensureDir(fs, path.dirname(target));
  const tmp = createTemp(fs, target, data, opts.pid ?? 0, opts.mode ?? 0o644);
  try {
    fs.renameSync(tmp, target);
  } catch (err) {
    removeQuietly(fs, tmp);
    throw err;
  }
}

/**
 * Create `target` only if nothing is there, atomically and whole: the content goes to a temp file,
 * then a hard link claims the name (link fails with EEXIST instead of replacing). Returns false
 * when the name is taken.
 */
export function createExclusive(
  fs: FsApi,
  target: string,
  data: string,
  opts: WriteOptions = {},
): boolean {
  ensureDir(fs, path.dirname(target));
  const tmp = createTemp(fs, target, data, opts.pid ?? 0, opts.mode ?? 0o644);
  try {
    fs.linkSync(tmp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    removeQuietly(fs, tmp);
  }
}

/**
 * Remove the temp files a process left in `dir` (its writes cut short: killed between creating a
 * temp file and renaming or removing it). Only for a process known to be gone: a live one's write
 * in flight would lose its temp file. Returns the names removed.
 */
export function removeTempsOf(fs: FsApi, dir: string, pid: number): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir) as string[];
  } catch {
    return [];
  }
  const suffix = new RegExp(`^\\..+\\.${pid}\\.\\d+\\.tmp$`);
  const removed = names.filter((name) => suffix.test(name));
  for (const name of removed) removeQuietly(fs, path.join(dir, name));
  return removed;
}

function removeQuietly(fs: FsApi, file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // gone already: the error that matters is the one being thrown
  }
}

/**
 * Create a new file named by `nameFor(n)` for n = 1, 2, 3 ... taking the first free name.
 * Two writers in the same minute each get their own file; neither is overwritten.
 */
export function createUnique(
  fs: FsApi,
  dir: string,
  nameFor: (n: number) => string,
  data: string,
  opts: WriteOptions = {},
): string {
  for (let n = 1; n <= 1000; n += 1) {
    const target = path.join(dir, nameFor(n));
    if (createExclusive(fs, target, data, opts)) return target;
  }
  throw new Error(`could not find a free file name in ${dir} after 1000 tries`);
}
