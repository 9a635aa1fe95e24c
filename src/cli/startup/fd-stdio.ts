/**
 * Standard output and error written to their file descriptors, without `process.stdout` and
 * `process.stderr` where that makes no difference.
 *
 * Creating either stream loads Node's stream modules (and `net` for a pipe): ≈ 4–8 ms of CPU
 * at every start, on a command that prints one line (`check`, the pre-commit hook's
 * `check --staged`) or none (docs/perf/check.md). Where the descriptor is a regular file, a
 * pipe or a socket (a shell's `|` is a FIFO, Node's own `spawn` gives a child a socketpair) or
 * a memory device (`/dev/null`), the stream would write the same bytes with write(2) (a file
 * or a device: `SyncWriteStream`, at once; a pipe or socket: at once, and what a full one
 * cannot take yet when it can), so the bytes are written here with `writeSync` (a full pipe
 * makes it wait for the reader instead: for one-shot commands only, never for a server).
 * Anything else — a terminal, Windows, a descriptor fstat cannot read — goes
 * through the stream as before, and so does the rest of the output after a write that does
 * not complete (EAGAIN on a pipe another process left non-blocking, any error but EPIPE on
 * standard output: the stream then behaves as it always did). The slow path is the stream
 * itself; test/cli/startup/fd-stdio.test.ts holds the two to the same bytes.
 */
import { fstatSync, type Stats, writeSync } from "node:fs";

/** The major number of a Linux device id (glibc's `gnu_dev_major`, without 32-bit truncation). */
export function deviceMajor(rdev: number): number {
  return ((Math.floor(rdev / 256) & 0xfff) | (Math.floor(rdev / 2 ** 32) & ~0xfff)) >>> 0;
}

function statOf(fd: number): Stats | undefined {
  try {
    return fstatSync(fd);
  } catch {
    return undefined;
  }
}

/** Linux's memory devices (`/dev/null`, `/dev/zero`, `/dev/full`): character devices that are never terminals. */
function isMemoryDevice(st: Stats): boolean {
  return process.platform === "linux" && st.isCharacterDevice() && deviceMajor(st.rdev) === 1;
}

/**
 * Is descriptor `fd` a terminal, answered from fstat where that is certain (a file, a pipe, a
 * socket, a memory device: no); undefined when only the stream can tell (a character device,
 * Windows, an unreadable descriptor).
 */
export function isTerminalFd(fd: number): boolean | undefined {
  if (process.platform === "win32") return undefined;
  const st = statOf(fd);
  if (st === undefined) return undefined;
  if (st.isFile() || st.isFIFO() || st.isSocket() || isMemoryDevice(st)) return false;
  return undefined;
}

/** May bytes for `fd` be written with writeSync, as the stream would write them? */
export function writesDirectly(fd: number): boolean {
  if (process.platform === "win32") return false;
  const st = statOf(fd);
  return st !== undefined && (st.isFile() || st.isFIFO() || st.isSocket() || isMemoryDevice(st));
}

/**
 * A writer for descriptor `fd`: writeSync while `writesDirectly(fd)`, else (and after a write
 * that did not complete) `stream()`. `onBrokenPipe` is called on EPIPE (the reader went away)
 * instead of handing the rest to the stream.
 */
export function fdWriter(fd: number, stream: () => NodeJS.WritableStream, onBrokenPipe?: () => void): (text: string) => void {
  let direct: boolean | undefined;
  return (text) => {
    direct ??= writesDirectly(fd);
    if (!direct) {
      stream().write(text);
      return;
    }
    const bytes = Buffer.from(text, "utf8");
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EPIPE" && onBrokenPipe !== undefined) {
        onBrokenPipe();
        return;
      }
      direct = false;
      stream().write(bytes.subarray(off));
    }
  };
}
