/**
 * Read a file and hash it (BLAKE3, and optionally git's blob id of the same
 * bytes). Hashing a whole repository is dominated by system calls, so a file
 * costs open + read + close: one read into a reused 1 MiB buffer covers any
 * file that fits (a short read is end of file); larger files stream through
 * the same buffer, so memory stays flat. `fstat` is called only when the
 * caller wants the stat data.
 */
import { closeSync, fstatSync, openSync, readSync, type BigIntStats } from "node:fs";
import { createHash } from "node:crypto";
import type { Blake3 } from "./blake3.js";

const BUFFER_BYTES = 1024 * 1024;
let shared: Buffer | null = null;

export interface FileHash {
  blake3: string;
  /** git's object id of the bytes (only when requested). */
  blobId: string | null;
  /** fstat of the file that was read (only when requested). */
  stat: BigIntStats | null;
  size: number;
  /** First bytes (up to 8000) for binary sniffing, when requested. */
  head: Uint8Array | null;
}

export interface HashFileOptions {
  /** Also compute git's blob id with this algorithm. */
  blobAlgorithm?: "sha1" | "sha256";
  /** Keep (a copy of) the first 8000 bytes. */
  keepHead?: boolean;
  /** Also return fstat of the opened file. */
  stat?: boolean;
}

function blobId(algorithm: "sha1" | "sha256", bytes: Uint8Array): string {
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Hash the regular file at `abs`; null if it does not exist or is not a regular file. */
export function hashFile(abs: string, b3: Blake3, options: HashFileOptions = {}): FileHash | null {
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "ELOOP") return null;
    throw e;
  }
  try {
    const stat = options.stat === true ? fstatSync(fd, { bigint: true }) : null;
    if (stat !== null && !stat.isFile()) return null;
    const buf = (shared ??= Buffer.allocUnsafe(BUFFER_BYTES));
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EISDIR") return null;
      throw e;
    }
    const head = options.keepHead === true ? Buffer.from(buf.subarray(0, Math.min(n, 8000))) : null;
    if (n < buf.length) {
      const bytes = buf.subarray(0, n);
      return {
        blake3: b3.hashHex(bytes),
        blobId: options.blobAlgorithm !== undefined ? blobId(options.blobAlgorithm, bytes) : null,
        stat,
        size: n,
        head,
      };
    }
    // Larger than the buffer: stream (the blob id's header needs the length, so ask for it now).
    const expected = Number((stat ?? fstatSync(fd, { bigint: true })).size);
    const git = options.blobAlgorithm !== undefined ? createHash(options.blobAlgorithm).update(`blob ${expected}\0`) : null;
    const hasher = b3.createHasher();
    let total = 0;
    try {
      do {
        const chunk = buf.subarray(0, n);
        hasher.update(chunk);
        git?.update(chunk);
        total += n;
        n = readSync(fd, buf, 0, buf.length, null);
      } while (n > 0);
      // A file that changed length while being read cannot match a blob id computed for the old length.
      return { blake3: hasher.digestHex(), blobId: git !== null && total === expected ? git.digest("hex") : null, stat, size: total, head };
    } finally {
      hasher.dispose();
    }
  } finally {
    closeSync(fd);
  }
}
