/**
 * A text's bytes as consecutive pieces: the result of an edit written and hashed from the
 * original's bytes and the inserts, never copied into one buffer.
 */

/** Bytes, whole or in consecutive pieces. */
export type Bytes = Uint8Array | readonly Uint8Array[];

/** How many bytes. */
export function bytesLength(b: Bytes): number {
  if (b instanceof Uint8Array) return b.length;
  let n = 0;
  for (const p of b) n += p.length;
  return n;
}

/** The bytes of `b` in [from, to), as views (in order), without copying. */
export function byteRange(b: Bytes, from: number, to: number): Uint8Array[] {
  if (b instanceof Uint8Array) return [b.subarray(from, to)];
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of b) {
    const end = at + p.length;
    if (end > from && at < to) out.push(p.subarray(Math.max(0, from - at), Math.min(p.length, to - at)));
    if (end >= to) break;
    at = end;
  }
  return out;
}
