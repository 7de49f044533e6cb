import { nodeFs } from "./node-deps.ts";

/**
 * Put fd 0 in non-blocking mode, so that a read of a stdin that never closes answers EAGAIN instead
 * of holding a libuv thread: a held thread keeps process.exit from ending the process, and the
 * deadline would log and then hang until the client's timeout. NOTE: libuv's pipe handle is the
 * only way node sets O_NONBLOCK on an fd it did not open (Claude Code's stdin is a socket pair);
 * process.stdin would do it too, at the cost of the whole stream stack on every prompt. When it
 * cannot (another kind of stdin), reads stay blocking and the deadline may not end a stall.
 */
function stdinFd(): number {
  try {
    const binding = (
      process as unknown as {
        binding: (name: string) => {
          Pipe: new (type: number) => { open: (fd: number) => number };
          constants: { SOCKET: number };
        };
      }
    ).binding("pipe_wrap");
    new binding.Pipe(binding.constants.SOCKET).open(0);
  } catch {
    // a regular file or /dev/null: reads end by themselves
  }
  return 0;
}

/**
 * A hook's stdin, whole, or null when it is over the cap or unreadable. NOTE: readSync on fd 0
 * instead of process.stdin: the stream machinery costs milliseconds on every prompt; and sync
 * reads of the non-blocking fd, not fs.read: an async read starts libuv's four pool threads
 * (clone, futex) for one small payload. EAGAIN (nothing yet) is retried on a timer, so the
 * deadline timer can still fire while the client is slow to write.
 */
export function readStdin(cap: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fd = stdinFd();
    const next = (): void => {
      for (;;) {
        const buf = Buffer.allocUnsafe(64 * 1024);
        let n: number;
        try {
          n = nodeFs.readSync(fd, buf, 0, buf.length, null);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          // EAGAIN: a non-blocking stdin with nothing yet; try again shortly.
          if (code === "EAGAIN") {
            setTimeout(next, 2);
            return;
          }
          resolve(code === "EOF" ? Buffer.concat(chunks).toString("utf8") : null);
          return;
        }
        if (n === 0) {
          resolve(Buffer.concat(chunks).toString("utf8"));
          return;
        }
        size += n;
        if (size > cap) {
          resolve(null);
          return;
        }
        chunks.push(buf.subarray(0, n));
      }
    };
    next();
  });
}
