/**
 * Reads of large files a command is about to judge, started before its modules load.
 *
 * A one-shot `check` of a large document spends its first tens of milliseconds loading
 * and compiling its modules on the main thread while the disk and the kernel's copy of the
 * file sit idle, and reading a large file (its pages faulted in one by one) is a cost of
 * the same order (docs/perf/check.md). Started from the bin's first lines, the reads run on libuv's thread pool — the other
 * core — meanwhile, and the bin hands the result to the command (`CliIO.prefetched`). Only
 * regular files (never through a link: a link is judged, and maybe refused, before anything
 * of it is used) of at least `PREFETCH_MIN_BYTES`; a read that fails is simply not there,
 * and the command reads the file itself as before. A prefetched file is used once, by the
 * command, after the checks it makes before reading.
 */
import { type BigIntStats, close, constants, fstatSync, lstatSync, openSync, read, realpathSync } from "node:fs";

/** Smaller files are read when needed (a thread-pool round trip gains nothing on them). */
export const PREFETCH_MIN_BYTES = 256 * 1024;

/** Files being read ahead. */
export interface Prefetched {
  /** Wait for the reads started; afterwards `take` answers for them. */
  settle(): Promise<void>;
  /** The bytes read for `abs` (once; later calls answer undefined), or undefined when none were. */
  take(abs: string): Buffer | undefined;
  /**
   * The bytes read for `abs` when the file is provably the one read: `now` (its stat, taken by
   * a caller that holds the file's lock) names the same file with the same size, mtime and ctime
   * as before the read, and its ctime was old enough then that no write since could have left it
   * unchanged (see unchangedSince). Else undefined: the caller reads the file itself.
   */
  takeUnchanged(abs: string, now: BigIntStats): Buffer | undefined;
}

/**
 * Whether `now` is the file `before` described (taken at wall-clock `beforeAtMs`, before the read
 * began), with nothing written since. Any write sets the ctime to the current time, and an atomic
 * replacement (ours: temp file, rename) makes a new inode; but the kernel's clock for file times
 * advances in ticks (a few ms on Linux; a second or two on some file systems), so a write in the
 * same tick as the one `before` saw could leave every field as it was — git's "racily clean"
 * entry. So the ctime must also have been older than the stat by more than a tick: 50 ms where
 * the times carry sub-second digits, 3 s where they do not (a coarse file system).
 */
export function unchangedSince(before: BigIntStats, beforeAtMs: number, now: BigIntStats): boolean {
  if (before.dev !== now.dev || before.ino !== now.ino || before.size !== now.size || before.mtimeNs !== now.mtimeNs || before.ctimeNs !== now.ctimeNs)
    return false;
  const margin = before.ctimeNs % 1_000_000_000n === 0n ? 3_000 : 50;
  return Number(before.ctimeNs / 1_000_000n) <= beforeAtMs - margin;
}

/**
 * The bytes of the regular file at `path` (null when it cannot be read), in one read on the
 * thread pool. Not fs.readFile: it reads 512 KiB per request and issues the next from the
 * main thread, which is busy loading modules, so most of a large read would wait until they
 * have loaded. The open and the size are taken here, synchronously (cheap). A read returns at most
 * ≈ 2 GiB, and fewer bytes when the file shrank: the rest is read from where it stopped,
 * until the size or the end of the file.
 */
function readWhole(path: string): Promise<Buffer | null> {
  let fd: number;
  let bytes: Buffer;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return Promise.resolve(null);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error("not a regular file");
    bytes = Buffer.allocUnsafe(st.size);
  } catch {
    close(fd, () => undefined);
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const next = (at: number): void => {
      if (at === bytes.length) {
        finish(bytes);
        return;
      }
      read(fd, bytes, at, bytes.length - at, at, (err, n) => {
        if (err !== null) return finish(null);
        if (n === 0) return finish(bytes.subarray(0, at));
        next(at + n);
      });
    };
    const finish = (result: Buffer | null): void => {
      close(fd, () => undefined);
      resolve(result);
    };
    next(0);
  });
}

/** Start reading each of `paths` that is a regular file of at least PREFETCH_MIN_BYTES. */
export function prefetchFiles(paths: readonly string[]): Prefetched {
  const pending = new Map<string, Promise<Buffer | null>>();
  const ready = new Map<string, Buffer>();
  const stats = new Map<string, { st: BigIntStats; atMs: number }>();
  for (const path of paths) {
    let real: string;
    try {
      const atMs = Date.now();
      const st = lstatSync(path, { bigint: true, throwIfNoEntry: false });
      if (st === undefined || !st.isFile() || st.size < BigInt(PREFETCH_MIN_BYTES)) continue;
      real = realpathSync(path); // looked up by real path: the command names files from the repository's real top level
      stats.set(real, { st, atMs });
    } catch {
      continue;
    }
    if (!pending.has(real)) pending.set(real, readWhole(real));
  }
  /** The real path of `abs` when some read is ready, else undefined. */
  const readyReal = (abs: string): string | undefined => {
    if (ready.size === 0) return undefined;
    try {
      return realpathSync(abs);
    } catch {
      return undefined;
    }
  };
  const takeReal = (real: string): Buffer | undefined => {
    const bytes = ready.get(real);
    ready.delete(real);
    return bytes;
  };
  const take = (abs: string): Buffer | undefined => {
    const real = readyReal(abs);
    return real === undefined ? undefined : takeReal(real);
  };
  return {
    async settle() {
      for (const [real, read] of pending) {
        const bytes = await read;
        if (bytes !== null) ready.set(real, bytes);
      }
      pending.clear();
    },
    take,
    takeUnchanged(abs, now) {
      const real = readyReal(abs);
      if (real === undefined) return undefined;
      const before = stats.get(real);
      const bytes = takeReal(real);
      return bytes !== undefined && before !== undefined && BigInt(bytes.length) === now.size && unchangedSince(before.st, before.atMs, now)
        ? bytes
        : undefined;
    },
  };
}
