/**
 * Fast path for the cache's hex columns (issue 38, the cold `changed` that writes 20,000 memo rows):
 * checking that a string is lowercase hex of given lengths without a regular expression per row,
 * and packing a column of digests into raw bytes with one native decode instead of one per row.
 * Equal to the per-row regular expressions they replace (`HASH_HEX`, `BLOB_HEX`, `^[0-9a-f]*$` with
 * a length check): test/cache/hex-columns.property.test.ts.
 */

/** Whether `s` is `length` lowercase hex digits. */
export function isLowerHex(s: string, length: number): boolean {
  if (s.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const c = s.charCodeAt(i);
    // 0-9, a-f
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Whether `s` is a BLAKE3 digest as stored: 64 lowercase hex digits (`HASH_HEX`). */
export function isHashHex(s: string): boolean {
  return isLowerHex(s, 64);
}

/** Whether `s` is a git object id: 40 or 64 lowercase hex digits (`BLOB_HEX`). */
export function isBlobHex(s: string): boolean {
  return s.length === 40 ? isLowerHex(s, 40) : isLowerHex(s, 64);
}

/** Raw bytes of lowercase hex digests, `width` bytes each; throws naming the first that is not `width * 2` lowercase hex digits. */
export function packHex(hexes: readonly string[], width: number, what: string): Buffer {
  const chars = width * 2;
  for (const h of hexes) if (!isLowerHex(h, chars)) throw new Error(`cannot pack ${what} ${JSON.stringify(h)}`);
  return Buffer.from(hexes.join(""), "hex");
}
