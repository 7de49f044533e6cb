import type { FsApi } from "./deps.ts";
import { openByRule, openForRead } from "./safe-file.ts";

/** Read bytes [start, start + length) of an open file into `buf` at 0; how many came (fewer only if the file shrank under us). */
function readInto(fs: FsApi, fd: number, buf: Buffer, start: number, length: number): number {
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, start + got);
    if (n <= 0) break;
    got += n;
  }
  return got;
}

/** Bytes [start, end) of an open file; shorter only if the file shrank under us. */
export function readRange(fs: FsApi, fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, end - start));
  return buf.subarray(0, readInto(fs, fd, buf, start, buf.length));
}

/**
 * Open `file` read-only by the one rule (lib/core/safe-file.ts: a regular file, opened
 * non-blocking, never through a symlink in the tool's own trees), hand the fd and size to `use`,
 * always close. null when it cannot be opened or is no regular file.
 */
export function withOpenFile<T>(
  fs: FsApi,
  file: string,
  use: (fd: number, size: number) => T,
  _opts: { lstatted?: boolean } = {},
): T | null {
  const fd = openForRead(fs, file);
  if (fd === null) return null;
  try {
    return use(fd, fs.fstatSync(fd).size);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A file's text, or null when it is absent, refused or unreadable. NOTE: existsSync first: the
 * usual answer on the hooks' paths is "no such file", and a thrown ENOENT costs more than the probe.
 */
export function readTextOrNull(fs: FsApi, file: string): string | null {
  if (!fs.existsSync(file)) return null;
  try {
    return withOpenFile(fs, file, (fd, size) => readAll(fs, fd, size).toString("utf8"));
  } catch {
    return null;
  }
}

/**
 * A file's whole text by the safe-file rule; throws when it cannot be read (ENOENT, a refused
 * symlink or FIFO: RefusedFileError), so a caller can say why.
 */
export function readTextByRule(fs: FsApi, file: string): string {
  const fd = openByRule(fs, file, "read");
  try {
    return readAll(fs, fd, fs.fstatSync(fd).size).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** Everything from an open fd: `size` first, then on until the end (a file that grew under us). */
function readAll(fs: FsApi, fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let at = 0;
  let want = Math.max(size, 64 * 1024);
  for (;;) {
    const buf = Buffer.allocUnsafe(want);
    const got = readInto(fs, fd, buf, at, want);
    chunks.push(buf.subarray(0, got));
    at += got;
    if (got < want) return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    want = 64 * 1024;
  }
}

/**
 * At most the first `bytes` of a file as text, null when it cannot be read: a huge or odd file costs
 * nothing more. The one way lib/ reads a file's head (sentinels, checkpoint heads, transcript heads).
 */
export function readHead(
  fs: FsApi,
  file: string,
  bytes: number,
  opts: { lstatted?: boolean } = {},
): string | null {
  try {
    return withOpenFile(
      fs,
      file,
      (fd, size) => readRange(fs, fd, 0, Math.min(size, bytes)).toString("utf8"),
      opts,
    );
  } catch {
    return null;
  }
}

export interface BackwardScan {
  /** first read from the end */
  initialChunk: number;
  /** each further read is this many times larger, up to maxChunk */
  growth: number;
  maxChunk: number;
  /** never read more than this many bytes in all */
  maxScan: number;
  /** asked after each read's lines were visited: true stops before reading further back */
  stopAfterChunk?: (scanned: number) => boolean;
}

export interface BackwardScanResult {
  scanned: number;
  /** every line down to the file's first byte was visited */
  reachedStart: boolean;
  /** the visitor stopped the scan */
  stopped: boolean;
}

const NEWLINE = 0x0a;

/**
 * Visit the complete lines of an open file from the last to the first, reading backwards in
 * growing chunks, never more than `maxScan` bytes. A line cut by the budget is not visited.
 * `visit` returns true to stop. The lines handed over are views into the read buffer: copy what
 * must outlive the call.
 */
export function scanLinesBackwards(
  fs: FsApi,
  fd: number,
  size: number,
  scan: BackwardScan,
  visit: (line: Buffer) => boolean,
): BackwardScanResult {
  let chunk = scan.initialChunk;
  let end = size;
  let carry: Buffer = Buffer.alloc(0);
  let scanned = 0;
  while (end > 0 && scanned < scan.maxScan) {
    const start = Math.max(0, end - Math.min(chunk, scan.maxScan - scanned));
    // Read straight into a buffer with room for the partial line carried from the last read:
    // copying each chunk again (Buffer.concat) was the scan's largest cost.
    const buf = Buffer.allocUnsafe(end - start + carry.length);
    const got = readInto(fs, fd, buf, start, end - start);
    scanned += got;
    carry.copy(buf, got);
    const data = buf.subarray(0, got + carry.length);
    let segEnd = data.length;
    for (;;) {
      const idx = segEnd > 0 ? data.lastIndexOf(NEWLINE, segEnd - 1) : -1;
      // Before the first newline of a read that did not start at 0, the line is incomplete.
      if (idx < 0 && start > 0) break;
      const line = data.subarray(idx + 1, segEnd);
      if (line.length > 0 && visit(line)) return { scanned, reachedStart: false, stopped: true };
      if (idx < 0) break;
      segEnd = idx;
    }
    if (start === 0) return { scanned, reachedStart: true, stopped: false };
    carry = data.subarray(0, segEnd);
    end = start;
    if (scan.stopAfterChunk?.(scanned)) return { scanned, reachedStart: false, stopped: true };
    chunk = Math.min(chunk * scan.growth, scan.maxChunk);
  }
  return { scanned, reachedStart: end === 0, stopped: false };
}
