/**
 * Re-folding top-level sections after an incremental re-parse, touching only what the
 * edit can change.
 *
 * A document's top-level blocks in walk order (`flat`) fold into a tree: each top-level
 * section holds what follows it up to the next heading of the same or a shallower depth
 * (`foldSections`). When an edit replaces blocks [i0, i1) of `flat` with `region`, the
 * fold changes only
 *  - in the children of the sections open where the region starts (and of the root): the
 *    replaced blocks give way to the region's blocks that land there;
 *  - in the region's own sections;
 *  - in the ends of the sections the region leaves open (they shift with the lines);
 * provided the fold leaves the region in the same state it leaves the replaced blocks: the
 * same sections still open, or for an open section of the replaced blocks one of the
 * region at the same depth, which then takes over the blocks after the region that the
 * replaced section held. When that does not hold (a heading added, removed or re-levelled
 * in a way that regroups what follows), `spliceFold` changes nothing of the old tree and
 * returns false: the caller folds everything again.
 *
 * Blocks are located by their first line, binary search over children (which are in line
 * order): `flat` and the tree are the old document's, lines not yet shifted.
 */
import type { BlockNode, SectionNode } from "../ast.js";
import { firstAfterLine, firstAtOrAfterLine } from "../line-search.js";

/** The sections open after the fold took `flat[i - 1]` (outermost first): its ancestors, and itself when it is a section. */
function openBefore(root: readonly BlockNode[], flat: readonly BlockNode[], i: number): SectionNode[] {
  const stack: SectionNode[] = [];
  if (i === 0) return stack;
  const prev = flat[i - 1]!;
  const line = prev.pos.line;
  let list = root;
  for (;;) {
    const lo = firstAfterLine(list, line);
    if (lo === 0) break;
    const c = list[lo - 1]!;
    if (c.type !== "section" || c.endLine < line) break;
    stack.push(c);
    if (c === prev) break;
    list = c.children;
  }
  return stack;
}

/**
 * Fold `region` (fresh blocks, sections childless, new line numbers) into the tree under
 * `root` in place of `flat[i0, i1)` (old line numbers; blocks after the region are shifted
 * by `delta` lines afterwards, by the caller). Returns false, having changed no old node,
 * when the fold after the region would differ.
 */
export function spliceFold(root: BlockNode[], flat: readonly BlockNode[], i0: number, i1: number, region: readonly BlockNode[], delta: number): boolean {
  const before = openBefore(root, flat, i0);
  const oldStack = before.slice();
  for (let i = i0; i < i1; i++) {
    const b = flat[i]!;
    if (b.type !== "section") continue;
    while (oldStack.length > 0 && oldStack[oldStack.length - 1]!.depth >= b.depth) oldStack.pop();
    oldStack.push(b);
  }
  // The region folded from the same stack: blocks landing in an open container are collected
  // per container (index 0: the root, k + 1: before[k]); region sections take theirs directly.
  const newStack = before.slice();
  const adds: BlockNode[][] = [[]];
  for (let k = 0; k < before.length; k++) adds.push([]);
  const ends: Array<[SectionNode, number]> = [];
  for (const b of region) {
    if (b.type === "section") {
      while (newStack.length > 0 && newStack[newStack.length - 1]!.depth >= b.depth) ends.push([newStack.pop()!, b.pos.line - 1]);
    }
    const top = newStack.length > 0 ? newStack[newStack.length - 1]! : null;
    if (top === null) adds[0]!.push(b);
    else if (newStack.length <= before.length && top === before[newStack.length - 1]) adds[newStack.length]!.push(b);
    else top.children.push(b);
    if (b.type === "section") newStack.push(b);
  }
  // Same stack after both: identical sections, or replaced ones of the same depth on both sides.
  if (oldStack.length !== newStack.length) return false;
  const kept = new Set(before);
  for (let k = 0; k < oldStack.length; k++) {
    const o = oldStack[k]!;
    const n = newStack[k]!;
    if (o === n) continue;
    if (kept.has(o) || kept.has(n) || o.depth !== n.depth) return false;
  }
  // Apply. Containers open at the region: replaced children out, the region's in.
  const from = i0 < flat.length ? flat[i0]!.pos.line : Number.POSITIVE_INFINITY;
  const to = i1 < flat.length ? flat[i1]!.pos.line : Number.POSITIVE_INFINITY;
  for (let k = 0; k <= before.length; k++) {
    const list = k === 0 ? root : before[k - 1]!.children;
    const a = firstAtOrAfterLine(list, from);
    const b = firstAtOrAfterLine(list, to);
    const add = adds[k]!;
    if (b - a === add.length) for (let j = 0; j < add.length; j++) list[a + j] = add[j]!;
    else list.splice(a, b - a, ...add);
  }
  for (const [s, end] of ends) s.endLine = end;
  for (let k = 0; k < newStack.length; k++) {
    const o = oldStack[k]!;
    const n = newStack[k]!;
    if (o === n) {
      n.endLine += delta;
      continue;
    }
    // A replaced section still open: its successor takes over what it held after the region.
    const tail = o.children;
    for (let j = firstAtOrAfterLine(tail, to); j < tail.length; j++) n.children.push(tail[j]!);
    n.endLine = o.endLine + delta;
  }
  return true;
}
