import * as path from "node:path";
import type { FsApi } from "./deps.ts";
import { refuseSymlinkedTree } from "./memory-tree-guard.ts";
import { utcDate } from "./time-format.ts";
import { ensureDir } from "./memory-dir.ts";

/**
 * Nothing is deleted: move `file` to <memory>/trash/<YYYY-MM-DD>/<name>[-N]. Returns the new path.
 * Throws when the file cannot be moved (callers that must fail open catch it).
 */
export function trashMove(fs: FsApi, file: string, memoryDir: string, now: Date): string {
  const dir = path.join(memoryDir, "trash", utcDate(now));
  refuseSymlinkedTree(fs, file);
  // Only a file goes to trash: the rename fallback below would otherwise move a whole folder.
  if (!fs.lstatSync(file).isFile()) throw new Error(`not a regular file, left in place: ${file}`);
  ensureDir(fs, dir);
  const base = path.basename(file);
  for (let n = 1; n <= 10_000; n += 1) {
    const target = path.join(dir, n === 1 ? base : `${base}-${n}`);
    try {
      // link + unlink claims a free name without replacing an earlier trashed file.
      fs.linkSync(file, target);
      fs.unlinkSync(file);
      return target;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST") continue;
      if (code === "EPERM" || code === "EXDEV" || code === "ENOTSUP" || code === "EMLINK") {
        if (fs.existsSync(target)) continue;
        fs.renameSync(file, target);
        return target;
      }
      throw err;
    }
  }
  throw new Error(`no free name for ${base} in ${dir}`);
}

/** Best effort: move if present, report what happened instead of throwing. */
export function trashIfPresent(
  fs: FsApi,
  file: string,
  memoryDir: string,
  now: Date,
): string | null {
  if (!fs.existsSync(file)) return null;
  try {
    return trashMove(fs, file, memoryDir, now);
  } catch {
    return null;
  }
}
