/**
 * Order strings by their UTF-8 bytes (= by code point): git's index order, and
 * SQLite's BINARY collation of TEXT. JavaScript's `<` compares UTF-16 code
 * units, which agrees except where a surrogate (a code point above U+FFFF)
 * meets a unit in U+E000–U+FFFF; those are the only cases handled specially.
 */

/** A UTF-16 code unit mapped so that numeric order is code point order. */
function unitRank(u: number): number {
  if (u < 0xd800) return u;
  return u < 0xe000 ? u + 0x2000 : u - 0x800;
}

/** Negative, zero or positive as `a` sorts before, equal to or after `b` by UTF-8 bytes. */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x < 0xd800 && y < 0xd800 ? x - y : unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

const SURROGATE = /[\ud800-\udfff]/;

/** Whether `<` on these strings already is UTF-8 order (none holds a surrogate). */
export function nativeOrderIsUtf8(strings: readonly string[]): boolean {
  for (const s of strings) if (SURROGATE.test(s)) return false;
  return true;
}

/**
 * Sort in place by UTF-8 bytes. When no string holds a surrogate, UTF-16 unit order is that order, and
 * `sort()` without a comparator sorts by it natively (no JavaScript call per comparison: about half the time
 * for 20,000 blob ids, issue 38).
 */
export function sortUtf8(strings: string[]): string[] {
  if (nativeOrderIsUtf8(strings)) return strings.sort();
  return strings.sort(compareUtf8);
}
