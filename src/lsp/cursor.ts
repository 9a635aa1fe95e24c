/**
 * What the editor's cursor is on in a `.noma` document: a name that refers to a block (a
 * `[[wikilink]]` target, the value of an id-valued attribute: reference-sites.ts), or a
 * block's own name (its `id=` value, one of its `aliases=`, a heading). Positions are 0-based
 * lines and UTF-16 characters, as LSP counts them.
 */
import type { BlockNode, DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { isIdValuedAttr } from "../noma/id-valued-attrs.js";
import { lineText } from "../noma/parse-noma.js";
import { aliasSites, attributeBlock, idSite, type LineSpan, lineWikilinks } from "../validate/reference-sites.js";

export type CursorTarget =
  /** A name that refers to a block (`via`: "wikilink" or the attribute's key). */
  | { kind: "reference"; target: string; via: string; span: LineSpan; node: DirectiveNode | null }
  /** A block's own name: `name` is its id, or the alias the cursor is on. */
  | { kind: "definition"; name: string; block: SectionNode | DirectiveNode; span: LineSpan };

/** The innermost block whose lines hold `line` (1-based), with the directive around it. */
export function blockAt(doc: NomaDocument, line: number): { block: BlockNode | null; around: DirectiveNode | null } {
  let around: DirectiveNode | null = null;
  let nodes: readonly BlockNode[] = doc.children;
  let found: BlockNode | null = null;
  for (;;) {
    // Blocks are in line order: a binary search for the last one starting at or before `line`.
    let lo = 0;
    let hi = nodes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (nodes[mid]!.pos.line <= line) lo = mid + 1;
      else hi = mid;
    }
    const n = lo > 0 ? nodes[lo - 1]! : undefined;
    if (n === undefined || n.endLine < line) return { block: found, around };
    found = n;
    if (n.type === "directive") {
      if (n.pos.line === line) return { block: n, around };
      around = n;
      nodes = n.children;
    } else if (n.type === "section") {
      if (n.pos.line === line) return { block: n, around };
      nodes = n.children;
    } else return { block: n, around };
  }
}

const within = (character: number, start: number, end: number): boolean => character >= start && character <= end;

export function cursorTarget(doc: NomaDocument, line0: number, character: number): CursorTarget | null {
  const line = line0 + 1;
  const text = lineText(doc, line0);
  const { block, around } = blockAt(doc, line);
  if (block === null || block.type === "code") return null;
  if ((block.type === "directive" || block.type === "section") && block.pos.line === line) {
    if (block.id !== undefined) {
      const own = idSite(doc, block);
      if (within(character, own.start, own.end)) return { kind: "definition", name: block.id, block, span: own };
      for (const a of aliasSites(doc, block)) if (within(character, a.start, a.end)) return { kind: "definition", name: a.alias, block, span: a };
    }
    if (block.type === "directive") {
      for (const t of attributeBlock(text)?.tokens ?? []) {
        if (t.valueStart === -1 || !isIdValuedAttr(t.key) || !within(character, t.valueStart, t.valueEnd) || t.valueEnd <= t.valueStart) continue;
        return {
          kind: "reference",
          target: text.slice(t.valueStart, t.valueEnd),
          via: t.key,
          span: { line, start: t.valueStart, end: t.valueEnd },
          node: block,
        };
      }
      return null;
    }
  }
  for (const w of lineWikilinks(text)) {
    // On the target, or on the brackets around it.
    if (within(character, w.start - 2, w.end + 2))
      return { kind: "reference", target: w.target, via: "wikilink", span: { line, start: w.start, end: w.end }, node: around };
  }
  return null;
}
