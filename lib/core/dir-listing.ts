import * as path from "node:path";
import type { FsApi } from "./deps.ts";

/**
 * The one symlink rule for listings: lstat, and only regular files count. NOTE: lstat, not stat: a
 * symlink in memory/ or checkpoints/ could point at any file on the machine (or a FIFO that blocks a
 * read); a listing that followed it would let a restore show, or a cleanup move, what this tool
 * never wrote. null when the entry is missing, unreadable or not a regular file.
 */
export function regularFileStat(
  fs: FsApi,
  file: string,
): { mtimeMs: number; size: number; ino: number } | null {
  try {
    const st = fs.lstatSync(file);
    return st.isFile() ? { mtimeMs: st.mtimeMs, size: st.size, ino: Number(st.ino) } : null;
  } catch {
    return null;
  }
}

/**
 * Names and paths in code-unit order, the order of sortedNames. NOTE: not localeCompare: its first
 * call builds an ICU collator, about 8 ms, which a hook or a restore would pay on any mtime tie.
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface FoundFile {
  path: string;
  mtimeMs: number;
}

/** A folder's entry names, sorted; [] when it is missing or unreadable. */
export function sortedNames(fs: FsApi, dir: string): string[] {
  try {
    return fs.readdirSync(dir).slice().sort();
  } catch {
    return [];
  }
}

/** Files in one folder matching a test, newest first (mtime). */
export function listByMtime(fs: FsApi, dir: string, test: (name: string) => boolean): FoundFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: FoundFile[] = [];
  for (const name of names) {
    if (!test(name)) continue;
    const full = path.join(dir, name);
    const st = regularFileStat(fs, full);
    if (st) out.push({ path: full, mtimeMs: st.mtimeMs });
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs || compareNames(b.path, a.path));
}
