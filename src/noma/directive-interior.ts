/**
 * The raw lines between a directive's opening and closing fence lines.
 */
import type { DirectiveNode, NomaDocument } from "./ast.js";
import { lineText } from "./parse-noma.js";

export function directiveInterior(doc: NomaDocument, node: Pick<DirectiveNode, "pos" | "endLine" | "closed">): string[] {
  const first = node.pos.line; // 0-based index of the line after the opener
  const end = node.closed ? node.endLine - 1 : node.endLine; // 0-based exclusive
  const out: string[] = [];
  for (let i = first; i < end; i++) out.push(lineText(doc, i));
  return out;
}
