/**
 * The structural view of a document: what it says, without where it says it.
 * Positions, attribute offsets and recovery flags are dropped, so two parses
 * can be compared for the roundtrip property parse(render(parse(x))) ≡ parse(x),
 * and `render --to json` has a stable, source-independent shape.
 */
import type { AttrValue, BlockNode, NomaDocument } from "./ast.js";

export type StructuralNode = { type: string } & Record<string, unknown>;

function attrsWithout(attrs: Record<string, AttrValue>, key: string): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (const k of Object.keys(attrs)) if (k !== key) out[k] = attrs[k]!;
  return out;
}

function blockStructure(node: BlockNode): StructuralNode {
  switch (node.type) {
    case "section":
      return {
        type: "section",
        depth: node.depth,
        title: node.title,
        id: node.id ?? null,
        aliases: node.aliases,
        attrs: attrsWithout(node.attrs, "id"),
        children: node.children.map(blockStructure),
      };
    case "directive":
      return {
        type: "directive",
        name: node.name,
        id: node.id ?? null,
        aliases: node.aliases,
        attrs: { ...node.attrs },
        children: node.children.map(blockStructure),
      };
    case "paragraph":
      return { type: "paragraph", text: node.text };
    case "code":
      return { type: "code", lang: node.lang, content: node.content };
    case "list":
      return { type: "list", ordered: node.ordered, items: node.children.map((i) => i.text) };
    case "quote":
      return { type: "quote", text: node.text };
    case "thematic_break":
      return { type: "thematic_break" };
    case "table":
      return { type: "table", header: node.header, align: node.align, rows: node.rows };
  }
}

export interface DocumentStructure {
  type: "document";
  frontmatter: { raw: string; data: unknown } | null;
  children: StructuralNode[];
}

export function documentStructure(doc: NomaDocument): DocumentStructure {
  return {
    type: "document",
    frontmatter: doc.frontmatter !== undefined ? { raw: doc.frontmatter.raw, data: doc.frontmatter.data ?? null } : null,
    children: doc.children.map(blockStructure),
  };
}
