/**
 * Binary searches over nodes in line order (children, walk orders, directive lists).
 */

interface Positioned {
  readonly pos: { readonly line: number };
}

/** Index of the first node whose first line is ≥ `line` (the length when none is). */
export function firstAtOrAfterLine(list: readonly Positioned[], line: number): number {
  return firstAfterLine(list, line - 1);
}

/** Index of the first node whose first line is > `line` (the length when none is). */
export function firstAfterLine(list: readonly Positioned[], line: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.pos.line <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
