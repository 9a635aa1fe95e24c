/**
 * The checksum that vouches for a compile-cache file's payload (load-cached-body.ts), in
 * JavaScript: SHA-256 needed node:crypto, whose loading (it pulls in Node's stream modules)
 * cost a one-shot `check` more CPU than anything else it loads at start-up (docs/perf/check.md).
 *
 * What it must catch is a torn or damaged file in a directory only the user can write
 * (compile-cache-dir.ts refuses any other), never a forgery: two 32-bit lanes over the
 * payload's 32-bit words (in the machine's byte order, the cache being per architecture; the
 * last one zero-padded), each step a bijection of
 * the lane's state for a given word and of the word for a given state. So a change to any one
 * word — any flipped bit — always changes both lanes; a torn tail changes the length, which
 * the header carries and the lanes take last; other damage goes unnoticed with a probability
 * of about 2⁻⁶⁴.
 */

/** The 8-byte checksum of `bytes`: lane one, then lane two. */
export function cacheChecksum(bytes: Uint8Array): Buffer {
  const whole = bytes.length >>> 2;
  // Word access needs 4-byte alignment: a payload sliced from the middle of a file is copied once.
  const aligned = (bytes.byteOffset & 3) === 0 ? bytes : Uint8Array.from(bytes);
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, whole);
  let a = 0x811c9dc5 | 0;
  let b = 0x6a09e667 | 0;
  for (let i = 0; i < whole; i++) {
    const w = words[i]!;
    a = Math.imul(a ^ w, 0x01000193);
    const t = Math.imul((b + w) | 0, 0x85ebca6b | 0);
    b = t ^ (t >>> 13);
  }
  if ((bytes.length & 3) !== 0) {
    let w = 0;
    for (let k = bytes.length - 1; k >= whole << 2; k--) w = (w << 8) | bytes[k]!;
    a = Math.imul(a ^ w, 0x01000193);
    const t = Math.imul((b + w) | 0, 0x85ebca6b | 0);
    b = t ^ (t >>> 13);
  }
  // The length last (the header carries it too): payloads whose padded words agree differ in it.
  a = Math.imul(a ^ bytes.length, 0x01000193);
  const t = Math.imul((b + bytes.length) | 0, 0x85ebca6b | 0);
  b = t ^ (t >>> 13);
  const out = Buffer.alloc(8);
  out.writeInt32LE(a, 0);
  out.writeInt32LE(b, 4);
  return out;
}
