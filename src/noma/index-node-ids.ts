/**
 * A document's id index (canonical ids, aliases, node by id, duplicates) from its
 * node tree, and the id index builder a parse starts from (the frontmatter's
 * aliases and the extra root aliases go to the root section).
 */
import type { BlockNode, DirectiveNode, FrontmatterNode, NomaDocument, SectionNode } from "./ast.js";
import { getAttr, splitAliases } from "./attributes.js";
import { IdIndexBuilder } from "./id-index-builder.js";

function frontmatterAliases(data: unknown): string[] {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return [];
  const value = (data as Record<string, unknown>)["aliases"];
  if (Array.isArray(value)) {
    return value
      .filter((v) => typeof v === "string" || typeof v === "number")
      .map(String)
      .filter((v) => v.length > 0);
  }
  if (typeof value === "string") return [...splitAliases(value)];
  return [];
}

/** Root aliases of a document: the frontmatter's, then the extra ones (book chapters). */
export function documentIdBuilder<H>(frontmatter: FrontmatterNode | undefined, extraRootAliases: readonly string[], expected?: number): IdIndexBuilder<H> {
  const fmAliases = frontmatter !== undefined ? frontmatterAliases(frontmatter.data) : [];
  return new IdIndexBuilder<H>(fmAliases, [...fmAliases, ...extraRootAliases], expected);
}

/** Assign canonical ids, register aliases, and index nodes by id (document-walk order). */
export function indexNodeIds(doc: NomaDocument, extraRootAliases: readonly string[]): void {
  const builder = documentIdBuilder<SectionNode | DirectiveNode>(doc.frontmatter, extraRootAliases);
  const visit = (nodes: BlockNode[]): void => {
    for (const node of nodes) {
      if (node.type === "section") {
        const explicit = IdIndexBuilder.explicitId(getAttr(node.attrs, "id"));
        const id = explicit ?? builder.slugId(node.title, node.nested);
        if (id !== undefined) node.id = id;
        if (explicit !== undefined) node.explicitId = true;
        if (builder.claimsRoot(node, node.depth, node.nested, node.id)) node.aliases = builder.withRootAliases(node.aliases);
        builder.register(node, node.id, node.aliases);
        visit(node.children);
      } else if (node.type === "directive") {
        builder.register(node, node.id, node.aliases);
        visit(node.children);
      }
    }
  };
  visit(doc.children);
  builder.finish();
  doc.ids = builder.ids;
  doc.nodeById = new Map(builder.byId.entries());
  doc.duplicateIds = builder.duplicates;
  doc.aliasesById = builder.aliasesById;
  doc.aliasMap = builder.aliasMap;
  const warning = builder.unattached(builder.root?.pos.line);
  if (warning !== undefined) doc.problems.push(warning);
}
