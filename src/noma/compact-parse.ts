/**
 * A document parsed into a block table (block-table.ts) and not yet built into
 * nodes: the table and its id index by row are kept hidden on the document, and
 * the node tree (`children`, `nodeById`, `duplicateIds`, the walk order) is built
 * from them the first time anything reads it. Checking a document never builds
 * it; editing one does. Either way the tree is the same.
 */
import type { DirectiveNode, NomaDocument, SectionNode } from "./ast.js";
import type { AttrTokenIndex } from "./attr-token-index.js";
import type { BlockTable } from "./block-table.js";
import { foldSections } from "./fold-sections.js";
import type { IdTable } from "./id-table.js";
import type { LineIndex } from "./index-lines.js";
import type { RowRef } from "./index-row-ids.js";
import { materializeBlocks } from "./materialize-blocks.js";
import { newDocument } from "./new-document.js";
import { setParseMemo } from "./parse-memo.js";
import type { ParseOptions } from "./parse-options.js";

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
  setParseMemo(doc, { index: c.index, bodyStart: c.bodyStart, options: c.options, blocks: flat });
}

/** Make `doc` a table-only document of `compact`: its node tree is built on first read. */
export function attachCompact(doc: NomaDocument, compact: CompactParse): void {
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

/**
 * A table-only document of `source` from a block table and id index that hold for it, with
 * the ids, aliases and problems of `like` (see reparse/reparse-compact-line.ts). The tree is
 * built on first read, as for a fresh parse.
 */
export function compactDocument(source: string, compact: CompactParse, like: NomaDocument): NomaDocument {
  const doc = newDocument(source, compact.index, like.frontmatter, like.problems.slice());
  doc.ids = like.ids;
  doc.aliasesById = like.aliasesById;
  doc.aliasMap = like.aliasMap;
  attachCompact(doc, compact);
  return doc;
}
