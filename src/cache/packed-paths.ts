/**
 * A list of paths as one byte string: UTF-8, separated by NUL (which no git
 * path contains). Decoding is one native decode and one split, not a call per
 * path.
 */
import { isAscii } from "node:buffer";

/** Bytes of `paths` joined by NUL. */
export function packPaths(paths: readonly string[]): Buffer {
  for (const p of paths) if (p.length === 0 || p.includes("\0")) throw new Error(`cannot pack path ${JSON.stringify(p)}`);
  return Buffer.from(paths.join("\0"), "utf8");
}

/** View any Uint8Array as a Buffer (no copy). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decode UTF-8 bytes (latin1 when they are ASCII: the same text, decoded faster). */
export function decodeText(bytes: Uint8Array): string {
  const b = asBuffer(bytes);
  return b.toString(isAscii(b) ? "latin1" : "utf8");
}

/** The `n` paths packed in `bytes`; throws when the count disagrees (a damaged chunk). */
export function unpackPaths(bytes: Uint8Array, n: number): string[] {
  if (n === 0 && bytes.length === 0) return [];
  const out = decodeText(bytes).split("\0");
  if (out.length !== n) throw new Error(`packed paths hold ${out.length} entries, expected ${n}`);
  return out;
}
