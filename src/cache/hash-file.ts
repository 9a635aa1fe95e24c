/**
 * Read a file and hash it (BLAKE3, and optionally git's blob id of the same
 * bytes). Small files are read whole with one read; large files stream through
 * a fixed buffer so memory stays flat.
 */
import { closeSync, fstatSync, openSync, readSync, type BigIntStats } from "node:fs";
import { createHash } from "node:crypto";
import type { Blake3 } from "./blake3.js";

/** Files up to this size are read in one go. */
export const WHOLE_READ_LIMIT = 32 * 1024 * 1024;
const CHUNK = 8 * 1024 * 1024;

export interface FileHash {
  blake3: string;
  /** git's object id of the bytes (only when requested). */
  blobId: string | null;
  /** fstat of the file that was read. */
  stat: BigIntStats;
  size: number;
  /** First bytes (up to 8000) for binary sniffing, when requested. */
  head: Uint8Array | null;
}

export interface HashFileOptions {
  /** Also compute git's blob id with this algorithm. */
  blobAlgorithm?: "sha1" | "sha256";
  /** Keep the first 8000 bytes. */
  keepHead?: boolean;
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
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) return null;
    const size = Number(stat.size);
    const git = options.blobAlgorithm !== undefined ? createHash(options.blobAlgorithm) : null;
    if (size <= WHOLE_READ_LIMIT) {
      const buf = Buffer.allocUnsafe(size);
      let off = 0;
      while (off < size) {
        const n = readSync(fd, buf, off, size - off, off);
        if (n === 0) break;
        off += n;
      }
      const bytes = off === size ? buf : buf.subarray(0, off);
      if (git !== null) git.update(`blob ${bytes.length}\0`).update(bytes);
      return {
        blake3: b3.hashHex(bytes),
        blobId: git?.digest("hex") ?? null,
        stat,
        size: bytes.length,
        head: options.keepHead === true ? bytes.subarray(0, 8000) : null,
      };
    }
    const hasher = b3.createHasher();
    const buf = Buffer.allocUnsafe(CHUNK);
    let head: Uint8Array | null = null;
    let total = 0;
    try {
      git?.update(`blob ${size}\0`);
      for (;;) {
        const n = readSync(fd, buf, 0, CHUNK, null);
        if (n === 0) break;
        const chunk = buf.subarray(0, n);
        if (head === null && options.keepHead === true) head = Buffer.from(chunk.subarray(0, 8000));
        hasher.update(chunk);
        git?.update(chunk);
        total += n;
      }
      const blake3 = hasher.digestHex();
      // A file that changed size while being read cannot match a blob id computed with the old length.
      const blobId = git !== null && total === size ? git.digest("hex") : null;
      return { blake3, blobId, stat, size: total, head };
    } finally {
      hasher.dispose();
    }
  } finally {
    closeSync(fd);
  }
}
