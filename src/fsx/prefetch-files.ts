/**
 * Reads of large files a command is about to judge, started before its modules load.
 *
 * A one-shot `check` of a large document spends its first tens of milliseconds loading
 * and compiling its modules on the main thread while the disk and the kernel's copy of the
 * file sit idle; reading a 5 MiB file (its pages faulted in one by one) costs about as
 * much. Started from the bin's first lines, the read runs on libuv's thread pool — the other
 * core — meanwhile. Only regular files (never through a link: a link is judged, and maybe
 * refused, before anything of it is used) of at least `PREFETCH_MIN_BYTES`; a read that fails
 * is simply not there, and the command reads the file itself as before. A prefetched file
 * is used once, by the command that asked for it, after the checks it makes before reading.
 */
import { lstatSync, readFile, realpathSync } from "node:fs";

/** Smaller files are read when needed (a thread-pool round trip gains nothing on them). */
export const PREFETCH_MIN_BYTES = 256 * 1024;

const pending = new Map<string, Promise<Buffer | null>>();
const ready = new Map<string, Buffer>();

/** Start reading `path` when it is a regular file of at least PREFETCH_MIN_BYTES. */
export function prefetchFile(path: string): void {
  let real: string;
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile() || st.size < PREFETCH_MIN_BYTES) return;
    real = realpathSync(path); // files are looked up by real path: the command names them from the repository's real top level
  } catch {
    return;
  }
  if (pending.has(real) || ready.has(real)) return;
  pending.set(real, new Promise((resolve) => readFile(real, (err, bytes) => resolve(err === null ? bytes : null))));
}

/** Wait for the reads started; afterwards takePrefetched answers for them. */
export async function settlePrefetched(): Promise<void> {
  for (const [abs, read] of pending) {
    const bytes = await read;
    if (bytes !== null) ready.set(abs, bytes);
  }
  pending.clear();
}

/** The bytes read for `abs` (once; later calls answer undefined), or undefined when none were. */
export function takePrefetched(abs: string): Buffer | undefined {
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
}
