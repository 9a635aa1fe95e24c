/**
 * The validation of an edited document from the validation of the state before the edit,
 * when both are table-only parses (a one-shot patch: the CLI's `patch`, an MCP server's first
 * edit of a document). Only what the edit can affect is validated again; the result is
 * `validateNoma(after, options)` exactly (property-tested against it over random documents
 * and op lists), and that is what it answers whenever it cannot show the shortcut holds.
 *
 * The region: the top-level blocks of each state that touch the changed lines (a line of
 * margin on each side). Every block outside it must be the same block in both states —
 * same kind, flags, lines (those after it moved by the difference in line count) and
 * nesting, and a section the same id (slug suffixes depend on the headings before) —
 * which the two block tables show row by row (a parse that reused the earlier table,
 * reparse-compact-line.ts, changed one directive's opening line and nothing else, by
 * construction). Their text is the same, being outside the changed lines.
 *
 * Then, by RULE_READS (rule-catalog.ts), per rule:
 * - `parse`, `document`, `ids`: read off the edited parse and its frontmatter (no block is
 *   collected): the parse's problems, duplicate ids, unknown profiles;
 * - `block`: a directive's findings depend on it alone (with the frontmatter and the
 *   options): those of blocks outside the region are carried (moved with the lines), the
 *   region is validated on its own — its text after the frontmatter, parsed as a document;
 * - across blocks (facets): each state's region is parsed on its own and what its blocks
 *   contribute to each facet (ids, references, wikilinks, claims, computed blocks, plots and
 *   datasets; positions relative to the region) is compared; when every facet a rule reads
 *   is the same, so is everything that rule reads in the whole document, and its diagnostics
 *   are carried. Otherwise the document is validated in full.
 *
 * The frontmatter must be the same text in both states, and the options the same (the
 * caller's part: the earlier diagnostics were made with `options`, `now` included).
 */
import type { BlockNode, DirectiveNode, NomaDocument } from "../noma/ast.js";
import { F_END, F_LINE, F_NEXT, K_SECTION, KIND_MASK, NESTED, STRIDE } from "../noma/block-table.js";
import { type CompactParse, compactParse } from "../noma/compact-parse.js";
import { lineAt } from "../noma/index-lines.js";
import { parseNoma } from "../noma/parse-noma.js";
import type { EditSpan } from "../noma/reparse/reparse-edited.js";
import { slugify } from "../noma/slugify.js";
import { collectBlock, type Facts } from "./collect-facts.js";
import type { Diagnostic } from "./diagnostic.js";
import { isRuleCode, RULE_READS, type RuleFacet } from "./rule-catalog.js";
import { isNoverify } from "./rule-values.js";
import { documentLevelDiagnostics, finishDiagnostics, type ValidateOptions, validateNoma } from "./validate-noma.js";
import { walkOrder } from "./walk-order.js";

/** What an incremental validation needs of the state before an edit; taken before the edited text is parsed. */
export interface EditBase {
  text: string;
  compact: CompactParse;
  ids: readonly string[];
  frontmatter: string | undefined;
  /** Lines of the earlier text. */
  lines: number;
  span: EditSpan;
  /** The first changed line, less the margin (0-based; the same in both states). */
  lo: number;
  /** The earlier region: its top-level rows [r0, r1), its lines [from, to) (0-based) and where they start and end in `text`. */
  r0: number;
  r1: number;
  from: number;
  to: number;
  fromOffset: number;
  toOffset: number;
  rowCount: number;
}

/** Where a top-level row's own lines end (0-based, exclusive): a section's heading line, not what it folds. */
function ownEnd(d: Int32Array, b: number): number {
  const o = b * STRIDE;
  return (d[o]! & KIND_MASK) === K_SECTION ? d[o + F_LINE]! + 1 : d[o + F_END]!;
}

/** The top-level rows touching lines [lo, hi] (0-based, inclusive), and the lines from the first to where the last ends. */
function regionRows(c: CompactParse, lo: number, hi: number): { r0: number; r1: number; from: number; to: number } {
  const d = c.table.data;
  const n = c.table.count;
  let b = 0;
  while (b < n && ownEnd(d, b) <= lo) b = d[b * STRIDE + F_NEXT]!;
  const r0 = b;
  let from = lo;
  let to = hi + 1;
  while (b < n && d[b * STRIDE + F_LINE]! <= hi) {
    from = Math.min(from, d[b * STRIDE + F_LINE]!);
    to = Math.max(to, ownEnd(d, b));
    b = d[b * STRIDE + F_NEXT]!;
  }
  return { r0, r1: b, from, to };
}

/** The changed lines of a text (0-based, inclusive), a line of margin on each side, within the body. */
function changedLines(c: CompactParse, length: number, span: EditSpan): [number, number] {
  const starts = c.index.starts;
  const last = starts.length - 2;
  const lo = Math.max(c.bodyStart, lineAt(starts, span.prefix) - 1);
  const hi = Math.min(last, lineAt(starts, Math.max(span.prefix, length - span.suffix)) + 1);
  return [lo, Math.max(lo, hi)];
}

/**
 * What validateEdited needs of `doc` (a table-only parse) before the text it was edited
 * into (characters [span.prefix, length - span.suffix) replaced) is parsed; undefined when
 * the edit reaches into the frontmatter or `doc` is not table-only.
 */
export function editBase(doc: NomaDocument, span: EditSpan): EditBase | undefined {
  const c = compactParse(doc);
  if (c === undefined) return undefined;
  const starts = c.index.starts;
  const lines = starts.length - 1;
  if (lines === 0 || span.prefix < starts[c.bodyStart]!) return undefined;
  const [lo, hi] = changedLines(c, doc.source.length, span);
  const { r0, r1, from, to } = regionRows(c, lo, hi);
  return {
    text: doc.source,
    compact: c,
    ids: doc.ids,
    frontmatter: doc.frontmatter?.raw,
    lines,
    span,
    lo,
    r0,
    r1,
    from,
    to,
    fromOffset: starts[from]!,
    toOffset: lineOffset(starts, to, doc.source.length),
    rowCount: c.table.count,
  };
}

/** Where line `line` (0-based) starts, or the text's length past its last line. */
function lineOffset(starts: Int32Array, line: number, length: number): number {
  return line < starts.length - 1 ? starts[line]! : length;
}

/** Rows outside the region the same block in both tables (see the module header). */
function sameOutside(
  a: CompactParse,
  aIds: readonly string[],
  b: CompactParse,
  bIds: readonly string[],
  r0: number,
  a1: number,
  b1: number,
  shift: number,
): boolean {
  const x = a.table.data;
  const y = b.table.data;
  const sameSection = (ra: number, rb: number): boolean => {
    const sa = a.idSlot[ra]!;
    const sb = b.idSlot[rb]!;
    return sa === -1 ? sb === -1 : sb !== -1 && aIds[sa] === bIds[sb];
  };
  for (let r = 0; r < r0; r++) {
    const o = r * STRIDE;
    const word = x[o]!;
    if (word !== y[o] || x[o + F_LINE] !== y[o + F_LINE] || x[o + F_NEXT] !== y[o + F_NEXT]) return false;
    if ((word & KIND_MASK) === K_SECTION) {
      // A top-level section folds up to the next heading, wherever that is: no diagnostic read here depends on it.
      if ((word & NESTED) !== 0 && x[o + F_END] !== y[o + F_END]) return false;
      if (!sameSection(r, r)) return false;
    } else if (x[o + F_END] !== y[o + F_END]) return false;
  }
  const rows = a.table.count - a1;
  if (b.table.count - b1 !== rows) return false;
  for (let k = 0; k < rows; k++) {
    const o = (a1 + k) * STRIDE;
    const p = (b1 + k) * STRIDE;
    const word = x[o]!;
    if (word !== y[p] || x[o + F_LINE]! + shift !== y[p + F_LINE] || x[o + F_END]! + shift !== y[p + F_END]) return false;
    if (x[o + F_NEXT]! - a1 !== y[p + F_NEXT]! - b1) return false;
    if ((word & KIND_MASK) === K_SECTION && !sameSection(a1 + k, b1 + k)) return false;
  }
  return true;
}

/**
 * `text[from, to)`, whole lines of a state's body, parsed as a document of their own after its
 * frontmatter (or a blank line); `head`: the lines before them.
 */
function regionDocument(text: string, c: CompactParse, from: number, to: number): { doc: NomaDocument; head: number } {
  const body = c.bodyStart;
  // Without frontmatter, a blank line first: a region starting with "---" must not read as frontmatter.
  const head = body > 0 ? text.slice(0, c.index.starts[body]) : "\n";
  const region = text.slice(from, to);
  const ending = region.length > 0 && !/[\r\n]$/.test(region) ? "\n" : "";
  return { doc: parseNoma(head + region + ending), head: body > 0 ? body : 1 };
}

const FACETS: readonly RuleFacet[] = ["ids", "references", "wikilinks", "claims", "computed", "plots"];

/** What the blocks of a region document contribute to each facet, positions relative to its first line. */
function facetsOf(doc: NomaDocument, head: number): Record<RuleFacet, string> {
  const out: Record<RuleFacet, unknown[]> = { ids: [], references: [], wikilinks: [], claims: [], computed: [], plots: [] };
  const rel = (line: number): number => line - head;
  const text = (d: DirectiveNode): string => doc.source.slice(doc.lineStarts[d.pos.line - 1], doc.lineStarts[d.endLine] ?? doc.source.length);
  // Every section and directive, in walk order (a section's id comes from its explicit id or its title).
  const visit = (n: BlockNode): void => {
    if (n.type === "section") {
      out.ids.push(["s", n.depth, n.nested, n.explicitId ? n.id : slugify(n.title), n.aliases]);
    } else if (n.type === "directive") {
      out.ids.push(["d", n.name, n.id, n.aliases]);
      if (n.name === "claim") out.claims.push([n.id, n.aliases, rel(n.pos.line), rel(n.endLine), isNoverify(n)]);
      else if (n.name === "control" || n.name === "computed_metric" || n.name === "computed_plot") out.computed.push([rel(n.pos.line), text(n)]);
      else if (n.name === "plot" || n.name === "dataset") out.plots.push([rel(n.pos.line), text(n)]);
    } else return;
    for (const c of n.children) visit(c);
  };
  for (const n of doc.children) visit(n);
  // The walk of a full validation (validate-noma.ts): sections taken apart at every depth, as a
  // `## ` heading folds into the `# ` section before it.
  const sink: Facts = { directives: [], refs: [], wikilinks: [] };
  for (const n of walkOrder(doc.children, [])) collectBlock(sink, n, null);
  for (const r of sink.refs) out.references.push([r.attr, r.target, r.node.name, r.node.id, rel(r.node.pos.line), rel(r.node.endLine), isNoverify(r.node)]);
  for (const w of sink.wikilinks) {
    const o = w.owner;
    out.wikilinks.push([w.target, rel(w.anchor.pos.line + w.rel), w.column, o === null ? null : [o.name, rel(o.pos.line), isNoverify(o)]]);
  }
  const facets = {} as Record<RuleFacet, string>;
  for (const f of FACETS) facets[f] = JSON.stringify(out[f]);
  return facets;
}

/** `d` moved by `map` (its line and last line). */
function moved(d: Diagnostic, map: (line: number) => number): Diagnostic {
  const out: Diagnostic = { ...d };
  if (d.pos !== undefined) out.pos = { line: map(d.pos.line), column: d.pos.column };
  if (d.endLine !== undefined) out.endLine = map(d.endLine);
  return out;
}

/**
 * The diagnostics of `doc`, the edited state of `base` (whose diagnostics under these
 * `options` are `before`), validating again only what the edit can affect (see above).
 */
export function validateEdited(doc: NomaDocument, base: EditBase, before: readonly Diagnostic[], options: ValidateOptions = {}): Diagnostic[] {
  return incrementalDiagnostics(doc, base, before, options) ?? validateNoma(doc, options);
}

/** validateEdited's answer when the shortcut holds, else undefined (the document is to be validated in full). */
export function incrementalDiagnostics(
  doc: NomaDocument,
  base: EditBase,
  before: readonly Diagnostic[],
  options: ValidateOptions = {},
): Diagnostic[] | undefined {
  const c = compactParse(doc);
  if (c === undefined || doc.frontmatter?.raw !== base.frontmatter || c.bodyStart !== base.compact.bodyStart) return undefined;
  const starts = c.index.starts;
  const lines = starts.length - 1;
  const shift = lines - base.lines;
  const hi = Math.min(lines - 1, lineAt(starts, Math.max(base.span.prefix, doc.source.length - base.span.suffix)) + 1);
  const region = regionRows(c, base.lo, Math.max(base.lo, hi));
  if (region.r0 !== base.r0 || c.table.count - region.r1 !== base.rowCount - base.r1) return undefined;
  // The region in both states: from the same first line, to where either ends (earlier numbering).
  const from = Math.min(base.from, region.from);
  const to = Math.max(base.to, region.to - shift);
  let fromOffset = base.fromOffset;
  let toOffset = base.toOffset;
  if (c === base.compact) {
    // The earlier table reused (reparseCompactLine): the same rows and lines by construction.
    if (from !== base.from || to !== base.to || shift !== 0) return undefined;
  } else {
    // Two tables: every row outside the region the same block.
    if (!sameOutside(base.compact, base.ids, c, doc.ids, base.r0, base.r1, region.r1, shift)) return undefined;
    fromOffset = base.compact.index.starts[from]!;
    toOffset = lineOffset(base.compact.index.starts, to, base.text.length);
  }
  const earlier = regionDocument(base.text, base.compact, fromOffset, toOffset);
  const later = regionDocument(doc.source, c, starts[from]!, lineOffset(starts, to + shift, doc.source.length));
  const a = facetsOf(earlier.doc, earlier.head);
  const b = facetsOf(later.doc, later.head);
  const changed = new Set<RuleFacet>();
  for (const f of FACETS) if (a[f] !== b[f]) changed.add(f);
  if (changed.size > 0) {
    for (const reads of Object.values(RULE_READS)) if (typeof reads !== "string" && reads.some((f) => changed.has(f))) return undefined;
  }
  const out = documentLevelDiagnostics(doc, options);
  // 1-based: lines up to `from` keep their number, lines after `to` move, lines between are the region's.
  const map = (line: number): number => (line > to ? line + shift : line);
  for (const d of before) {
    if (!isRuleCode(d.code)) continue;
    const reads = RULE_READS[d.code];
    if (reads === "parse" || reads === "document" || reads === "ids") continue;
    const inRegion = d.pos !== undefined && d.pos.line > from && d.pos.line <= to;
    if (reads === "block" && inRegion) continue;
    // A finding of a rule that reads across blocks, inside an edited region whose line count
    // changed: lines inserted or removed above it move it, by an amount not known here.
    if (inRegion && shift !== 0) return undefined;
    out.push(moved(d, map));
  }
  const { resolveOutside: _, ...local } = options;
  const offset = from - later.head;
  for (const d of validateNoma(later.doc, local)) if (isRuleCode(d.code) && RULE_READS[d.code] === "block") out.push(moved(d, (line) => line + offset));
  return finishDiagnostics(out, options);
}
