import { writeSync } from "node:fs";

/** How long a full pipe is waited for in all (EAGAIN on a non-blocking stdout whose reader is slow). */
const FULL_PIPE_WAIT_MS = 5000;

/**
 * Write all of `text` to fd 1 or 2, synchronously. NOTE: not process.stdout or process.stderr:
 * making either stream loads node's tty, net and stream modules, about 5 ms on a file and 15 ms
 * on a pipe (Claude Code's), on every engine run and every status-line draw. A stdout left
 * non-blocking by its parent answers EAGAIN when full: that is waited out (bounded), not lost. A
 * reader gone (EPIPE) or any other error ends the write quietly: there is no one to tell.
 */
function writeFd(fd: 1 | 2, text: string): void {
  let rest = Buffer.from(text, "utf8");
  let waited = 0;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN" || waited >= FULL_PIPE_WAIT_MS) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      waited += 1;
    }
  }
}

export const writeStdout = (text: string): void => writeFd(1, text);
export const writeStderr = (text: string): void => writeFd(2, text);
