/**
 * Depth-first, document-order traversal of block nodes.
 */
import type { BlockNode, NomaDocument } from "./ast.js";

/** Call `visit(node, parent)` for every block in document order; return false from `visit` to skip a subtree. */
// biome-ignore lint/suspicious/noConfusingVoidType: a visitor returns false to skip a subtree, or nothing
export function walkBlocks(doc: NomaDocument, visit: (node: BlockNode, parent: BlockNode | null) => boolean | void): void {
  const go = (nodes: BlockNode[], parent: BlockNode | null): void => {
    for (const node of nodes) {
      if (visit(node, parent) === false) continue;
      if (node.type === "section" || node.type === "directive") go(node.children, node);
    }
  };
  go(doc.children, null);
}

/** Ids and aliases in the shape of a conformance `expected.ids.json`. */
export function idSummary(doc: NomaDocument): { canonical: string[]; aliases: Record<string, string[]> } {
  const aliases: Record<string, string[]> = {};
  for (const [id, list] of doc.aliasesById) aliases[id] = [...list];
  return { canonical: [...doc.ids], aliases };
}
