/**
 * Atomic file writes: write a temp file beside the target, fsync it, rename it
 * over the target, fsync the directory. Readers see the old bytes or the new
 * bytes, never a torn file; a crash leaves at most a stray temp file.
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync, statSync, chmodSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { randomBytes } from "node:crypto";

export interface WriteFileAtomicOptions {
  /** Called after the temp file is complete and fsynced, just before the rename (fault injection in tests). */
  beforeRename?: () => void;
  /** Permission bits of the written file; default: the target's current ones, else 0644. */
  mode?: number;
}

/** `data`: a string (written as UTF-8), bytes, or bytes in consecutive pieces. */
export function writeFileAtomic(target: string, data: string | Uint8Array | readonly Uint8Array[], options: WriteFileAtomicOptions = {}): void {
  const dir = dirname(target);
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let mode: number | undefined = options.mode === undefined ? undefined : options.mode & 0o777;
  if (mode === undefined) {
    try {
      mode = statSync(target).mode & 0o777;
    } catch {
      mode = undefined;
    }
  }
  const fd = openSync(tmp, "wx", mode ?? 0o644);
  try {
    for (const buf of typeof data === "string" ? [Buffer.from(data, "utf8")] : data instanceof Uint8Array ? [data] : data) {
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    }
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  closeSync(fd);
  options.beforeRename?.();
  try {
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw e;
  }
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    /* directories cannot be fsynced on every platform */
  }
}
