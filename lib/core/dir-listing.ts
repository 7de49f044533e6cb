import * as path from "node:path";
import type { FsApi } from "./deps.ts";

export interface FoundFile {
  path: string;
  mtimeMs: number;
}

/** A folder's entry names, sorted; [] when it is missing or unreadable. */
export function sortedNames(fs: FsApi, dir: string): string[] {
  try {
    return (fs.readdirSync(dir) as string[]).slice().sort();
  } catch {
    return [];
  }
}

/** Files in one folder matching a test, newest first (mtime). */
export function listByMtime(fs: FsApi, dir: string, test: (name: string) => boolean): FoundFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir) as string[];
  } catch {
    return [];
  }
  const out: FoundFile[] = [];
  for (const name of names) {
    if (!test(name)) continue;
    const full = path.join(dir, name);
    try {
      const st = fs.statSync(full);
      if (st.isFile()) out.push({ path: full, mtimeMs: st.mtimeMs });
    } catch {
      continue;
    }
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs || b.path.localeCompare(a.path));
}
