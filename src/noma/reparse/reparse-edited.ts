/**
 * Incremental re-parsing: the parse of an edited text from the parse of the text
 * before the edit, re-parsing only the top-level blocks around the change and
 * reusing the rest (its nodes shifted by whole lines, its id index when the edit
 * leaves every id as it was). The result is the tree `parseNoma(text)` gives
 * (property-tested against it); whenever the change could reach beyond the
 * re-parsed region, it is `parseNoma(text)`.
 */
import type { BlockNode, FrontmatterNode, ListItemNode, NomaDocument, ParseProblem } from "../ast.js";
import { getAttr, splitAliases } from "../attributes.js";
import { foldSections } from "../fold-sections.js";
import { indexNodeIds } from "../index-node-ids.js";
import type { LineIndex } from "../index-lines.js";
import { materializeBlocks } from "../materialize-blocks.js";
import { newDocument } from "../new-document.js";
import { FRONTMATTER_FENCE } from "../parse-frontmatter.js";
import { type Lineage, parseMemo, setParseMemo } from "../parse-memo.js";
import { parseNoma } from "../parse-noma.js";
import type { ParseOptions } from "../parse-options.js";
import { BlockScanner } from "../scan-blocks.js";
import { spliceArray } from "../splice-array.js";
import { carryIdIndex } from "./carry-id-index.js";
import { detachNodeStrings } from "./detach-strings.js";
import { spliceFold } from "./splice-fold.js";
import { lineAt } from "../index-lines.js";
import { spliceLineIndex } from "./splice-line-index.js";

/** Steps of lineage kept (an op list of more ops validates from scratch). */
const MAX_LINEAGE = 1024;

/** A document from its top-level blocks in walk order (`flat`) and their fold (`children`). */
function treeDocument(
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
  setParseMemo(doc, { index, bodyStart: frontmatter !== undefined ? frontmatter.endLine : 0, options, blocks: flat, lineage });
  if (carried !== undefined) {
    doc.ids = carried.ids;
    doc.aliasesById = carried.aliasesById;
    doc.aliasMap = carried.aliasMap;
    doc.nodeById = carried.nodeById;
    doc.duplicateIds = carried.duplicateIds;
  } else {
    indexNodeIds(doc, options.rootAliases ?? []);
  }
  if (doc.problems.length > 1) doc.problems.sort((a, b) => a.line - b.line);
  return doc;
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
  const memo = parseMemo(old);
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
  return treeDocument(text, index, old.frontmatter, merged, children, kept, memo.options, carried ? old : undefined, lineage);
}
