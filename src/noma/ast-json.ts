/**
 * The document tree as plain JSON (for `parse` and for tools): every node with
 * its `pos`/`endLine`, without the bulky source arrays; Maps become objects.
 */
import type { BlockNode, NomaDocument } from "./ast.js";

function nodeJson(node: BlockNode): Record<string, unknown> {
  switch (node.type) {
    case "section":
      return { ...node, attrs: { ...node.attrs }, children: node.children.map(nodeJson) };
    case "directive":
      return { ...node, attrs: { ...node.attrs }, children: node.children.map(nodeJson) };
    default:
      return { ...node };
  }
}

export function astToJson(doc: NomaDocument): Record<string, unknown> {
  const aliases: Record<string, string[]> = {};
  for (const [id, list] of doc.aliasesById) aliases[id] = list;
  return {
    type: "document",
    pos: doc.pos,
    endLine: doc.endLine,
    frontmatter: doc.frontmatter ?? null,
    children: doc.children.map(nodeJson),
    problems: doc.problems,
    ids: doc.ids,
    aliases,
    aliasMap: Object.fromEntries(doc.aliasMap),
  };
}
