/**
 * The Noma parser: source text → `NomaDocument` with exact Tier-1 spans.
 *
 * Parsing is line based. For each line, in order: directive open; bare close
 * (a stray one is a paragraph); heading; code fence; pipe table; thematic
 * break; quote; list; paragraph. Blank lines separate blocks. Sections fold
 * only at the top level; a heading inside a directive is a one-line section.
 *
 * Linear time by construction: code-fence regions are found in one pass (a
 * fence line toggles the state wherever it stands), every directive finds its
 * closing line by binary search in a per-colon-count index of close lines, and
 * no regular expression used here can backtrack more than a constant amount.
 * The parser never throws on text input: malformed input becomes recovered
 * nodes plus `problems`.
 */
import { parseDocument as parseYamlDocument } from "yaml";
import type {
  AttrToken,
  AttrValue,
  BlockNode,
  CodeNode,
  DirectiveNode,
  FrontmatterNode,
  ListItemNode,
  ListNode,
  NomaDocument,
  ParagraphNode,
  ParseProblem,
  QuoteNode,
  SectionNode,
  TableAlign,
  TableNode,
} from "./ast.js";
import { getAttr, parseAttributes, parseAttributeValues, splitAliases } from "./attributes.js";
import { slugify, SlugSuffixer } from "./slugify.js";
import { splitTableRow, separatorAlign } from "./table-row.js";
import { carryIdIndex } from "./carry-id-index.js";
import { spliceLineIndex } from "./splice-line-index.js";

/** Directive fences longer than this are paragraphs. */
export const MAX_COLONS = 64;

export interface ParseOptions {
  /**
   * Extra aliases for the document's root section (the first top-level H1):
   * book mode attaches the chapter filename slug this way.
   */
  rootAliases?: string[];
}

interface ColonLine {
  kind: "open" | "close";
  colons: number;
  name?: string;
  /** Text between the braces, and the offset of its first character on the line. */
  inner?: string;
  innerOffset?: number;
}

const FRONTMATTER_FENCE = /^---[ \t]*$/;


function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45;
}

/** Classify a line starting with `::` as a directive opener, a close line, or neither (null). */
export function classifyColonLine(line: string): ColonLine | null {
  const n = line.length;
  let m = 0;
  while (m < n && line.charCodeAt(m) === 58) m++;
  if (m < 2 || m > MAX_COLONS) return null;
  let i = m;
  while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  if (i === n) return { kind: "close", colons: m };
  if (!isNameStart(line.charCodeAt(i))) return null;
  const nameStart = i;
  i++;
  while (i < n && isNameChar(line.charCodeAt(i))) i++;
  while (i + 2 < n && line.charCodeAt(i) === 58 && line.charCodeAt(i + 1) === 58 && isNameStart(line.charCodeAt(i + 2))) {
    i += 3;
    while (i < n && isNameChar(line.charCodeAt(i))) i++;
  }
  const name = line.slice(nameStart, i);
  while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  if (i === n) return { kind: "open", colons: m, name };
  if (line.charCodeAt(i) !== 123 /* { */) return null;
  const close = line.lastIndexOf("}");
  if (close < i) return null;
  for (let j = close + 1; j < n; j++) {
    const c = line.charCodeAt(j);
    if (c !== 32 && c !== 9) return null;
  }
  return { kind: "open", colons: m, name, inner: line.slice(i + 1, close), innerOffset: i + 1 };
}

export interface HeadingLine {
  depth: number;
  title: string;
  inner?: string;
  innerOffset?: number;
}

/** `#`×1–6, whitespace, title, optional trailing `{…}` (no `}` inside). */
export function parseHeadingLine(line: string): HeadingLine | null {
  let d = 0;
  while (d < line.length && d < 7 && line.charCodeAt(d) === 35) d++;
  if (d === 0 || d > 6) return null;
  const ws = line.charCodeAt(d);
  if (ws !== 32 && ws !== 9) return null;
  let rest = line.slice(d + 1).trimEnd();
  let start = d + 1;
  while (rest.length > 0 && (rest.charCodeAt(0) === 32 || rest.charCodeAt(0) === 9)) {
    rest = rest.slice(1);
    start++;
  }
  if (rest.endsWith("}")) {
    const body = rest.slice(0, -1);
    const lastClose = body.lastIndexOf("}");
    const open = body.indexOf("{", lastClose + 1);
    if (open !== -1) {
      return {
        depth: d,
        title: body.slice(0, open).trimEnd(),
        inner: body.slice(open + 1),
        innerOffset: start + open + 1,
      };
    }
  }
  return { depth: d, title: rest };
}


/** Offsets of every line: `starts` (plus one final entry, the source length) and content `ends` (before the line break). */
export interface LineIndex {
  starts: Int32Array;
  ends: Int32Array;
}

/** Index the lines of `text` without creating a string per line (typed arrays: nothing for the GC to trace). */
export function indexLines(text: string): LineIndex {
  const n = text.length;
  const hasCR = text.indexOf("\r") !== -1;
  let count = 0;
  if (!hasCR) {
    for (let p = text.indexOf("\n"); p !== -1; p = text.indexOf("\n", p + 1)) count++;
  } else {
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) count++;
    }
  }
  const last = count > 0 ? (hasCR ? -1 : text.lastIndexOf("\n")) : -1;
  const trailing = hasCR ? true : last !== n - 1;
  const total = count + (n > 0 && trailing ? 1 : 0);
  const starts = new Int32Array(total + 1);
  const ends = new Int32Array(total);
  let k = 0;
  let s = 0;
  if (!hasCR) {
    for (let p = text.indexOf("\n"); p !== -1; p = text.indexOf("\n", p + 1)) {
      starts[k] = s;
      ends[k++] = p;
      s = p + 1;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) {
        starts[k] = s;
        ends[k++] = i;
        if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
        s = i + 1;
      }
    }
  }
  if (s < n) {
    starts[k] = s;
    ends[k++] = n;
  }
  starts[k] = n;
  return k === total ? { starts, ends } : { starts: starts.slice(0, k + 1), ends: ends.slice(0, k) };
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isBlankChar(c: number): boolean {
  return c === 32 || c === 9 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;
}

/**
 * The block parser. It reads the source through line offsets and creates
 * strings only for what the tree keeps (titles, texts, attribute values).
 */
class Parser {
  readonly problems: ParseProblem[] = [];
  /** For a code-fence opening line: index of its closing line, or the line count when unclosed; else -1. */
  private readonly fenceEnd: Int32Array;
  /** closesByColons[m]: ascending indexes of close lines with exactly m colons, outside code fences. */
  private readonly closesByColons: number[][] = [];
  /** True when no line ends in "\r": a range of lines is then one slice of the source. */
  private readonly plain: boolean;

  constructor(
    private readonly src: string,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    bodyStart: number,
    /** Index fences and close lines only up to here (a region re-parse); default: every line. */
    scanEnd: number = ends.length,
  ) {
    this.plain = src.indexOf("\r") === -1;
    const n = scanEnd;
    this.fenceEnd = new Int32Array(ends.length).fill(-1);
    let openAt = -1;
    for (let i = bodyStart; i < n; i++) {
      const c = src.charCodeAt(starts[i]!);
      if (starts[i] === ends[i]) continue;
      if (openAt !== -1) {
        if (c === 96 && this.isFence(i)) {
          this.fenceEnd[openAt] = i;
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
    if (openAt !== -1) this.fenceEnd[openAt] = n;
  }

  /** The text of line i (no line break). */
  line(i: number): string {
    return this.src.slice(this.starts[i], this.ends[i]);
  }

  /** Lines [from, to) joined with "\n". */
  private text(from: number, to: number): string {
    if (to <= from) return "";
    if (to === from + 1 || this.plain) return this.src.slice(this.starts[from], this.ends[to - 1]);
    const parts: string[] = [];
    for (let i = from; i < to; i++) parts.push(this.line(i));
    return parts.join("\n");
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
    return i + 1 < end && this.isRow(i) && this.isRow(i + 1) && separatorAlign(this.line(i + 1)) !== null;
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

  /** Does line `i` begin a block other than a paragraph, inside a directive of `depth` colons? */
  private startsBlock(i: number, end: number, depth: number): boolean {
    switch (this.first(i)) {
      case 58: {
        if (this.closeColons(i) > 0) return true;
        const cl = classifyColonLine(this.line(i));
        return cl !== null && cl.colons > depth;
      }
      case 35:
        return this.isHeading(i);
      case 96:
        return this.fenceEnd[i] !== -1;
      case 124:
        return this.isTableStart(i, end);
      case 45:
      case 42:
        return this.isThematic(i) || this.isUnordered(i);
      case 95:
        return this.isThematic(i);
      case 62:
        return true;
      default: {
        const c = this.first(i);
        return c >= 48 && c <= 57 && this.orderedMarker(i) > 0;
      }
    }
  }

  /** Parse lines [start, end) inside a directive of `depth` colons (0 at the top level). */
  parseBlocks(start: number, end: number, depth: number): BlockNode[] {
    const out: BlockNode[] = [];
    let i = start;
    while (i < end) {
      const c = this.first(i);
      if (c === -1 || (isBlankChar(c) && this.blank(i))) {
        i++;
        continue;
      }
      if (c === 96 && this.fenceEnd[i] !== -1) {
        i = this.parseCode(i, end, out);
        continue;
      }
      if (c === 58) {
        if (this.closeColons(i) === 0) {
          const cl = classifyColonLine(this.line(i));
          if (cl !== null && cl.kind === "open" && cl.colons > depth) {
            i = this.parseDirective(i, end, cl, out);
            continue;
          }
        }
      } else if (c === 35) {
        if (this.isHeading(i)) {
          out.push(this.makeSection(i, parseHeadingLine(this.line(i))!, depth > 0));
          i++;
          continue;
        }
      } else if (c === 124) {
        if (this.isTableStart(i, end)) {
          i = this.parseTable(i, end, out);
          continue;
        }
      } else if (c === 45 || c === 42 || c === 95) {
        if (this.isThematic(i)) {
          out.push({ type: "thematic_break", pos: { line: i + 1, column: 1 }, endLine: i + 1 });
          i++;
          continue;
        }
        if (c !== 95 && this.isUnordered(i)) {
          i = this.parseList(i, end, false, out);
          continue;
        }
      } else if (c === 62) {
        i = this.parseQuote(i, end, out);
        continue;
      } else if (c >= 48 && c <= 57 && this.orderedMarker(i) > 0) {
        i = this.parseList(i, end, true, out);
        continue;
      }
      i = this.parseParagraph(i, end, depth, out);
    }
    return out;
  }

  private parseCode(i: number, end: number, out: BlockNode[]): number {
    const fenceClose = this.fenceEnd[i]!;
    const closed = fenceClose < end;
    const last = closed ? fenceClose : end - 1;
    const contentEnd = closed ? fenceClose : end;
    const node: CodeNode = {
      type: "code",
      lang: this.src.slice(this.starts[i]! + 3, this.ends[i]).trim(),
      content: this.text(i + 1, contentEnd),
      closed,
      pos: { line: i + 1, column: 1 },
      endLine: last + 1,
    };
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
    out.push(node);
    return last + 1;
  }

  private parseDirective(i: number, end: number, cl: ColonLine, out: BlockNode[]): number {
    const close = this.findClose(cl.colons, i, end);
    const closed = close !== -1;
    const children = this.parseBlocks(i + 1, closed ? close : end, cl.colons);
    const attrs: Record<string, AttrValue> = cl.inner !== undefined ? parseAttributeValues(cl.inner) : {};
    const idValue = getAttr(attrs, "id");
    const node: DirectiveNode = {
      type: "directive",
      name: cl.name!,
      colons: cl.colons,
      attrs,
      aliases: splitAliases(getAttr(attrs, "aliases")),
      children,
      closed,
      pos: { line: i + 1, column: 1 },
      endLine: closed ? close + 1 : end,
    };
    if (typeof idValue === "string" && idValue.length > 0) node.id = idValue;
    if (children.length === 1 && children[0]!.type === "paragraph") node.body = children[0]!.text;
    if (!closed) {
      this.problems.push({
        severity: "error",
        code: "unclosed-directive",
        message: `Directive "${cl.name}" opened with ${cl.colons} colons is never closed by a line of exactly ${cl.colons} colons; it runs to the end of its enclosing block.`,
        line: i + 1,
        endLine: end,
        column: 1,
      });
    }
    out.push(node);
    return closed ? close + 1 : end;
  }

  private makeSection(i: number, h: HeadingLine, nested: boolean): SectionNode {
    const attrs: Record<string, AttrValue> = h.inner !== undefined ? parseAttributeValues(h.inner) : {};
    return {
      type: "section",
      depth: h.depth,
      title: h.title,
      explicitId: false,
      attrs,
      aliases: splitAliases(getAttr(attrs, "aliases")),
      children: [],
      nested,
      pos: { line: i + 1, column: 1 },
      endLine: i + 1,
    };
  }

  private parseTable(i: number, end: number, out: BlockNode[]): number {
    const header = splitTableRow(this.line(i));
    const width = header.length;
    const sepAlign = separatorAlign(this.line(i + 1))!;
    const align: TableAlign[] = [];
    for (let k = 0; k < width; k++) align.push(sepAlign[k] ?? null);
    const rows: string[][] = [];
    let j = i + 2;
    while (j < end && this.isRow(j)) {
      const cells = splitTableRow(this.line(j));
      if (cells.length > width) cells.length = width;
      while (cells.length < width) cells.push("");
      rows.push(cells);
      j++;
    }
    out.push({ type: "table", header, align, rows, pos: { line: i + 1, column: 1 }, endLine: j });
    return j;
  }

  private parseList(i: number, end: number, ordered: boolean, out: BlockNode[]): number {
    const items: ListItemNode[] = [];
    let j = i;
    while (j < end) {
      const s = this.starts[j]!;
      let markerLength: number;
      if (ordered) {
        markerLength = this.orderedMarker(j);
        if (markerLength === 0) break;
      } else {
        if (!this.isUnordered(j) || this.isThematic(j)) break;
        markerLength = 2;
      }
      items.push({
        type: "list_item",
        marker: this.src.slice(s, s + markerLength - 1),
        text: this.src.slice(s + markerLength, this.ends[j]),
        pos: { line: j + 1, column: 1 },
        endLine: j + 1,
      });
      j++;
    }
    out.push({ type: "list", ordered, children: items, pos: { line: i + 1, column: 1 }, endLine: j });
    return j;
  }

  private parseQuote(i: number, end: number, out: BlockNode[]): number {
    const parts: string[] = [];
    let j = i;
    while (j < end && this.first(j) === 62) {
      const s = this.starts[j]!;
      const skip = s + 1 < this.ends[j]! && this.src.charCodeAt(s + 1) === 32 ? 2 : 1;
      parts.push(this.src.slice(s + skip, this.ends[j]));
      j++;
    }
    out.push({ type: "quote", text: parts.join("\n"), pos: { line: i + 1, column: 1 }, endLine: j });
    return j;
  }

  private parseParagraph(i: number, end: number, depth: number, out: BlockNode[]): number {
    let j = i + 1;
    while (j < end && !this.blank(j) && !this.startsBlock(j, end, depth)) j++;
    out.push({ type: "paragraph", text: this.text(i, j), pos: { line: i + 1, column: 1 }, endLine: j });
    return j;
  }
}

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
  const lineAt = (i: number): string => src.slice(starts[i], ends[i]);
  if (n < 2 || !FRONTMATTER_FENCE.test(lineAt(0))) return undefined;
  let close = -1;
  for (let i = 1; i < n; i++) {
    if (src.charCodeAt(starts[i]!) === 45 && FRONTMATTER_FENCE.test(lineAt(i))) {
      close = i;
      break;
    }
  }
  if (close === -1) return undefined;
  const rawLines: string[] = [];
  for (let i = 1; i < close; i++) rawLines.push(lineAt(i));
  const raw = rawLines.join("\n");
  let data: unknown;
  try {
    const doc = parseYamlDocument(raw, { prettyErrors: true, uniqueKeys: true });
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
    return value.filter((v) => typeof v === "string" || typeof v === "number").map(String).filter((v) => v.length > 0);
  }
  if (typeof value === "string") return [...splitAliases(value)];
  return [];
}

/** Assign canonical ids, register aliases, and index nodes by id (document-walk order). */
function indexIds(doc: NomaDocument, extraRootAliases: string[]): void {
  const suffixer = new SlugSuffixer();
  const fmAliases = doc.frontmatter !== undefined ? frontmatterAliases(doc.frontmatter.data) : [];
  const rootAliases = [...fmAliases, ...extraRootAliases];
  let root: SectionNode | undefined;

  const register = (node: SectionNode | DirectiveNode): void => {
    const id = node.id;
    if (id === undefined) return;
    doc.ids.push(id);
    const first = doc.nodeById.get(id);
    if (first === undefined) doc.nodeById.set(id, node);
    else {
      const dups = doc.duplicateIds.get(id);
      if (dups === undefined) doc.duplicateIds.set(id, [first, node]);
      else dups.push(node);
    }
    if (node.aliases.length > 0) {
      const list = doc.aliasesById.get(id);
      if (list === undefined) doc.aliasesById.set(id, [...node.aliases]);
      else for (const a of node.aliases) if (!list.includes(a)) list.push(a);
      for (const a of node.aliases) if (!doc.aliasMap.has(a)) doc.aliasMap.set(a, id);
    }
  };

  const visit = (nodes: BlockNode[]): void => {
    for (const node of nodes) {
      if (node.type === "section") {
        const explicit = getAttr(node.attrs, "id");
        if (typeof explicit === "string" && explicit.length > 0) {
          node.id = explicit;
          node.explicitId = true;
        } else {
          const slug = slugify(node.title);
          if (slug.length > 0) node.id = node.nested ? slug : suffixer.assign(slug);
        }
        if (!node.nested && node.depth === 1 && root === undefined) {
          root = node;
          if (rootAliases.length > 0) {
            node.aliases = [...node.aliases, ...rootAliases.filter((a) => !node.aliases.includes(a))];
          }
        }
        register(node);
        visit(node.children);
      } else if (node.type === "directive") {
        register(node);
        visit(node.children);
      }
    }
  };
  visit(doc.children);

  if (root === undefined && fmAliases.length > 0) {
    doc.problems.push({
      severity: "warning",
      code: "frontmatter-aliases-unattached",
      message: `Frontmatter aliases (${fmAliases.join(", ")}) are ignored: the document has no top-level "# " heading to attach them to.`,
      line: 1,
      column: 1,
    });
  } else if (root !== undefined && root.id === undefined && rootAliases.length > 0) {
    doc.problems.push({
      severity: "warning",
      code: "frontmatter-aliases-unattached",
      message: `Aliases (${rootAliases.join(", ")}) are ignored: the first top-level heading has no id (its title gives an empty slug).`,
      line: root.pos.line,
      column: 1,
    });
  }
}

function makeDocument(
  source: string,
  index: LineIndex,
  frontmatter: FrontmatterNode | undefined,
  flat: BlockNode[],
  problems: ParseProblem[],
  options: ParseOptions,
  /** A document whose id index holds for this one as is (see carryIdIndex); default: index the ids. */
  carried?: NomaDocument,
): NomaDocument {
  const lastLine = Math.max(index.ends.length, 1);
  const doc = {
    type: "document",
    source,
    lineStarts: index.starts,
    children: foldSections(flat, lastLine),
    problems,
    ids: carried?.ids ?? [],
    aliasesById: carried?.aliasesById ?? new Map(),
    aliasMap: carried?.aliasMap ?? new Map(),
    nodeById: carried?.nodeById ?? new Map(),
    duplicateIds: carried?.duplicateIds ?? new Map(),
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
  Object.defineProperty(doc, FLAT, { value: { index, bodyStart: frontmatter !== undefined ? frontmatter.endLine : 0, options, blocks: flat }, enumerable: false, writable: true });
  if (frontmatter !== undefined) doc.frontmatter = frontmatter;
  if (carried === undefined) indexIds(doc, options.rootAliases ?? []);
  doc.problems.sort((a, b) => a.line - b.line);
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
}

/**
 * The document's blocks in walk order, top-level sections followed by the blocks they
 * fold (what a recursive walk of `children` visits at the top level), when the parse
 * kept them; undefined for documents not made by this parser.
 */
export function walkBlocks(doc: NomaDocument): readonly BlockNode[] | undefined {
  return (doc as unknown as Record<symbol, ParseMemo | undefined>)[FLAT]?.blocks;
}

/** Parse Noma source text. Never throws; problems found on the way are in `doc.problems`. */
export function parseNoma(source: string, options: ParseOptions = {}): NomaDocument {
  const index = indexLines(source);
  const problems: ParseProblem[] = [];
  const frontmatter = parseFrontmatter(source, index, problems);
  const bodyStart = frontmatter !== undefined ? frontmatter.endLine : 0;
  const parser = new Parser(source, index.starts, index.ends, bodyStart);
  const flat = parser.parseBlocks(bodyStart, index.ends.length, 0);
  return makeDocument(source, index, frontmatter, flat, [...problems, ...parser.problems], options);
}

/** The kept walk order, its sections taken apart again (childless, one line) so they can fold anew. */
function takeApart(blocks: readonly BlockNode[]): BlockNode[] {
  for (const n of blocks) {
    if (n.type === "section") {
      n.children = [];
      n.endLine = n.pos.line;
    }
  }
  return blocks as BlockNode[];
}

function shiftNode(n: BlockNode | ListItemNode, delta: number): void {
  n.pos.line += delta;
  n.endLine += delta;
  if (n.type === "section" || n.type === "directive" || n.type === "list") for (const c of n.children) shiftNode(c, delta);
}

/** Length of the common prefix and suffix of two strings (non-overlapping). */
function commonEnds(a: string, b: string): [number, number] {
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

/** 0-based index of the line holding character `offset`. */
function lineOf(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.min(lo, Math.max(starts.length - 2, 0));
}

/**
 * Parse `text`, which is `old.source` with some edits, re-parsing only the
 * top-level blocks around the change (padded by a block on each side) and
 * shifting the rest. Falls back to a full parse whenever the change could
 * reach beyond that region (frontmatter, anything unclosed). The result is
 * the same tree `parseNoma(text)` gives. Consumes `old`: its nodes (and, when the edit
 * leaves every id as it was, its id index) are reused.
 */
export function reparseEdited(old: NomaDocument, text: string): NomaDocument {
  const memo = (old as unknown as Record<symbol, ParseMemo | undefined>)[FLAT];
  if (memo === undefined) return parseNoma(text);
  if (text === old.source) return old;
  const [p, s] = commonEnds(old.source, text);
  const oldIndex = memo.index;
  const bodyStartOffset = memo.bodyStart > 0 ? oldIndex.starts[memo.bodyStart]! : 0;
  if (p <= bodyStartOffset) return parseNoma(text, memo.options);
  // Without frontmatter, a first line of "---" becomes frontmatter as soon as any later "---" line appears.
  if (old.frontmatter === undefined) {
    const nl = text.search(/\r\n|\r|\n/);
    if (FRONTMATTER_FENCE.test(nl === -1 ? text : text.slice(0, nl))) return parseNoma(text, memo.options);
  }
  const firstChanged = lineOf(oldIndex.starts, p);
  const lastChanged = lineOf(oldIndex.starts, Math.max(p, old.source.length - s));
  const flat = takeApart(memo.blocks);
  // Blocks touching the changed lines (with a line of margin), plus one neighbour on each side.
  let i0 = flat.findIndex((b) => b.endLine - 1 >= firstChanged - 1);
  if (i0 === -1) i0 = flat.length;
  let i1 = i0;
  while (i1 < flat.length && flat[i1]!.pos.line - 1 <= lastChanged + 1) i1++;
  i0 = Math.max(0, i0 - 1);
  i1 = Math.min(flat.length, i1 + 1);
  const regionStart = i0 < flat.length ? Math.min(flat[i0]!.pos.line - 1, firstChanged) : firstChanged;
  const oldRegionEnd = i1 > 0 && i1 - 1 >= i0 ? Math.max(flat[i1 - 1]!.endLine, lastChanged + 1) : lastChanged + 1;
  const index = spliceLineIndex(oldIndex, old.source, text, p, s);
  const delta = index.ends.length - oldIndex.ends.length;
  // Up to where the old region ended (shifted), or to the end when no block follows it.
  const regionEnd = i1 < flat.length ? oldRegionEnd + delta : index.ends.length;
  if (regionStart < memo.bodyStart || regionEnd < regionStart) return parseNoma(text, memo.options);
  const parser = new Parser(text, index.starts, index.ends, regionStart, regionEnd);
  const region = parser.parseBlocks(regionStart, regionEnd, 0);
  if (parser.problems.length > 0) return parseNoma(text, memo.options);
  const after = flat.slice(i1);
  if (delta !== 0) for (const b of after) shiftNode(b, delta);
  const merged = flat.slice(0, i0).concat(region, after);
  // When the re-parsed blocks register the same ids as the blocks they replace, the old id
  // index holds (with the new nodes in it). Root-alias warnings are re-derived by indexing.
  const carried = !old.problems.some((pr) => pr.code === "frontmatter-aliases-unattached") && carryIdIndex(old, flat.slice(i0, i1), region);
  if (!carried) {
    // Indexing gives the root section (the first top-level H1) the root aliases: a reused H1
    // may have been the root before the edit, so it starts again from its own aliases.
    for (const b of merged) if (b.type === "section" && b.depth === 1) b.aliases = splitAliases(getAttr(b.attrs, "aliases"));
  }
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
  return makeDocument(text, index, old.frontmatter, merged, kept, memo.options, carried ? old : undefined);
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
