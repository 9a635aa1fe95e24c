/**
 * Replacing a run of an array: in place when few elements move (the caller owns the
 * array and no one else reads it any more), else into a new array.
 */

/** Elements moved by an in-place splice beyond which a new array is built instead. */
const IN_PLACE = 4096;

/** `list` with [from, to) replaced by `items`: `list` itself when that was cheap, else a new array. */
export function spliceArray<T>(list: T[], from: number, to: number, items: readonly T[]): T[] {
  if (to - from === items.length) {
    for (let k = 0; k < items.length; k++) list[from + k] = items[k]!;
    return list;
  }
  if (items.length <= IN_PLACE) {
    list.splice(from, to - from, ...items);
    return list;
  }
  return list.slice(0, from).concat(items, list.slice(to));
}
