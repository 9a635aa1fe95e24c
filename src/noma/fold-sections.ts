/**
 * The tree of a document's top-level blocks: each top-level section holds what
 * follows it up to the next heading of the same or a shallower depth.
 */
import type { BlockNode, SectionNode } from "./ast.js";

/** Fold top-level headings into sections: each holds what follows until a heading of the same or shallower depth. */
export function foldSections(blocks: BlockNode[], lastLine: number): BlockNode[] {
  const result: BlockNode[] = [];
  const stack: SectionNode[] = [];
  for (const b of blocks) {
    if (b.type === "section") {
      while (stack.length > 0 && stack[stack.length - 1]!.depth >= b.depth) {
        stack.pop()!.endLine = b.pos.line - 1;
      }
      (stack.length > 0 ? stack[stack.length - 1]!.children : result).push(b);
      stack.push(b);
    } else {
      (stack.length > 0 ? stack[stack.length - 1]!.children : result).push(b);
    }
  }
  for (const s of stack) s.endLine = lastLine;
  return result;
}
