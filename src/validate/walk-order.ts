import type { BlockNode } from "../noma/ast.js";

/** The document's blocks in walk order, top-level sections taken apart (each followed by what it folds). */
export function walkOrder(nodes: readonly BlockNode[], out: BlockNode[]): BlockNode[] {
  for (const n of nodes) {
    out.push(n);
    if (n.type === "section") walkOrder(n.children, out);
  }
  return out;
}
