/**
 * Read a file and hash it (BLAKE3, and optionally git's blob id of the same
 * bytes). Hashing a whole repository is dominated by system calls, so a file
 * costs open + read + close: one read into a reused 1 MiB buffer covers any
 * file that fits (a short read is end of file); larger files stream through
 * the same buffer, so memory stays flat. `fstat` is called only when the
 * caller wants the stat data (then: open → fstat → read, one path lookup, and
 * anything but a regular file is left unread).
 *
 * The file is opened non-blocking where the platform has the flag: a FIFO in
 * the work tree must not block the open until a writer appears (reads of a
 * regular file are unaffected).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type BigIntStats } from "node:fs";
import * as crypto from "node:crypto";
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

/** Bytes kept free before the data in the shared buffer: room for git's `blob <size>\0` header. */
const HEADER_ROOM = 32;

/** One-shot digests (Node ≥ 20.12): several times cheaper per small file than a Hash object. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: "hex") => string }).hash;

/** git's object id of the `n` bytes at `buf[HEADER_ROOM…]`: the header is written just before them, and both are hashed in one call. */
function blobIdAt(algorithm: "sha1" | "sha256", buf: Buffer, n: number): string {
  const header = `blob ${n}\0`;
  if (oneShot === undefined)
    return createHash(algorithm)
      .update(header)
      .update(buf.subarray(HEADER_ROOM, HEADER_ROOM + n))
      .digest("hex");
  const at = HEADER_ROOM - header.length;
  buf.write(header, at, "latin1");
  return oneShot(algorithm, buf.subarray(at, HEADER_ROOM + n), "hex");
}

/** O_RDONLY | O_NONBLOCK where both exist (POSIX), else plain read-only. */
const OPEN_FLAGS = typeof constants.O_NONBLOCK === "number" ? constants.O_RDONLY | constants.O_NONBLOCK : "r";

/** Hash the regular file at `abs`; null if it does not exist or is not a regular file. */
export function hashFile(abs: string, b3: Blake3, options: HashFileOptions = {}): FileHash | null {
  let fd: number;
  try {
    fd = openSync(abs, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "ELOOP" || code === "ENXIO") return null;
    throw e;
  }
  try {
    const stat = options.stat === true ? fstatSync(fd, { bigint: true }) : null;
    if (stat !== null && !stat.isFile()) return null;
    const whole = (shared ??= Buffer.allocUnsafe(HEADER_ROOM + BUFFER_BYTES));
    let n: number;
    try {
      n = readSync(fd, whole, HEADER_ROOM, BUFFER_BYTES, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EISDIR") return null;
      throw e;
    }
    const buf = whole.subarray(HEADER_ROOM);
    const head = options.keepHead === true ? Buffer.from(buf.subarray(0, Math.min(n, 8000))) : null;
    if (n < buf.length) {
      return {
        blake3: b3.hashHex(buf.subarray(0, n)),
        blobId: options.blobAlgorithm !== undefined ? blobIdAt(options.blobAlgorithm, whole, n) : null,
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
