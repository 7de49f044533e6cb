import type { FsApi } from "./deps.ts";

/** Bytes [start, end) of an open file; shorter only if the file shrank under us. */
export function readRange(fs: FsApi, fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, end - start));
  let got = 0;
  while (got < buf.length) {
    const n = fs.readSync(fd, buf, got, buf.length - got, start + got);
    if (n <= 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * Open `file` read-only, hand the fd and size to `use`, always close. null when it cannot be
 * opened or is no regular file. NOTE: the stat comes before the open: opening a FIFO with no writer
 * blocks the whole process (no timer can fire), and a directory or a device has no end to read to.
 */
export function withOpenFile<T>(fs: FsApi, file: string, use: (fd: number, size: number) => T, opts: { lstatted?: boolean } = {}): T | null {
  let fd: number;
  try {
    // `lstatted`: the caller has just seen a regular file (regularFileStat), so the stat is not repeated.
    if (!opts.lstatted && !fs.statSync(file).isFile()) return null;
    fd = fs.openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    return st.isFile() ? use(fd, st.size) : null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A file's text, or null when it is absent or unreadable. NOTE: existsSync first: the usual
 * answer on the hooks' paths is "no such file", and a thrown ENOENT costs more than the probe.
 */
export function readTextOrNull(fs: FsApi, file: string): string | null {
  if (!fs.existsSync(file)) return null;
  try {
    // A FIFO or a device (a symlink to /dev/zero) would block or never end: regular files only.
    if (!fs.statSync(file).isFile()) return null;
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * At most the first `bytes` of a file as text, null when it cannot be read: a huge or odd file costs
 * nothing more. The one way lib/ reads a file's head (sentinels, checkpoint heads, transcript heads).
 */
export function readHead(fs: FsApi, file: string, bytes: number, opts: { lstatted?: boolean } = {}): string | null {
  try {
    return withOpenFile(fs, file, (fd, size) => readRange(fs, fd, 0, Math.min(size, bytes)).toString("utf8"), opts);
  } catch {
    return null;
  }
}
