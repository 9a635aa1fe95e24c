/** Position of `v` in an ascending array, or -1 (a binary search). */
export function sortedIndexOf(a: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < a.length && a[lo] === v ? lo : -1;
}
