/**
 * Everything a parse gives, as plain data to compare an incremental re-parse with a full one: the
 * tree, the id index with its maps in their order, the problems; nodes named by type and line.
 */
import { expect } from "vitest";
import { astToJson, type NomaDocument } from "../../../../src/internal.js";
import type { BlockNode } from "../../../../src/noma/ast.js";
import { walkBlocks } from "../../../../src/noma/parse-memo.js";

/** The top-level blocks in walk order, from the tree (each top-level section followed by what it folds). */
function walkOrder(nodes: readonly BlockNode[], out: BlockNode[] = []): BlockNode[] {
  for (const n of nodes) {
    out.push(n);
    if (n.type === "section") walkOrder(n.children, out);
  }
  return out;
}

/**
 * The snapshot of `doc`. `walk`: also assert that the kept walk order is the tree's, node for node;
 * `lineStarts`: include the line index.
 */
export function parseSnapshot(doc: NomaDocument, options: { walk?: boolean; lineStarts?: boolean } = {}): unknown {
  const at = (n: { type: string; pos: { line: number } }): string => `${n.type}@${n.pos.line}`;
  if (options.walk === true) {
    const kept = walkBlocks(doc)!;
    const tree = walkOrder(doc.children);
    expect(kept.length).toBe(tree.length);
    for (let i = 0; i < tree.length; i++) expect(kept[i]).toBe(tree[i]);
  }
  return {
    ast: astToJson(doc),
    ids: doc.ids,
    nodeById: [...doc.nodeById].map(([id, n]) => [id, at(n)]),
    duplicateIds: [...doc.duplicateIds].map(([id, ns]) => [id, ns.map(at)]),
    aliasesById: [...doc.aliasesById],
    aliasMap: [...doc.aliasMap],
    problems: doc.problems,
    ...(options.lineStarts === true ? { lineStarts: [...doc.lineStarts] } : {}),
  };
}
