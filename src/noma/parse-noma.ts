/**
 * The Noma parser: source text → `NomaDocument` with exact Tier-1 spans.
 *
 * Parsing scans the lines into a block table (scan-blocks.ts: rows of int32s,
 * no node objects) and indexes the ids from it. The node tree (`children`,
 * `nodeById`, `duplicateIds`) is built from the table the first time anything
 * reads it: checking a document (parse + validate) never builds it, editing
 * one does. Either way the tree is the same.
 *
 * The parser never throws on text input: malformed input becomes recovered
 * nodes plus `problems`.
 */
import { yamlLib } from "../yaml/yaml-lib.js";
import { readSimpleFrontmatter } from "./yaml-frontmatter-fast.js";
import type { AttrToken, BlockNode, DirectiveNode, FrontmatterNode, ListItemNode, NomaDocument, ParseProblem, SectionNode } from "./ast.js";
import { AttrTokenIndex } from "./attr-token-index.js";
import { getAttr, parseAttributes, splitAliases } from "./attributes.js";
import { type BlockTable, F_LINE, foldSectionEnds, STRIDE } from "./block-table.js";
import { carryIdIndex } from "./carry-id-index.js";
import { detachNodeStrings } from "./detach-strings.js";
import { IdIndexBuilder } from "./id-index-builder.js";
import type { IdTable } from "./id-table.js";
import { indexLines, type LineIndex } from "./index-lines.js";
import { indexRowIds, type RowRef } from "./index-row-ids.js";
import { classifyColonLine } from "./line-syntax.js";
import { materializeBlocks } from "./materialize-blocks.js";
import { BlockScanner } from "./scan-blocks.js";
import { spliceArray } from "./splice-array.js";
import { spliceFold } from "./splice-fold.js";
import { lineAt, spliceLineIndex } from "./splice-line-index.js";

export { indexLines, type LineIndex } from "./index-lines.js";
export { REF_ATTRS, type RowRef } from "./index-row-ids.js";
export { classifyColonLine, parseHeadingLine, MAX_COLONS, type ColonLine, type HeadingLine } from "./line-syntax.js";

export interface ParseOptions {
  /**
   * Extra aliases for the document's root section (the first top-level H1):
   * book mode attaches the chapter filename slug this way.
   */
  rootAliases?: string[];
}

const FRONTMATTER_FENCE = /^---[ \t]*$/;

/** Fold top-level headings into sections: each holds what follows until a heading of the same or shallower depth. */
function foldSections(blocks: BlockNode[], lastLine: number): BlockNode[] {
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

function parseFrontmatter(src: string, index: LineIndex, problems: ParseProblem[]): FrontmatterNode | undefined {
  const { starts, ends } = index;
  const n = ends.length;
  const textOf = (i: number): string => src.slice(starts[i], ends[i]);
  if (n < 2 || !FRONTMATTER_FENCE.test(textOf(0))) return undefined;
  let close = -1;
  for (let i = 1; i < n; i++) {
    if (src.charCodeAt(starts[i]!) === 45 && FRONTMATTER_FENCE.test(textOf(i))) {
      close = i;
      break;
    }
  }
  if (close === -1) return undefined;
  const rawLines: string[] = [];
  for (let i = 1; i < close; i++) rawLines.push(textOf(i));
  const raw = rawLines.join("\n");
  let data: unknown = readSimpleFrontmatter(raw);
  if (data !== undefined) return { type: "frontmatter", raw, data, pos: { line: 1, column: 1 }, endLine: close + 1 };
  try {
    const doc = yamlLib().parseDocument(raw, { prettyErrors: true, uniqueKeys: true });
    if (doc.errors.length > 0) {
      // The first error is the cause; YAML's follow-on errors only repeat it.
      for (const err of doc.errors.slice(0, 1)) {
        const at = err.linePos?.[0];
        problems.push({
          severity: "error",
          code: "invalid-frontmatter",
          message: `Frontmatter is not valid YAML: ${err.message.split("\n")[0]}`,
          line: at !== undefined ? at.line + 1 : 2,
          column: at !== undefined ? at.col : 1,
        });
      }
    } else {
      data = doc.toJS({ maxAliasCount: 100 }) as unknown;
      if (data !== null && data !== undefined && (typeof data !== "object" || Array.isArray(data))) {
        problems.push({
          severity: "error",
          code: "invalid-frontmatter",
          message: `Frontmatter must be a YAML mapping; found ${Array.isArray(data) ? "a list" : `a ${typeof data}`}.`,
          line: 2,
          column: 1,
        });
        data = undefined;
      }
    }
  } catch (e) {
    problems.push({
      severity: "error",
      code: "invalid-frontmatter",
      message: `Frontmatter is not valid YAML: ${(e as Error).message.split("\n")[0]}`,
      line: 2,
      column: 1,
    });
    data = undefined;
  }
  return { type: "frontmatter", raw, data, pos: { line: 1, column: 1 }, endLine: close + 1 };
}

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
function idIndexBuilder<H>(frontmatter: FrontmatterNode | undefined, extraRootAliases: readonly string[], expected?: number): IdIndexBuilder<H> {
  const fmAliases = frontmatter !== undefined ? frontmatterAliases(frontmatter.data) : [];
  return new IdIndexBuilder<H>(fmAliases, [...fmAliases, ...extraRootAliases], expected);
}

/** Assign canonical ids, register aliases, and index nodes by id (document-walk order). */
function indexIds(doc: NomaDocument, extraRootAliases: readonly string[]): void {
  const builder = idIndexBuilder<SectionNode | DirectiveNode>(doc.frontmatter, extraRootAliases);
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

/** The document object, fields in their usual order (the tree's fields still to be set). */
function newDocument(source: string, index: LineIndex, frontmatter: FrontmatterNode | undefined, problems: ParseProblem[]): NomaDocument {
  const lastLine = Math.max(index.ends.length, 1);
  const doc = {
    type: "document",
    source,
    lineStarts: index.starts,
    children: [],
    problems,
    ids: [],
    aliasesById: new Map(),
    aliasMap: new Map(),
    nodeById: new Map(),
    duplicateIds: new Map(),
    pos: { line: 1, column: 1 },
    endLine: lastLine,
  } as unknown as NomaDocument;
  // Line texts are materialised on first use only (most callers never need them all).
  Object.defineProperty(doc, "lines", {
    configurable: true,
    enumerable: false,
    get(): string[] {
      const lines: string[] = new Array<string>(index.ends.length);
      for (let i = 0; i < lines.length; i++) lines[i] = source.slice(index.starts[i], index.ends[i]);
      Object.defineProperty(doc, "lines", { value: lines, configurable: true, enumerable: false, writable: true });
      return lines;
    },
  });
  if (frontmatter !== undefined) doc.frontmatter = frontmatter;
  return doc;
}

/** A document from its top-level blocks in walk order (`flat`) and their fold (`children`). */
function makeDocument(
  source: string,
  index: LineIndex,
  frontmatter: FrontmatterNode | undefined,
  flat: BlockNode[],
  children: BlockNode[],
  problems: ParseProblem[],
  options: ParseOptions,
  /** A document whose id index holds for this one as is (see carryIdIndex); default: index the ids. */
  carried: NomaDocument | undefined,
  lineage: Lineage,
): NomaDocument {
  const doc = newDocument(source, index, frontmatter, problems);
  doc.children = children;
  setMemo(doc, { index, bodyStart: frontmatter !== undefined ? frontmatter.endLine : 0, options, blocks: flat, lineage });
  if (carried !== undefined) {
    doc.ids = carried.ids;
    doc.aliasesById = carried.aliasesById;
    doc.aliasMap = carried.aliasMap;
    doc.nodeById = carried.nodeById;
    doc.duplicateIds = carried.duplicateIds;
  } else {
    indexIds(doc, options.rootAliases ?? []);
  }
  if (doc.problems.length > 1) doc.problems.sort((a, b) => a.line - b.line);
  return doc;
}

/** Hidden per-document data for incremental re-parsing. */
const FLAT = Symbol("noma.parse");

interface ParseMemo {
  index: LineIndex;
  bodyStart: number;
  options: ParseOptions;
  /** Top-level blocks in walk order (each top-level section followed by what it folds). */
  blocks: readonly BlockNode[];
  /** This document's number (see Lineage). */
  serial: number;
  /** How its walk order came from an earlier document's, when it was re-parsed from one. */
  lineage?: Lineage;
}

/**
 * A re-parse step: the first `head` blocks of this walk order are the very nodes of the
 * first `head` of document `from`'s, and the last `tail` those of its last `tail` (moved
 * by whole lines). Steps chain back through earlier re-parses (by serial number, so no
 * earlier document is kept alive), to a bounded depth.
 */
interface Lineage {
  from: number;
  head: number;
  tail: number;
  prev: Lineage | undefined;
  depth: number;
}

/** Steps of lineage kept (an op list of more ops validates from scratch). */
const MAX_LINEAGE = 1024;
let serials = 0;

function setMemo(doc: NomaDocument, memo: Omit<ParseMemo, "serial">): void {
  Object.defineProperty(doc, FLAT, { value: { ...memo, serial: ++serials }, enumerable: false, writable: true, configurable: true });
}

function memoOf(doc: NomaDocument): ParseMemo | undefined {
  const own = doc as unknown as Record<symbol, ParseMemo | undefined>;
  if (own[FLAT] === undefined && own[COMPACT] !== undefined) materialize(doc);
  return own[FLAT];
}

/**
 * Which blocks of its walk order (`walkBlocks`) `doc` shares with `earlier`'s as it is now:
 * the first `head` and the last `tail` are the same node objects (tail nodes moved by whole
 * lines), when `doc` came from `earlier` through incremental re-parses; else undefined.
 * `earlier`'s walk order itself may since have been reused for `doc`'s: read only counts
 * from it, never its blocks.
 */
export function sharedWalk(doc: NomaDocument, earlier: NomaDocument): { head: number; tail: number } | undefined {
  const mine = (doc as unknown as Record<symbol, ParseMemo | undefined>)[FLAT];
  const theirs = (earlier as unknown as Record<symbol, ParseMemo | undefined>)[FLAT];
  if (mine === undefined || theirs === undefined) return undefined;
  let head = Number.POSITIVE_INFINITY;
  let tail = Number.POSITIVE_INFINITY;
  for (let l = mine.lineage; l !== undefined; l = l.prev) {
    head = Math.min(head, l.head);
    tail = Math.min(tail, l.tail);
    if (l.from === theirs.serial) return { head, tail };
  }
  return undefined;
}

/**
 * The document's blocks in walk order, top-level sections followed by the blocks they
 * fold (what a recursive walk of `children` visits at the top level), when the parse
 * kept them; undefined for documents not made by this parser.
 */
export function walkBlocks(doc: NomaDocument): readonly BlockNode[] | undefined {
  return memoOf(doc)?.blocks;
}

/** Hidden data of a document parsed into a block table and not yet built into nodes. */
const COMPACT = Symbol("noma.compact");

/** A parse as a block table with its id index by row (see block-table.ts). */
export interface CompactParse {
  table: BlockTable;
  index: LineIndex;
  bodyStart: number;
  options: ParseOptions;
  /** Canonical id → the first row carrying it; ids carried by more than one row → every such row. */
  rowById: IdTable<number>;
  duplicateRows: Map<string, number[]>;
  /** Row → index of its id in `doc.ids`, or -1. */
  idSlot: Int32Array;
  /** The root section's row and its aliases (with the root aliases), when there is one. */
  rootRow: number;
  rootAliases: readonly string[];
  /** The directives' references, in walk order. */
  refs: RowRef[];
  /** The directives' attribute tokens (a directive row's F_D says where its run starts; -1: no attribute block). */
  tokens: AttrTokenIndex;
}

/**
 * The block table of a document nothing has built into nodes yet (reading `children`,
 * `nodeById`, `duplicateIds` or the walk order builds them), else undefined.
 */
export function compactParse(doc: NomaDocument): CompactParse | undefined {
  return (doc as unknown as Record<symbol, CompactParse | undefined>)[COMPACT];
}

/** Build the node tree of a compact document (once): children, nodeById, duplicateIds, the walk order. */
function materialize(doc: NomaDocument): void {
  const own = doc as unknown as Record<symbol, CompactParse | undefined>;
  const c = own[COMPACT];
  if (c === undefined) return;
  own[COMPACT] = undefined;
  const { flat, nodes } = materializeBlocks(c.table, doc.source, c.index.starts, c.index.ends, { idSlot: c.idSlot, ids: doc.ids });
  if (c.rootRow !== -1) (nodes.get(c.rootRow) as SectionNode).aliases = c.rootAliases;
  const nodeById = new Map<string, SectionNode | DirectiveNode>();
  for (const [id, row] of c.rowById.entries()) nodeById.set(id, nodes.get(row) as SectionNode | DirectiveNode);
  const duplicateIds = new Map<string, Array<SectionNode | DirectiveNode>>();
  for (const [id, rows] of c.duplicateRows)
    duplicateIds.set(
      id,
      rows.map((r) => nodes.get(r) as SectionNode | DirectiveNode),
    );
  const data = (value: unknown): PropertyDescriptor => ({ value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(doc, "children", data(foldSections(flat, doc.endLine)));
  Object.defineProperty(doc, "nodeById", data(nodeById));
  Object.defineProperty(doc, "duplicateIds", data(duplicateIds));
  setMemo(doc, { index: c.index, bodyStart: c.bodyStart, options: c.options, blocks: flat });
}

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
  // Only sections and directives carry ids: the index is sized for all of them (half the rows was
  // 1.7 times too many on the bench document, arrays filled for nothing).
  const builder = idIndexBuilder<number>(frontmatter, options.rootAliases ?? [], table.sections + table.directives);
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

/**
 * A table-only document of `source` from a block table and id index that hold for it, with
 * the ids, aliases and problems of `like` (see reparse-compact-line.ts). The tree is built
 * on first read, as for a fresh parse.
 */
export function compactDocument(source: string, compact: CompactParse, like: NomaDocument): NomaDocument {
  const doc = newDocument(source, compact.index, like.frontmatter, like.problems.slice());
  doc.ids = like.ids;
  doc.aliasesById = like.aliasesById;
  doc.aliasMap = like.aliasMap;
  attachCompact(doc, compact);
  return doc;
}

function attachCompact(doc: NomaDocument, compact: CompactParse): void {
  Object.defineProperty(doc, COMPACT, { value: compact, enumerable: false, writable: true, configurable: true });
  // The node tree is built on first read.
  for (const key of ["children", "nodeById", "duplicateIds"] as const) {
    Object.defineProperty(doc, key, {
      configurable: true,
      enumerable: true,
      get(): unknown {
        materialize(doc);
        return doc[key];
      },
      set(value: unknown): void {
        materialize(doc);
        Object.defineProperty(doc, key, { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
}

/** The kept walk order, its sections taken apart again (childless) so they can fold anew. */
function takeApart(blocks: readonly BlockNode[]): BlockNode[] {
  for (const n of blocks) if (n.type === "section") n.children = [];
  return blocks as BlockNode[];
}

/** Move a block `delta` lines. A section's children are never moved with it: they are top-level blocks of their own (or none). */
function shiftNode(n: BlockNode | ListItemNode, delta: number): void {
  n.pos.line += delta;
  n.endLine += delta;
  if (n.type === "directive" || n.type === "list") for (const c of n.children) shiftNode(c, delta);
}

/** The last line of a top-level block itself (1-based): a section's heading line, not what it folds. */
function ownEnd(b: BlockNode): number {
  return b.type === "section" ? b.pos.line : b.endLine;
}

/** Length of the common prefix and suffix of two strings (non-overlapping). */
export function commonEnds(a: string, b: string): [number, number] {
  const max = Math.min(a.length, b.length);
  let p = 0;
  const CHUNK = 4096;
  while (p + CHUNK <= max && a.slice(p, p + CHUNK) === b.slice(p, p + CHUNK)) p += CHUNK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  const room = max - p;
  while (s + CHUNK <= room && a.slice(a.length - s - CHUNK, a.length - s) === b.slice(b.length - s - CHUNK, b.length - s)) s += CHUNK;
  while (s < room && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return [p, s];
}

/** What the caller knows of an edit: `text` equals the old text in its first `prefix` and last `suffix` characters (non-overlapping). */
export interface EditSpan {
  prefix: number;
  suffix: number;
}

/**
 * Parse `text`, which is `old.source` with some edits, re-parsing only the
 * top-level blocks around the change (padded by a block on each side) and
 * shifting the rest. Falls back to a full parse whenever the change could
 * reach beyond that region (frontmatter, anything unclosed). The result is
 * the same tree `parseNoma(text)` gives. Consumes `old`: its nodes (and, when the edit
 * leaves every id as it was, its id index) are reused. `span` (optional) bounds the
 * change, so the texts need not be compared.
 */
export function reparseEdited(old: NomaDocument, text: string, span?: EditSpan): NomaDocument {
  const memo = memoOf(old);
  if (memo === undefined) return parseNoma(text);
  if (span === undefined && text === old.source) return old;
  const [p, s] = span !== undefined ? [span.prefix, span.suffix] : commonEnds(old.source, text);
  const oldIndex = memo.index;
  const bodyStartOffset = memo.bodyStart > 0 ? oldIndex.starts[memo.bodyStart]! : 0;
  if (p <= bodyStartOffset) return parseNoma(text, memo.options);
  // Without frontmatter, a first line of "---" becomes frontmatter as soon as any later "---" line appears.
  if (old.frontmatter === undefined) {
    const nl = text.search(/\r\n|\r|\n/);
    if (FRONTMATTER_FENCE.test(nl === -1 ? text : text.slice(0, nl))) return parseNoma(text, memo.options);
  }
  const firstChanged = lineAt(oldIndex.starts, p);
  const lastChanged = lineAt(oldIndex.starts, Math.max(p, old.source.length - s));
  const flat = memo.blocks;
  const n = flat.length;
  // Blocks touching the changed lines (with a line of margin), plus one neighbour on each side.
  // Blocks are in line order and their own extents do not overlap: binary searches.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ownEnd(flat[mid]!) - 1 >= firstChanged - 1) hi = mid;
    else lo = mid + 1;
  }
  let i0 = lo;
  hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (flat[mid]!.pos.line - 1 <= lastChanged + 1) lo = mid + 1;
    else hi = mid;
  }
  let i1 = lo;
  i0 = Math.max(0, i0 - 1);
  i1 = Math.min(n, i1 + 1);
  const regionStart = i0 < n ? Math.min(flat[i0]!.pos.line - 1, firstChanged) : firstChanged;
  const oldRegionEnd = i1 > 0 && i1 - 1 >= i0 ? Math.max(ownEnd(flat[i1 - 1]!), lastChanged + 1) : lastChanged + 1;
  // In place: `old` is consumed (its index is read no more below, nor after a fallback to a full parse).
  const index = spliceLineIndex(oldIndex, old.source, text, p, s, true);
  const delta = index.ends.length - oldIndex.ends.length;
  // Up to where the old region ended (shifted), or to the end when no block follows it.
  const regionEnd = i1 < n ? oldRegionEnd + delta : index.ends.length;
  if (regionStart < memo.bodyStart || regionEnd < regionStart) return parseNoma(text, memo.options);
  // Problems before the region stay, those in it were re-derived (none), those after shift.
  const kept: ParseProblem[] = [];
  for (const pr of old.problems) {
    if (pr.code === "frontmatter-aliases-unattached") continue;
    const at = pr.line - 1;
    if (at < regionStart) {
      if (pr.endLine !== undefined && pr.endLine - 1 >= regionStart) return parseNoma(text, memo.options);
      kept.push(pr);
    } else if (at >= oldRegionEnd) kept.push({ ...pr, line: pr.line + delta, ...(pr.endLine !== undefined ? { endLine: pr.endLine + delta } : {}) });
  }
  const scanner = new BlockScanner(text, index.starts, index.ends, regionStart, regionEnd);
  scanner.scan(regionStart, regionEnd, 0);
  if (scanner.problems.length > 0) return parseNoma(text, memo.options);
  const region = materializeBlocks(scanner.table, text, index.starts, index.ends).flat;
  // The re-parsed nodes outlive this text (the next op's text shares them): copies, not views of it.
  detachNodeStrings(region);
  const replaced = flat.slice(i0, i1);
  // When the re-parsed blocks register the same ids as the blocks they replace, the old id
  // index holds (with the new nodes in it). Root-alias warnings are re-derived by indexing.
  const carried = !old.problems.some((pr) => pr.code === "frontmatter-aliases-unattached") && carryIdIndex(old, replaced, region);
  // The fold is spliced where it can be (old lines: before shifting), else made again.
  const spliced = spliceFold(old.children, flat, i0, i1, region, delta);
  if (delta !== 0) for (let i = i1; i < n; i++) shiftNode(flat[i]!, delta);
  // The walk order: the old array with the region replaced (in place when that is cheap:
  // `old` is consumed, and nothing else holds its walk order but earlier facts, which read
  // only counts from it; see sharedWalk).
  const merged = spliceArray(flat as BlockNode[], i0, i1, region);
  const lastLine = Math.max(index.ends.length, 1);
  const children = spliced ? old.children : foldSections(takeApart(merged), lastLine);
  if (!carried) {
    // Indexing gives the root section (the first top-level H1) the root aliases: a reused H1
    // may have been the root before the edit, so it starts again from its own aliases.
    for (const b of merged) if (b.type === "section" && b.depth === 1) b.aliases = splitAliases(getAttr(b.attrs, "aliases"));
  }
  const before = memo.lineage;
  const lineage: Lineage = {
    from: memo.serial,
    head: i0,
    tail: n - i1,
    prev: before !== undefined && before.depth < MAX_LINEAGE ? before : undefined,
    depth: before !== undefined && before.depth < MAX_LINEAGE ? before.depth + 1 : 1,
  };
  return makeDocument(text, index, old.frontmatter, merged, children, kept, memo.options, carried ? old : undefined, lineage);
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
