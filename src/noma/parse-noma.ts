/**
 * The Noma parser: source text → `NomaDocument` with exact Tier-1 spans.
 *
 * Parsing scans the lines into a block table (scan-blocks.ts: rows of int32s,
 * no node objects) and indexes the ids from it. The node tree (`children`,
 * `nodeById`, `duplicateIds`) is built from the table the first time anything
 * reads it (compact-parse.ts): checking a document (parse + validate) never
 * builds it, editing one does. Either way the tree is the same. The parse of an
 * edited text from the parse before the edit is in reparse/.
 *
 * The parser never throws on text input: malformed input becomes recovered
 * nodes plus `problems`.
 */
import type { AttrToken, DirectiveNode, FrontmatterNode, NomaDocument, ParseProblem } from "./ast.js";
import { AttrTokenIndex } from "./attr-token-index.js";
import { parseAttributes } from "./attributes.js";
import { type BlockTable, F_LINE, foldSectionEnds, STRIDE } from "./block-table.js";
import { attachCompact, type CompactParse } from "./compact-parse.js";
import { documentIdBuilder } from "./index-node-ids.js";
import { indexLines, type LineIndex } from "./index-lines.js";
import { indexRowIds, type RowRef } from "./index-row-ids.js";
import { classifyColonLine } from "./line-syntax.js";
import { newDocument } from "./new-document.js";
import { parseFrontmatter } from "./parse-frontmatter.js";
import type { ParseOptions } from "./parse-options.js";
import { BlockScanner } from "./scan-blocks.js";

export { indexLines, type LineIndex } from "./index-lines.js";
export { REF_ATTRS, type RowRef } from "./index-row-ids.js";
export { classifyColonLine, parseHeadingLine, MAX_COLONS, type ColonLine, type HeadingLine } from "./line-syntax.js";
export type { ParseOptions } from "./parse-options.js";

/**
 * The blocks of a source, without its id index: its lines, frontmatter, block table (top-level
 * sections folded) and the problems found on the way (sorted by line). What `parseNoma`
 * starts from, and all a rendering reads (render-noma.ts, which derives headings' ids itself).
 */
export interface ScannedNoma {
  source: string;
  index: LineIndex;
  frontmatter: FrontmatterNode | undefined;
  bodyStart: number;
  table: BlockTable;
  problems: ParseProblem[];
}

export function scanNoma(source: string): ScannedNoma {
  const index = indexLines(source);
  const problems: ParseProblem[] = [];
  const frontmatter = parseFrontmatter(source, index, problems);
  const bodyStart = frontmatter !== undefined ? frontmatter.endLine : 0;
  const scanner = new BlockScanner(source, index.starts, index.ends, bodyStart);
  scanner.scan(bodyStart, index.ends.length, 0);
  const table = scanner.table;
  for (const p of scanner.problems) problems.push(p);
  foldSectionEnds(table, Math.max(index.ends.length, 1));
  problems.sort((a, b) => a.line - b.line);
  return { source, index, frontmatter, bodyStart, table, problems };
}

/** Parse Noma source text. Never throws; problems found on the way are in `doc.problems`. */
export function parseNoma(source: string, options: ParseOptions = {}): NomaDocument {
  const { index, frontmatter, bodyStart, table, problems } = scanNoma(source);
  const doc = newDocument(source, index, frontmatter, problems);
  // Only sections and directives carry ids: the index is sized for them, not for the rows
  // (arrays filled for nothing).
  const builder = documentIdBuilder<number>(frontmatter, options.rootAliases ?? [], table.sections + table.directives);
  const idSlot = new Int32Array(table.count).fill(-1);
  const refs: RowRef[] = [];
  const tokens = new AttrTokenIndex(table.directives);
  const rootAliases = indexRowIds(table, source, builder, idSlot, refs, tokens);
  builder.finish();
  doc.ids = builder.ids;
  doc.aliasesById = builder.aliasesById;
  doc.aliasMap = builder.aliasMap;
  const rootRow = builder.root ?? -1;
  const warning = builder.unattached(rootRow !== -1 ? table.data[rootRow * STRIDE + F_LINE]! + 1 : undefined);
  if (warning !== undefined) problems.push(warning);
  problems.sort((a, b) => a.line - b.line);
  const compact: CompactParse = {
    table,
    index,
    bodyStart,
    options,
    rowById: builder.byId,
    duplicateRows: builder.duplicates,
    idSlot,
    rootRow,
    rootAliases,
    refs,
    tokens,
  };
  attachCompact(doc, compact);
  return doc;
}

/** Text of line `index` (0-based) without its line break, without materialising `doc.lines`. */
export function lineText(doc: NomaDocument, index: number): string {
  const start = doc.lineStarts[index];
  const next = doc.lineStarts[index + 1];
  if (start === undefined || next === undefined) return "";
  let end = next;
  if (end > start && doc.source.charCodeAt(end - 1) === 10) end--;
  if (end > start && doc.source.charCodeAt(end - 1) === 13) end--;
  return doc.source.slice(start, end);
}

/** Attribute tokens (with offsets on the opening line) of a directive, computed on demand. */
export function directiveAttrTokens(doc: NomaDocument, node: DirectiveNode): AttrToken[] {
  const cl = classifyColonLine(lineText(doc, node.pos.line - 1));
  if (cl === null || cl.inner === undefined) return [];
  return parseAttributes(cl.inner, cl.innerOffset).tokens;
}
