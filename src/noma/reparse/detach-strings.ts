/**
 * Strings that hold no reference to the text they were cut from.
 *
 * V8 represents a slice of 13 or more characters as a view of its parent string, which
 * then stays alive as long as the slice does. A node re-parsed after an edit takes its
 * title, attribute values, cells and texts from the edited text; were they views, every
 * node re-parsed by an op of a list would keep that op's whole text alive, and a list would
 * hold a copy of the document per op (docs/perf/patch.md). The nodes of a
 * re-parsed region are small, so their strings are copied once instead.
 */

/** Below this length V8 copies a slice rather than viewing its parent (SlicedString::kMinLength). */
const MIN_VIEW = 13;

/**
 * `s` as a string of its own. Prepending a character makes a rope; slicing it flattens the
 * rope into a new sequential string first, and the result (a copy, or a view of that small
 * copy) no longer refers to whatever `s` was cut from. The characters are the same.
 */
export function detachString(s: string): string {
  return s.length < MIN_VIEW ? s : ` ${s}`.slice(1);
}

/**
 * Replace every string reachable from `roots` through plain objects and arrays (node
 * fields, attributes, cells, children) by a detached copy, in place. Equal strings share
 * one copy; frozen values (shared constants) are left as they are.
 */
export function detachNodeStrings(roots: readonly object[]): void {
  const copies = new Map<string, string>();
  const seen = new Set<object>();
  const copy = (s: string): string => {
    if (s.length < MIN_VIEW) return s;
    let c = copies.get(s);
    if (c === undefined) {
      c = detachString(s);
      copies.set(s, c);
    }
    return c;
  };
  const visit = (value: object): void => {
    if (seen.has(value) || Object.isFrozen(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (typeof v === "string") value[i] = copy(v);
        else if (v !== null && typeof v === "object") visit(v);
      }
      return;
    }
    const rec = value as Record<string, unknown>;
    for (const key of Object.keys(rec)) {
      const v = rec[key];
      if (typeof v === "string") rec[key] = copy(v);
      else if (v !== null && typeof v === "object") visit(v);
    }
  };
  for (const r of roots) visit(r);
}
