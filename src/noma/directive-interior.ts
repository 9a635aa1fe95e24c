/**
 * The raw lines between a directive's opening and closing fence lines.
 */
import type { DirectiveNode, NomaDocument } from "./ast.js";

export function directiveInterior(doc: NomaDocument, node: DirectiveNode): string[] {
  const first = node.pos.line; // 0-based index of the line after the opener
  const end = node.closed ? node.endLine - 1 : node.endLine; // 0-based exclusive
  return end > first ? doc.lines.slice(first, end) : [];
}
