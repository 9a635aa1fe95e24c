/**
 * A parse in struct-of-arrays form: the blocks of a document as rows of int32s
 * in one typed array, in document pre-order (a block, then its children).
 *
 * Nothing in a row is a JS object or a string — the table costs the garbage
 * collector nothing to trace, which is what makes parsing a large document
 * cheap. Strings (titles, texts, attribute values) stay in the source and are
 * read through the offsets a row keeps; node objects (`ast.ts`) are built from
 * the table only when something asks for them (see materialize-blocks.ts).
 *
 * Row layout (`STRIDE` int32s per block, `b * STRIDE + F_…`):
 *   F_KIND  kind (bits 0–3) | flags (CLOSED, NESTED, ORDERED, EXPLICIT_ID) | depth or colons << 8
 *   F_LINE  0-based index of the block's first line
 *   F_END   the block's last line, 1-based inclusive (a node's `endLine`); for a
 *           top-level section, its own line until `foldSectionEnds` runs
 *   F_NEXT  row of the next sibling: every row in (b, next) is a descendant of b
 *   F_A/F_B section, directive: offsets of the attribute text between `{` and `}`
 *           (-1 when there is none); code: the language; list item: marker length (F_A)
 *   F_C/F_D section: offsets of the title; directive: index of its name in `names` (F_C)
 *           and, once ids are indexed, where its attribute tokens start in the parse's
 *           AttrTokenIndex (F_D; -1 without an attribute block)
 */

import { rangeEquals } from "./range-equals.js";
import { grownInt32 } from "./grown-int32.js";

export const STRIDE = 8;
export const F_KIND = 0;
export const F_LINE = 1;
export const F_END = 2;
export const F_NEXT = 3;
export const F_A = 4;
export const F_B = 5;
export const F_C = 6;
export const F_D = 7;

export const KIND_MASK = 0xf;
export const K_SECTION = 1;
export const K_DIRECTIVE = 2;
export const K_CODE = 3;
export const K_PARAGRAPH = 4;
export const K_LIST = 5;
export const K_LIST_ITEM = 6;
export const K_QUOTE = 7;
export const K_THEMATIC_BREAK = 8;
export const K_TABLE = 9;

/** Directive and code: a closing fence was found. */
export const CLOSED = 0x10;
/** Section: a heading inside a directive (one line, childless). */
export const NESTED = 0x20;
/** List: ordered. */
export const ORDERED = 0x40;
/** Section: the id came from an explicit `{id="…"}` (set by the id index). */
export const EXPLICIT_ID = 0x80;
/** Heading depth (section) or colon count (directive) sit in bits 8–15. */
export const LEVEL_SHIFT = 8;

/** The heading depth or colon count of a row's kind word. */
export function level(word: number): number {
  return (word >>> LEVEL_SHIFT) & 0xff;
}

/** Past this many distinct directive names, interning switches from a scan to a Map. */
const SCAN_NAMES = 32;

export class BlockTable {
  data: Int32Array;
  count = 0;
  /** How many of the rows are directives. */
  directives = 0;
  /** How many of the rows are sections (with the directives: every row that can carry an id). */
  sections = 0;
  /** Directive names, each once (F_C of a directive row indexes this). */
  readonly names: string[] = [];
  private nameIndex: Map<string, number> | undefined;

  constructor(capacity = 256) {
    this.data = new Int32Array(Math.max(16, capacity) * STRIDE);
  }

  /** Append a row (fields other than kind and line are 0) and return its index. */
  add(kind: number, line: number): number {
    const b = this.count++;
    let o = b * STRIDE;
    if (o + STRIDE > this.data.length) {
      this.data = grownInt32(this.data);
    }
    const d = this.data;
    d[o++] = kind;
    d[o++] = line;
    d[o++] = line + 1;
    d[o++] = b + 1;
    d[o++] = -1;
    d[o++] = -1;
    d[o++] = -1;
    d[o] = -1;
    return b;
  }

  kind(b: number): number {
    return this.data[b * STRIDE]! & KIND_MASK;
  }

  /** Index of the name `src[start, end)` in `names`, adding it on first sight (no string is made for a known name). */
  intern(src: string, start: number, end: number): number {
    const names = this.names;
    const len = end - start;
    if (this.nameIndex === undefined) {
      const first = src.charCodeAt(start);
      for (let k = 0; k < names.length; k++) {
        const name = names[k]!;
        // Length and first character before the call (a directive's name is compared with every name met so far).
        if (name.length === len && name.charCodeAt(0) === first && rangeEquals(src, start, name)) return k;
      }
      names.push(src.slice(start, end));
      if (names.length > SCAN_NAMES) this.nameIndex = new Map(names.map((n, k) => [n, k]));
      return names.length - 1;
    }
    const name = src.slice(start, end);
    const known = this.nameIndex.get(name);
    if (known !== undefined) return known;
    names.push(name);
    this.nameIndex.set(name, names.length - 1);
    return names.length - 1;
  }
}

/** Top-level sections end where the next heading of the same or shallower depth starts (row ends updated). */
export function foldSectionEnds(table: BlockTable, lastLine: number): void {
  const d = table.data;
  const stack: number[] = [];
  for (let b = 0; b < table.count; b = d[b * STRIDE + F_NEXT]!) {
    const word = d[b * STRIDE]!;
    if ((word & KIND_MASK) !== K_SECTION) continue;
    const depth = level(word);
    while (stack.length > 0 && level(d[stack[stack.length - 1]! * STRIDE]!) >= depth) {
      d[stack.pop()! * STRIDE + F_END] = d[b * STRIDE + F_LINE]!;
    }
    stack.push(b);
  }
  for (let k = 0; k < stack.length; k++) d[stack[k]! * STRIDE + F_END] = lastLine;
}
