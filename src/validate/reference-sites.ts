/**
 * Where a document names blocks, to the character: the `[[wikilinks]]` of its prose (as the
 * validator finds them: not in code spans nor code blocks) and the values of its id-valued
 * attributes (ID_VALUED_ATTRS), and where each block's own id is written (its `id=` value,
 * or a heading's title for an id made from it). What an editor needs to go to a definition,
 * list references and rename; the validator's own collection (collect-facts.ts) keeps only
 * what its rules read. Pure.
 */
import type { BlockNode, DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { newTokenScan, nextAttrToken } from "../noma/attributes.js";
import { isIdValuedAttr } from "../noma/id-valued-attrs.js";
import { classifyColonLine, parseHeadingLine } from "../noma/line-syntax.js";
import { lineText } from "../noma/parse-noma.js";
import { walkBlocks } from "../noma/walk.js";
import { scanLineLinks } from "./collect-facts.js";

/** A span of one line: 1-based line, 0-based [start, end) in UTF-16 code units (as editors count). */
export interface LineSpan {
  line: number;
  start: number;
  end: number;
}

export interface ReferenceSite extends LineSpan {
  /** The id or alias named. */
  target: string;
  /** "wikilink", or the attribute's key. */
  via: string;
  /** The directive whose attribute it is, or the innermost directive around the link (null: none). */
  node: DirectiveNode | null;
}

/** One attribute token of a `{…}` block, with where its key and value sit on the line. */
export interface AttrSpan {
  key: string;
  keyStart: number;
  keyEnd: number;
  /** -1 for a bare key. */
  valueStart: number;
  valueEnd: number;
  /** Just past the token (past a closing quote). */
  end: number;
}

/** The `{…}` of a directive's opening line or a heading line: where it starts and ends, and its tokens (null: the line has none). */
export function attributeBlock(line: string): { from: number; to: number; tokens: AttrSpan[] } | null {
  let inner: string | undefined;
  let offset: number | undefined;
  if (line.startsWith("::")) {
    const c = classifyColonLine(line);
    if (c === null || c.kind !== "open") return null;
    inner = c.inner;
    offset = c.innerOffset;
  } else if (line.startsWith("#")) {
    const h = parseHeadingLine(line);
    inner = h?.inner;
    offset = h?.innerOffset;
  }
  if (inner === undefined || offset === undefined) return null;
  const tokens: AttrSpan[] = [];
  const tok = newTokenScan();
  const to = offset + inner.length;
  let i = offset;
  while (nextAttrToken(line, i, to, tok)) {
    tokens.push({
      key: line.slice(tok.keyStart, tok.keyEnd),
      keyStart: tok.keyStart,
      keyEnd: tok.keyEnd,
      valueStart: tok.valueStart,
      valueEnd: tok.valueEnd,
      end: tok.end,
    });
    i = tok.end;
  }
  return { from: offset, to, tokens };
}

/** The wikilink targets of one line of prose, as spans of the target's characters. */
export function lineWikilinks(line: string): Array<{ target: string; start: number; end: number }> {
  const found: number[] = [];
  const n = scanLineLinks(line, 0, line.length, line.indexOf("`"), found);
  const out: Array<{ target: string; start: number; end: number }> = [];
  for (let k = 0; k < n; k += 2) out.push({ target: line.slice(found[k]!, found[k + 1]!), start: found[k]!, end: found[k + 1]! });
  return out;
}

/** Every reference the document makes, in line order. */
export function referenceSites(doc: NomaDocument): ReferenceSite[] {
  const out: ReferenceSite[] = [];
  const around: DirectiveNode[] = [];
  const visit = (nodes: readonly BlockNode[]): void => {
    for (const n of nodes) {
      if (n.type === "directive") {
        const line = lineText(doc, n.pos.line - 1);
        for (const t of attributeBlock(line)?.tokens ?? []) {
          if (t.valueStart === -1 || t.valueEnd <= t.valueStart || !isIdValuedAttr(t.key)) continue;
          out.push({ target: line.slice(t.valueStart, t.valueEnd), via: t.key, node: n, line: n.pos.line, start: t.valueStart, end: t.valueEnd });
        }
        around.push(n);
        visit(n.children);
        around.pop();
        continue;
      }
      if (n.type === "code" || n.type === "thematic_break") continue;
      const last = n.type === "section" ? n.pos.line : n.endLine;
      for (let l = n.pos.line; l <= last; l++) {
        const text = lineText(doc, l - 1);
        if (!text.includes("[[")) continue;
        for (const w of lineWikilinks(text)) out.push({ ...w, via: "wikilink", node: around[around.length - 1] ?? null, line: l });
      }
      if (n.type === "section") visit(n.children);
    }
  };
  visit(doc.children);
  return out.sort((a, b) => a.line - b.line || a.start - b.start);
}

/** Where a block's id is written: its `id=` value, else (an id made from a heading) the heading's title. */
export function idSite(doc: NomaDocument, node: SectionNode | DirectiveNode): LineSpan {
  const line = lineText(doc, node.pos.line - 1);
  const id = attributeBlock(line)?.tokens.find((t) => t.key === "id" && t.valueStart !== -1);
  if (id !== undefined) return { line: node.pos.line, start: id.valueStart, end: id.valueEnd };
  if (node.type === "section") {
    const at = line.indexOf(node.title);
    if (at !== -1) return { line: node.pos.line, start: at, end: at + node.title.length };
  }
  return { line: node.pos.line, start: 0, end: line.length };
}

/** Where each alias of a block is written in its `aliases=` value (aliases from frontmatter or a book are not on the line). */
export function aliasSites(doc: NomaDocument, node: SectionNode | DirectiveNode): Array<LineSpan & { alias: string }> {
  const line = lineText(doc, node.pos.line - 1);
  const t = attributeBlock(line)?.tokens.find((x) => x.key === "aliases" && x.valueStart !== -1);
  if (t === undefined) return [];
  const out: Array<LineSpan & { alias: string }> = [];
  const re = /[^,\s]+/g;
  const value = line.slice(t.valueStart, t.valueEnd);
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    out.push({ alias: m[0], line: node.pos.line, start: t.valueStart + m.index, end: t.valueStart + m.index + m[0].length });
  }
  return out;
}

/** Every section and directive that carries an id, in document order. */
export function idBlocks(doc: NomaDocument): Array<SectionNode | DirectiveNode> {
  const out: Array<SectionNode | DirectiveNode> = [];
  walkBlocks(doc, (n) => {
    if ((n.type === "section" || n.type === "directive") && n.id !== undefined) out.push(n);
  });
  return out;
}
