/**
 * What a parse keeps, hidden on its document, for re-parsing it after an edit
 * (noma/reparse/) and for validating it against an earlier version: the line
 * index, where the body starts, the options, the top-level blocks in walk
 * order, and how that walk order came from an earlier document's.
 */
import type { BlockNode, NomaDocument } from "./ast.js";
import type { LineIndex } from "./index-lines.js";
import type { ParseOptions } from "./parse-options.js";

/** Hidden per-document data for incremental re-parsing. */
const FLAT = Symbol("noma.parse");

export interface ParseMemo {
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
export interface Lineage {
  from: number;
  head: number;
  tail: number;
  prev: Lineage | undefined;
  depth: number;
}

let serials = 0;

function ownMemo(doc: NomaDocument): ParseMemo | undefined {
  return (doc as unknown as Record<symbol, ParseMemo | undefined>)[FLAT];
}

/** Keep `memo` on `doc`, with a new serial number. */
export function setParseMemo(doc: NomaDocument, memo: Omit<ParseMemo, "serial">): void {
  Object.defineProperty(doc, FLAT, { value: { ...memo, serial: ++serials }, enumerable: false, writable: true, configurable: true });
}

/** The memo of a document made by this parser, else undefined. */
export function parseMemo(doc: NomaDocument): ParseMemo | undefined {
  // A table-only document (compact-parse.ts) builds its tree, and keeps its memo, on the first read of `children`.
  if (ownMemo(doc) === undefined) void doc.children;
  return ownMemo(doc);
}

/**
 * Which blocks of its walk order (`walkBlocks`) `doc` shares with `earlier`'s as it is now:
 * the first `head` and the last `tail` are the same node objects (tail nodes moved by whole
 * lines), when `doc` came from `earlier` through incremental re-parses; else undefined.
 * `earlier`'s walk order itself may since have been reused for `doc`'s: read only counts
 * from it, never its blocks.
 */
export function sharedWalk(doc: NomaDocument, earlier: NomaDocument): { head: number; tail: number } | undefined {
  const mine = ownMemo(doc);
  const theirs = ownMemo(earlier);
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
  return parseMemo(doc)?.blocks;
}
