/**
 * What a document's blocks contribute to validation, in document-walk order:
 * its directives, the references they make (`for=`, `parent=`, `dataset=`) and
 * the wikilinks of its prose (`[[target]]`, not inside `code spans`).
 */
import type { BlockNode } from "../noma/ast.js";
import type { AttrValue } from "../noma/ast.js";
import { REF_ATTRS } from "../noma/index-row-ids.js";
import { attrValues, type DirectiveFact } from "./directive-fact.js";

/** A node whose first line a wikilink's line is counted from (nodes of reused blocks move). */
export interface Anchor {
  pos: { line: number };
}

export interface Wikilink {
  target: string;
  /** The wikilink is on line `anchor.pos.line + rel`. */
  anchor: Anchor;
  rel: number;
  column: number;
  /** Nearest enclosing directive (for noverify and memory rules). */
  owner: DirectiveFact | null;
}

export interface Reference {
  attr: "for" | "parent" | "dataset";
  target: string;
  node: DirectiveFact;
}

/** Directives, references and wikilinks, in document-walk order. */
export interface Facts {
  directives: DirectiveFact[];
  refs: Reference[];
  wikilinks: Wikilink[];
}

/** Wikilinks in `text`, the text of `anchor` starting `rel` lines below the anchor's first line. */
function collectLinks(sink: Facts, text: string, anchor: Anchor, rel: number, owner: DirectiveFact | null): void {
  const first = text.indexOf("[[");
  if (first === -1) return;
  // From the line holding the first "[[" (most texts have none, most links sit on a text's first line).
  let start = text.lastIndexOf("\n", first) + 1;
  let k = 0;
  for (let p = text.indexOf("\n"); p !== -1 && p < start; p = text.indexOf("\n", p + 1)) k++;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const raw = start === 0 && end === text.length ? text : text.slice(start, end);
    if (raw.includes("[[")) collectLineLinks(sink, raw, anchor, rel + k, owner);
    start = end + 1;
    k++;
  }
}

/** Code spans of `text[open, to)`, `open` its first backtick: each backtick pairs with the next one, left to right (an unpaired last one is text). */
function codeSpans(text: string, open: number, to: number, out: number[]): number {
  let n = 0;
  while (open !== -1 && open < to) {
    const close = text.indexOf("`", open + 1);
    if (close === -1 || close >= to) break;
    out[n++] = open;
    out[n++] = close;
    open = text.indexOf("`", close + 1);
  }
  return n;
}

const spans: number[] = [];

/** The character at i as the wikilink pattern sees it: a space inside one of the first `spanEnd / 2` code spans. */
function charAt(text: string, i: number, spanEnd: number): number {
  if (spanEnd > 0 && i >= spans[0]! && i <= spans[spanEnd - 1]!) {
    // The last span opening at or before i (binary search: spans are sorted and disjoint).
    let lo = 0;
    let hi = spanEnd >> 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (spans[mid * 2]! <= i) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && i <= spans[lo * 2 - 1]!) return 32;
  }
  return text.charCodeAt(i);
}

/** Can `c` start a wikilink target (`[A-Za-z_]`)? Continue one (`[\w\-./:]`)? */
function isTargetStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isTargetChar(c: number): boolean {
  return isTargetStart(c) || (c >= 48 && c <= 58) || c === 45 || c === 46 || c === 47;
}

/** The first "[[" at or after `from` that fits before `to`, or -1. */
function nextOpen(text: string, from: number, to: number): number {
  const p = text.indexOf("[[", from);
  return p !== -1 && p + 1 < to ? p : -1;
}

/**
 * The wikilinks of one line, `text[from, to)`, as target ranges: pairs (start, end) of
 * offsets in `text` written to `out` from index 0, their count × 2 returned (`out` is
 * meant to be reused, never truncated: emptying an array frees its storage). Columns count from `from`: the target starts at
 * column start - from - 1). `tick` is where the first backtick at or after `from` is (-1:
 * none): callers reading many lines of one text keep it as a cursor, so no search for a
 * backtick runs past a line that has none. A wikilink is `[[target]]` or `[[target|label]]` outside code
 * spans (characters inside a span read as spaces); the target is `[A-Za-z_][\w\-./:]*`.
 * This is /\[\[([^\]|\n]+)(?:\|[^\]\n]*)?\]\]/g over the line with its code spans blanked,
 * matches taken left to right, written out by hand: that pattern cannot backtrack into a
 * different match, and no string is made.
 */
export function scanLineLinks(text: string, from: number, to: number, tick: number, out: number[]): number {
  let p = nextOpen(text, from, to);
  if (p === -1) return 0;
  let found = 0;
  const n = to;
  const spanEnd = tick === -1 || tick >= to ? 0 : codeSpans(text, tick, to, spans);
  while (p !== -1) {
    let end = -1;
    // Where a failed attempt was decided: every start before it fails the same way (it reads
    // the same characters up to the same "]" or "|"), so the next attempt starts there.
    let failAt = p + 1;
    let j = p + 2;
    if (charAt(text, p, spanEnd) === 91 && charAt(text, p + 1, spanEnd) === 91) {
      while (j < n) {
        const c = charAt(text, j, spanEnd);
        if (c === 93 || c === 124) break;
        j++;
      }
      if (j > p + 2) {
        let k = j;
        if (j < n && charAt(text, j, spanEnd) === 124) {
          k = j + 1;
          while (k < n && charAt(text, k, spanEnd) !== 93) k++;
        }
        if (k + 1 < n && charAt(text, k, spanEnd) === 93 && charAt(text, k + 1, spanEnd) === 93) end = k + 2;
        else failAt = Math.min(k, n);
      }
    }
    if (end === -1) {
      p = nextOpen(text, failAt, n);
      continue;
    }
    let ok = isTargetStart(charAt(text, p + 2, spanEnd));
    for (let i = p + 3; ok && i < j; i++) ok = isTargetChar(charAt(text, i, spanEnd));
    if (ok) {
      out[found++] = p + 2;
      out[found++] = j;
    }
    p = nextOpen(text, end, n);
  }
  return found;
}

const found: number[] = [];

/**
 * Wikilinks on one line, `raw`, which is line `anchor.pos.line + rel` (columns count from
 * the line's start): see `scanLineLinks`.
 */
export function collectLineLinks(sink: Facts, raw: string, anchor: Anchor, rel: number, owner: DirectiveFact | null): void {
  if (raw.indexOf("[[") === -1) return;
  const n = scanLineLinks(raw, 0, raw.length, raw.indexOf("`"), found);
  for (let k = 0; k < n; k += 2) sink.wikilinks.push({ target: raw.slice(found[k], found[k + 1]), anchor, rel, column: found[k]! - 1, owner });
}

/** Whether any cell may hold a wikilink (rows are joined only then). */
function anyLink(cells: readonly string[]): boolean {
  for (const c of cells) if (c.includes("[[")) return true;
  return false;
}

const refValues: Array<AttrValue | undefined> = [];

/** The references (`for=`, `parent=`, `dataset=`) a directive makes. */
export function collectRefs(sink: Facts, node: DirectiveFact): void {
  attrValues(node, REF_ATTRS, refValues);
  for (let r = 0; r < REF_ATTRS.length; r++) {
    const attr = REF_ATTRS[r]!;
    const v = refValues[r];
    if (v === undefined || typeof v === "boolean") continue;
    const target = String(v);
    if (target.length > 0) sink.refs.push({ attr, target, node });
  }
}

/** The wikilinks of a block that is not a directive (a section: of its title only). */
export function collectProse(sink: Facts, node: BlockNode, owner: DirectiveFact | null): void {
  switch (node.type) {
    case "section":
      collectLinks(sink, node.title, node, 0, owner);
      break;
    case "paragraph":
    case "quote":
      collectLinks(sink, node.text, node, 0, owner);
      break;
    case "list":
      for (const item of node.children) collectLinks(sink, item.text, item, 0, owner);
      break;
    case "table":
      if (anyLink(node.header)) collectLinks(sink, node.header.join(" | "), node, 0, owner);
      for (let i = 0; i < node.rows.length; i++) if (anyLink(node.rows[i]!)) collectLinks(sink, node.rows[i]!.join(" | "), node, 2 + i, owner);
      break;
    default:
      break;
  }
}

/**
 * What `node` contributes, without the blocks a top-level section folds (they are
 * blocks of their own in the document walk): a section its title's wikilinks, any
 * other block its whole subtree.
 */
export function collectBlock(sink: Facts, node: BlockNode, owner: DirectiveFact | null): void {
  if (node.type !== "directive") {
    // Inside a directive a section is childless; at the top level its children are walked by the caller.
    collectProse(sink, node, owner);
    return;
  }
  sink.directives.push(node);
  collectRefs(sink, node);
  const children = node.children;
  for (let c = 0; c < children.length; c++) collectBlock(sink, children[c]!, node);
}
