/**
 * The syntax of single lines: directive fences (`::name{…}`, `::`), headings
 * (`## Title {…}`), and the character classes the parser uses. Each rule reads
 * a line as a range of the source (no string is made to classify a line); the
 * string forms (`classifyColonLine`, `parseHeadingLine`) are thin wrappers.
 */

/** Directive fences longer than this are paragraphs. */
export const MAX_COLONS = 64;

export function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45;
}

export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Characters a blank line may consist of. */
export function isBlankChar(c: number): boolean {
  return c === 32 || c === 9 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;
}

/** What `String.prototype.trim` removes (ECMAScript WhiteSpace and LineTerminator). */
export function isJsSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Index of the last `}` in `src[from, to)`, or -1 (a bounded `lastIndexOf`: that one would search on before `from`). */
function lastBrace(src: string, from: number, to: number): number {
  for (let k = to - 1; k >= from; k--) if (src.charCodeAt(k) === 125) return k;
  return -1;
}

/** Offsets of a directive fence line, filled by `scanColonLine` (-1 where absent). */
export interface ColonScan {
  colons: number;
  nameStart: number;
  nameEnd: number;
  innerStart: number;
  innerEnd: number;
}

export const NOT_COLON_LINE = 0;
export const OPEN_LINE = 1;
export const CLOSE_LINE = 2;

export function newColonScan(): ColonScan {
  return { colons: 0, nameStart: -1, nameEnd: -1, innerStart: -1, innerEnd: -1 };
}

/**
 * Classify `src[s, e)` (a line starting with `::`): OPEN_LINE (`::name`,
 * `::a::b{…}`), CLOSE_LINE (colons only, then blanks), or NOT_COLON_LINE.
 * Two to MAX_COLONS colons; a name is `[A-Za-z_][\w-]*` joined by `::`; an
 * attribute block runs from `{` to the last `}` of the line, then only blanks.
 */
export function scanColonLine(src: string, s: number, e: number, out: ColonScan): number {
  let i = s;
  while (i < e && src.charCodeAt(i) === 58) i++;
  const m = i - s;
  if (m < 2 || m > MAX_COLONS) return NOT_COLON_LINE;
  out.colons = m;
  out.nameStart = out.nameEnd = out.innerStart = out.innerEnd = -1;
  while (i < e && (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9)) i++;
  if (i === e) return CLOSE_LINE;
  if (!isNameStart(src.charCodeAt(i))) return NOT_COLON_LINE;
  const nameStart = i;
  i++;
  while (i < e && isNameChar(src.charCodeAt(i))) i++;
  while (i + 2 < e && src.charCodeAt(i) === 58 && src.charCodeAt(i + 1) === 58 && isNameStart(src.charCodeAt(i + 2))) {
    i += 3;
    while (i < e && isNameChar(src.charCodeAt(i))) i++;
  }
  out.nameStart = nameStart;
  out.nameEnd = i;
  while (i < e && (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9)) i++;
  if (i === e) return OPEN_LINE;
  if (src.charCodeAt(i) !== 123 /* { */) return NOT_COLON_LINE;
  const close = lastBrace(src, i, e);
  if (close === -1) return NOT_COLON_LINE;
  for (let j = close + 1; j < e; j++) {
    const c = src.charCodeAt(j);
    if (c !== 32 && c !== 9) return NOT_COLON_LINE;
  }
  out.innerStart = i + 1;
  out.innerEnd = close;
  return OPEN_LINE;
}

/** A directive fence line as strings (offsets relative to the line). */
export interface ColonLine {
  kind: "open" | "close";
  colons: number;
  name?: string;
  /** Text between the braces, and the offset of its first character on the line. */
  inner?: string;
  innerOffset?: number;
}

/** Classify a line starting with `::` as a directive opener, a close line, or neither (null). */
export function classifyColonLine(line: string): ColonLine | null {
  const scan = newColonScan();
  const kind = scanColonLine(line, 0, line.length, scan);
  if (kind === NOT_COLON_LINE) return null;
  if (kind === CLOSE_LINE) return { kind: "close", colons: scan.colons };
  const name = line.slice(scan.nameStart, scan.nameEnd);
  if (scan.innerStart === -1) return { kind: "open", colons: scan.colons, name };
  return { kind: "open", colons: scan.colons, name, inner: line.slice(scan.innerStart, scan.innerEnd), innerOffset: scan.innerStart };
}

/** Offsets of a heading line, filled by `scanHeading` (inner: -1 when there is no attribute block). */
export interface HeadingScan {
  depth: number;
  titleStart: number;
  titleEnd: number;
  innerStart: number;
  innerEnd: number;
}

export function newHeadingScan(): HeadingScan {
  return { depth: 0, titleStart: -1, titleEnd: -1, innerStart: -1, innerEnd: -1 };
}

/**
 * `src[s, e)` as a heading: `#`×1–6, a space or tab, the title, an optional
 * trailing `{…}` (no `}` inside). The title has its leading spaces/tabs and its
 * trailing whitespace removed. False when the line is not a heading.
 */
export function scanHeading(src: string, s: number, e: number, out: HeadingScan): boolean {
  let d = 0;
  while (s + d < e && d < 7 && src.charCodeAt(s + d) === 35) d++;
  if (d === 0 || d > 6 || s + d >= e) return false;
  const ws = src.charCodeAt(s + d);
  if (ws !== 32 && ws !== 9) return false;
  let restEnd = e;
  while (restEnd > s + d + 1 && isJsSpace(src.charCodeAt(restEnd - 1))) restEnd--;
  let start = s + d + 1;
  while (start < restEnd && (src.charCodeAt(start) === 32 || src.charCodeAt(start) === 9)) start++;
  out.depth = d;
  out.innerStart = out.innerEnd = -1;
  if (restEnd > start && src.charCodeAt(restEnd - 1) === 125 /* } */) {
    const bodyEnd = restEnd - 1;
    const lastClose = lastBrace(src, start, bodyEnd);
    const from = lastClose !== -1 ? lastClose + 1 : start;
    const open = src.indexOf("{", from);
    if (open !== -1 && open < bodyEnd) {
      let titleEnd = open;
      while (titleEnd > start && isJsSpace(src.charCodeAt(titleEnd - 1))) titleEnd--;
      out.titleStart = start;
      out.titleEnd = titleEnd;
      out.innerStart = open + 1;
      out.innerEnd = bodyEnd;
      return true;
    }
  }
  out.titleStart = start;
  out.titleEnd = restEnd;
  return true;
}

export interface HeadingLine {
  depth: number;
  title: string;
  inner?: string;
  innerOffset?: number;
}

/** `#`×1–6, whitespace, title, optional trailing `{…}` (no `}` inside). */
export function parseHeadingLine(line: string): HeadingLine | null {
  const h = newHeadingScan();
  if (!scanHeading(line, 0, line.length, h)) return null;
  const title = line.slice(h.titleStart, h.titleEnd);
  if (h.innerStart === -1) return { depth: h.depth, title };
  return { depth: h.depth, title, inner: line.slice(h.innerStart, h.innerEnd), innerOffset: h.innerStart };
}
