/**
 * Reads of large files a command is about to judge, started before its modules load.
 *
 * A one-shot `check` of a large document spends its first tens of milliseconds loading
 * and compiling its modules on the main thread while the disk and the kernel's copy of the
 * file sit idle; reading a 5 MiB file (its pages faulted in one by one) costs about as
 * much. Started from the bin's first lines, the reads run on libuv's thread pool — the other
 * core — meanwhile, and the bin hands the result to the command (`CliIO.prefetched`). Only
 * regular files (never through a link: a link is judged, and maybe refused, before anything
 * of it is used) of at least `PREFETCH_MIN_BYTES`; a read that fails is simply not there,
 * and the command reads the file itself as before. A prefetched file is used once, by the
 * command, after the checks it makes before reading.
 */
import { lstatSync, readFile, realpathSync } from "node:fs";

/** Smaller files are read when needed (a thread-pool round trip gains nothing on them). */
export const PREFETCH_MIN_BYTES = 256 * 1024;

/** Files being read ahead. */
export interface Prefetched {
  /** Wait for the reads started; afterwards `take` answers for them. */
  settle(): Promise<void>;
  /** The bytes read for `abs` (once; later calls answer undefined), or undefined when none were. */
  take(abs: string): Buffer | undefined;
}

/** Start reading each of `paths` that is a regular file of at least PREFETCH_MIN_BYTES. */
export function prefetchFiles(paths: readonly string[]): Prefetched {
  const pending = new Map<string, Promise<Buffer | null>>();
  const ready = new Map<string, Buffer>();
  for (const path of paths) {
    let real: string;
    try {
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (st === undefined || !st.isFile() || st.size < PREFETCH_MIN_BYTES) continue;
      real = realpathSync(path); // looked up by real path: the command names files from the repository's real top level
    } catch {
      continue;
    }
    if (!pending.has(real)) pending.set(real, new Promise((resolve) => readFile(real, (err, bytes) => resolve(err === null ? bytes : null))));
  }
  return {
    async settle() {
      for (const [real, read] of pending) {
        const bytes = await read;
        if (bytes !== null) ready.set(real, bytes);
      }
      pending.clear();
    },
    take(abs) {
      if (ready.size === 0) return undefined;
      let real: string;
      try {
        real = realpathSync(abs);
      } catch {
        return undefined;
      }
      const bytes = ready.get(real);
      ready.delete(real);
      return bytes;
    },
  };
}
