/**
 * The block scanner: the lines of a Noma source → a `BlockTable` (rows of
 * int32s, no node objects, no strings but directive names).
 *
 * Line based. For each line, in order: directive open; bare close (a stray one
 * is a paragraph); heading; code fence; pipe table; thematic break; quote;
 * list; paragraph. Blank lines separate blocks. A heading inside a directive is
 * a one-line section; top-level sections fold later (`foldSectionEnds`, or
 * `foldSections` on nodes).
 *
 * Linear time by construction: code-fence regions are found in one pass (a
 * fence line toggles the state wherever it stands), every directive finds its
 * closing line by binary search in a per-colon-count index of close lines, and
 * no line is looked at more than a constant number of times per nesting level
 * it sits in. Never throws: malformed input becomes blocks plus `problems`.
 */
import type { ParseProblem } from "./ast.js";
import {
  BlockTable,
  CLOSED,
  F_A,
  F_B,
  F_C,
  F_D,
  F_END,
  F_NEXT,
  K_CODE,
  K_DIRECTIVE,
  K_LIST,
  K_LIST_ITEM,
  K_PARAGRAPH,
  K_QUOTE,
  K_SECTION,
  K_TABLE,
  K_THEMATIC_BREAK,
  LEVEL_SHIFT,
  NESTED,
  ORDERED,
  STRIDE,
} from "./block-table.js";
import { isBlankChar, isWordChar, MAX_COLONS, newColonScan, newHeadingScan, OPEN_LINE, scanColonLine, scanHeading } from "./line-syntax.js";
import { separatorCellCount } from "./table-row.js";
import { keepShape } from "./keep-shape.js";
import { sortedIndexOf } from "../sorted-index-of.js";

export class BlockScanner {
  readonly problems: ParseProblem[] = [];
  readonly table: BlockTable;
  /**
   * Code fences, in line order: opening lines (ascending) and, at the same index, the
   * closing line, or `to` when unclosed. Lists, not an array by line: fences are few, and an
   * array as long as the document (filled with -1) cost a page fault per 1,024 lines.
   */
  private readonly fenceOpens: number[] = [];
  private readonly fenceCloses: number[] = [];
  /** closesByColons[m]: ascending indexes of close lines with exactly m colons, outside code fences. */
  private readonly closesByColons: number[][] = [];
  private readonly colon = newColonScan();
  private readonly heading = newHeadingScan();

  constructor(
    private readonly src: string,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    /** Lines [from, to) are scanned; fences and close lines are indexed there only. */
    from: number,
    to: number = ends.length,
  ) {
    this.table = new BlockTable(((to - from) >> 1) + 16);
    let openAt = -1;
    for (let i = from; i < to; i++) {
      const s = starts[i]!;
      if (s === ends[i]) continue;
      const c = src.charCodeAt(s);
      if (openAt !== -1) {
        if (c === 96 && this.isFence(i)) {
          this.fenceOpens.push(openAt);
          this.fenceCloses.push(i);
          openAt = -1;
        }
        continue;
      }
      if (c === 96) {
        if (this.isFence(i)) openAt = i;
      } else if (c === 58) {
        const m = this.closeColons(i);
        if (m > 0) (this.closesByColons[m] ??= []).push(i);
      }
    }
    if (openAt !== -1) {
      this.fenceOpens.push(openAt);
      this.fenceCloses.push(to);
    }
  }

  private fence(i: number): number {
    const k = sortedIndexOf(this.fenceOpens, i);
    return k === -1 ? -1 : this.fenceCloses[k]!;
  }

  private first(i: number): number {
    const s = this.starts[i]!;
    return s < this.ends[i]! ? this.src.charCodeAt(s) : -1;
  }

  private blank(i: number): boolean {
    const src = this.src;
    const e = this.ends[i]!;
    for (let k = this.starts[i]!; k < e; k++) if (!isBlankChar(src.charCodeAt(k))) return false;
    return true;
  }

  /** Exactly three backticks at column 1, an optional word-only language, optional trailing spaces. */
  private isFence(i: number): boolean {
    const src = this.src;
    const s = this.starts[i]!;
    const e = this.ends[i]!;
    if (e - s < 3 || src.charCodeAt(s + 1) !== 96 || src.charCodeAt(s + 2) !== 96) return false;
    let k = s + 3;
    while (k < e && isWordChar(src.charCodeAt(k))) k++;
    while (k < e && (src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9)) k++;
    return k === e;
  }

  /** Colon count of a close line (2–64 colons, then only spaces/tabs), else 0. */
  private closeColons(i: number): number {
    const src = this.src;
    const s = this.starts[i]!;
    const e = this.ends[i]!;
    let k = s;
    while (k < e && src.charCodeAt(k) === 58) k++;
    const m = k - s;
    if (m < 2 || m > MAX_COLONS) return 0;
    while (k < e && (src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9)) k++;
    return k === e ? m : 0;
  }

  /** Three or more of one of `-*_`, then only spaces/tabs. */
  private isThematic(i: number): boolean {
    const src = this.src;
    const s = this.starts[i]!;
    const e = this.ends[i]!;
    const c = src.charCodeAt(s);
    let k = s;
    while (k < e && src.charCodeAt(k) === c) k++;
    if (k - s < 3) return false;
    while (k < e && (src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9)) k++;
    return k === e;
  }

  /** `-`/`*` followed by a space. */
  private isUnordered(i: number): boolean {
    const s = this.starts[i]!;
    const c = this.src.charCodeAt(s);
    return (c === 45 || c === 42) && s + 1 < this.ends[i]! && this.src.charCodeAt(s + 1) === 32;
  }

  /** Length of an ordered-item marker (`12. `), or 0. */
  private orderedMarker(i: number): number {
    const src = this.src;
    const s = this.starts[i]!;
    const e = this.ends[i]!;
    let k = s;
    while (k < e && src.charCodeAt(k) >= 48 && src.charCodeAt(k) <= 57) k++;
    if (k === s || k + 1 >= e || src.charCodeAt(k) !== 46 || src.charCodeAt(k + 1) !== 32) return 0;
    return k + 2 - s;
  }

  /** `#`×1–6 then a space or tab. */
  private isHeading(i: number): boolean {
    const src = this.src;
    const s = this.starts[i]!;
    const e = this.ends[i]!;
    let k = s;
    while (k < e && k - s < 7 && src.charCodeAt(k) === 35) k++;
    const d = k - s;
    if (d === 0 || d > 6 || k >= e) return false;
    const c = src.charCodeAt(k);
    return c === 32 || c === 9;
  }

  /** Starts and ends with `|` (trailing blanks ignored), at least two characters. */
  private isRow(i: number): boolean {
    const src = this.src;
    const s = this.starts[i]!;
    let e = this.ends[i]!;
    if (src.charCodeAt(s) !== 124) return false;
    while (e > s && isBlankChar(src.charCodeAt(e - 1))) e--;
    return e - s >= 2 && src.charCodeAt(e - 1) === 124;
  }

  private isTableStart(i: number, end: number): boolean {
    return i + 1 < end && this.isRow(i) && this.isRow(i + 1) && separatorCellCount(this.src, this.starts[i + 1]!, this.ends[i + 1]!) > 0;
  }

  /** First close line with exactly `colons` colons after `from`, before `end`; -1 if none. */
  private findClose(colons: number, from: number, end: number): number {
    const list = this.closesByColons[colons];
    if (list === undefined) return -1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    if (lo < list.length && list[lo]! < end) return list[lo]!;
    return -1;
  }

  /** Is line i a directive opener deeper than `depth` colons? (Fills `this.colon`.) */
  private opensDirective(i: number, depth: number): boolean {
    return scanColonLine(this.src, this.starts[i]!, this.ends[i]!, this.colon) === OPEN_LINE && this.colon.colons > depth;
  }

  /** Does line `i` begin a block other than a paragraph, inside a directive of `depth` colons? */
  private startsBlock(i: number, end: number, depth: number): boolean {
    const c = this.first(i);
    switch (c) {
      case 58:
        return this.closeColons(i) > 0 || this.opensDirective(i, depth);
      case 35:
        return this.isHeading(i);
      case 96:
        return this.fence(i) !== -1;
      case 124:
        return this.isTableStart(i, end);
      case 45:
      case 42:
        return this.isThematic(i) || this.isUnordered(i);
      case 95:
        return this.isThematic(i);
      case 62:
        return true;
      default:
        return c >= 48 && c <= 57 && this.orderedMarker(i) > 0;
    }
  }

  /** Scan lines [start, end) inside a directive of `depth` colons (0 at the top level), appending rows. */
  scan(start: number, end: number, depth: number): void {
    let i = start;
    while (i < end) {
      const c = this.first(i);
      if (c === -1 || (isBlankChar(c) && this.blank(i))) {
        i++;
        continue;
      }
      if (c === 96 && this.fence(i) !== -1) {
        i = this.code(i, end);
        continue;
      }
      if (c === 58) {
        if (this.closeColons(i) === 0 && this.opensDirective(i, depth)) {
          i = this.directive(i, end);
          continue;
        }
      } else if (c === 35) {
        if (this.isHeading(i)) {
          this.section(i, depth > 0);
          i++;
          continue;
        }
      } else if (c === 124) {
        if (this.isTableStart(i, end)) {
          i = this.tableRows(i, end);
          continue;
        }
      } else if (c === 45 || c === 42 || c === 95) {
        if (this.isThematic(i)) {
          this.table.add(K_THEMATIC_BREAK, i);
          i++;
          continue;
        }
        if (c !== 95 && this.isUnordered(i)) {
          i = this.list(i, end, false);
          continue;
        }
      } else if (c === 62) {
        i = this.quote(i, end);
        continue;
      } else if (c >= 48 && c <= 57 && this.orderedMarker(i) > 0) {
        i = this.list(i, end, true);
        continue;
      }
      i = this.paragraph(i, end, depth);
    }
  }

  private code(i: number, end: number): number {
    const fenceClose = this.fence(i);
    const closed = fenceClose < end;
    const last = closed ? fenceClose : end - 1;
    const t = this.table;
    const b = t.add(K_CODE | (closed ? CLOSED : 0), i);
    const o = b * STRIDE;
    const s = this.starts[i]!;
    let k = s + 3;
    while (k < this.ends[i]! && isWordChar(this.src.charCodeAt(k))) k++;
    t.data[o + F_A] = s + 3;
    t.data[o + F_B] = k;
    t.data[o + F_END] = last + 1;
    if (!closed) {
      this.problems.push({
        severity: "error",
        code: "unclosed-code-fence",
        message: "Code fence opened here is never closed; it runs to the end of its enclosing block.",
        line: i + 1,
        endLine: last + 1,
        column: 1,
      });
    }
    return last + 1;
  }

  private directive(i: number, end: number): number {
    const { colons, nameStart, nameEnd, innerStart, innerEnd } = this.colon;
    const close = this.findClose(colons, i, end);
    const closed = close !== -1;
    const t = this.table;
    const b = t.add(K_DIRECTIVE | (closed ? CLOSED : 0) | (colons << LEVEL_SHIFT), i);
    const name = t.intern(this.src, nameStart, nameEnd);
    t.directives++;
    let o = b * STRIDE;
    t.data[o + F_A] = innerStart;
    t.data[o + F_B] = innerEnd;
    t.data[o + F_C] = name;
    t.data[o + F_END] = closed ? close + 1 : end;
    this.scan(i + 1, closed ? close : end, colons);
    o = b * STRIDE; // the table may have grown
    t.data[o + F_NEXT] = t.count;
    if (!closed) {
      this.problems.push({
        severity: "error",
        code: "unclosed-directive",
        message:
          `Directive "${t.names[name]}" opened with ${colons} colons is never closed by a line of exactly ${colons} colons; it runs to the end of its ` +
          `enclosing block.`,
        line: i + 1,
        endLine: end,
        column: 1,
      });
    }
    return closed ? close + 1 : end;
  }

  private section(i: number, nested: boolean): void {
    const h = this.heading;
    scanHeading(this.src, this.starts[i]!, this.ends[i]!, h);
    const t = this.table;
    const b = t.add(K_SECTION | (nested ? NESTED : 0) | (h.depth << LEVEL_SHIFT), i);
    t.sections++;
    const o = b * STRIDE;
    t.data[o + F_A] = h.innerStart;
    t.data[o + F_B] = h.innerEnd;
    t.data[o + F_C] = h.titleStart;
    t.data[o + F_D] = h.titleEnd;
  }

  private tableRows(i: number, end: number): number {
    let j = i + 2;
    while (j < end && this.isRow(j)) j++;
    const b = this.table.add(K_TABLE, i);
    this.table.data[b * STRIDE + F_END] = j;
    return j;
  }

  private list(i: number, end: number, ordered: boolean): number {
    const t = this.table;
    const b = t.add(K_LIST | (ordered ? ORDERED : 0), i);
    let j = i;
    while (j < end) {
      let markerLength: number;
      if (ordered) {
        markerLength = this.orderedMarker(j);
        if (markerLength === 0) break;
      } else {
        if (!this.isUnordered(j) || this.isThematic(j)) break;
        markerLength = 2;
      }
      const item = t.add(K_LIST_ITEM, j);
      t.data[item * STRIDE + F_A] = markerLength;
      j++;
    }
    const o = b * STRIDE;
    t.data[o + F_END] = j;
    t.data[o + F_NEXT] = t.count;
    return j;
  }

  private quote(i: number, end: number): number {
    let j = i;
    while (j < end && this.first(j) === 62) j++;
    const b = this.table.add(K_QUOTE, i);
    this.table.data[b * STRIDE + F_END] = j;
    return j;
  }

  private paragraph(i: number, end: number, depth: number): number {
    let j = i + 1;
    while (j < end && !this.blank(j) && !this.startsBlock(j, end, depth)) j++;
    const b = this.table.add(K_PARAGRAPH, i);
    this.table.data[b * STRIDE + F_END] = j;
    return j;
  }
}

keepShape(new BlockScanner("", new Int32Array(1), new Int32Array(0), 0));
