/**
 * The parse of an edited text from the table-only parse of the text before the edit, for
 * the edit a one-shot patch most often makes: within the opening line of one directive
 * (an attribute set, changed or removed), leaving the line a directive opener with the
 * same colons and name, the same id and aliases. Every block keeps its rows and lines;
 * only that row's attribute block, its references and the offsets after it change, so
 * the block table, the line index and the attribute tokens are updated in place (linear
 * in their size: no line is scanned again) and the id index is kept as it is.
 *
 * Anything else (a line break inserted or removed, another kind of line, an id or alias
 * changed) returns undefined: the caller parses the text. When it answers, the answer is
 * the table `parseNoma(text)` builds (property-tested against it): the scanner classifies
 * each line on its own, so a line that stays an opener of the same depth leaves every
 * other line's block as it was.
 */
import type { AttrValue, NomaDocument } from "../ast.js";
import { AttrTokenIndex } from "../attr-token-index.js";
import { splitAliases } from "../attributes.js";
import { F_A, F_B, F_C, F_D, F_LINE, K_CODE, K_DIRECTIVE, K_SECTION, KIND_MASK, level, STRIDE } from "../block-table.js";
import { REF_ATTRS, type RowRef } from "../index-row-ids.js";
import { newColonScan, OPEN_LINE, scanColonLine } from "../line-syntax.js";
import { compactDocument, compactParse, type CompactParse } from "../compact-parse.js";
import type { EditSpan } from "./reparse-edited.js";
import { rangeEquals } from "../range-equals.js";
import { lineAt } from "../index-lines.js";

const KEYS = ["id", "aliases", ...REF_ATTRS];

/** What the id index reads of a directive's attribute values: its id, aliases and references. */
function identity(values: ReadonlyArray<AttrValue | undefined>, row: number): { id: string | undefined; aliases: readonly string[]; refs: RowRef[] } {
  const v = values[0];
  const refs: RowRef[] = [];
  for (let r = 0; r < REF_ATTRS.length; r++) {
    const ref = values[2 + r];
    if (ref === undefined || typeof ref === "boolean") continue;
    const target = String(ref);
    if (target.length > 0) refs.push({ row, attr: REF_ATTRS[r]!, target });
  }
  return { id: typeof v === "string" && v.length > 0 ? v : undefined, aliases: values[1] === undefined ? [] : splitAliases(values[1]), refs };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The first row whose block starts on `line` and is a directive, or -1 (rows are in line order). */
function directiveRowAt(c: CompactParse, line: number): number {
  const d = c.table.data;
  let lo = 0;
  let hi = c.table.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (d[mid * STRIDE + F_LINE]! < line) lo = mid + 1;
    else hi = mid;
  }
  for (let b = lo; b < c.table.count && d[b * STRIDE + F_LINE] === line; b++) if ((d[b * STRIDE]! & KIND_MASK) === K_DIRECTIVE) return b;
  return -1;
}

/**
 * The parse of `text`, which is `old.source` with the characters between the first
 * `span.prefix` and the last `span.suffix` replaced, when the edit is of the shape above;
 * else undefined (and `old` is untouched). Consumes `old` when it answers.
 */
export function reparseCompactLine(old: NomaDocument, text: string, span: EditSpan): NomaDocument | undefined {
  const c = compactParse(old);
  if (c === undefined) return undefined;
  const src = old.source;
  const delta = text.length - src.length;
  const from = span.prefix;
  const oldTo = src.length - span.suffix;
  const newTo = text.length - span.suffix;
  if (from < 0 || oldTo < from || newTo < from) return undefined;
  const { starts, ends } = c.index;
  if (ends.length === 0) return undefined;
  const line = lineAt(starts, from);
  if (from < starts[line]! || oldTo > ends[line]!) return undefined;
  for (let k = from; k < newTo; k++) {
    const ch = text.charCodeAt(k);
    if (ch === 10 || ch === 13) return undefined;
  }
  const row = directiveRowAt(c, line);
  if (row === -1 || line < c.bodyStart) return undefined;
  const d = c.table.data;
  const o = row * STRIDE;
  const word = d[o]!;
  // The new line: still an opener, as deep, of the same name.
  const lineStart = starts[line]!;
  const oldEnd = ends[line]!;
  const scan = newColonScan();
  if (scanColonLine(text, lineStart, oldEnd + delta, scan) !== OPEN_LINE || scan.colons !== level(word)) return undefined;
  const name = c.table.names[d[o + F_C]!]!;
  if (scan.nameEnd - scan.nameStart !== name.length || !rangeEquals(text, scan.nameStart, name)) return undefined;
  // The same id and aliases; the references are the new line's.
  const before: Array<AttrValue | undefined> = [];
  for (const key of KEYS) before.push(d[o + F_A] === -1 ? undefined : c.tokens.value(src, d[o + F_D]!, key));
  const after: Array<AttrValue | undefined> = KEYS.map(() => undefined);
  if (scan.innerStart !== -1) new AttrTokenIndex(1).scan(text, scan.innerStart, scan.innerEnd, KEYS, after);
  const was = identity(before, row);
  const now = identity(after, row);
  if (was.id !== now.id || !sameList(was.aliases, now.aliases)) return undefined;

  // In place from here: the line index, the offsets of later rows and tokens, this row's attributes.
  ends[line] = oldEnd + delta;
  if (delta !== 0) {
    for (let i = line + 1; i < starts.length; i++) starts[i]! += delta;
    for (let i = line + 1; i < ends.length; i++) ends[i]! += delta;
    for (let b = row + 1; b < c.table.count; b++) {
      const p = b * STRIDE;
      const kind = d[p]! & KIND_MASK;
      if (kind === K_SECTION || kind === K_DIRECTIVE || kind === K_CODE) {
        if (d[p + F_A] !== -1) {
          d[p + F_A]! += delta;
          d[p + F_B]! += delta;
        }
        if (kind === K_SECTION) {
          d[p + F_C]! += delta;
          d[p + F_D]! += delta;
        }
      }
    }
    c.tokens.shiftFrom(oldEnd, delta);
  }
  d[o + F_A] = scan.innerStart;
  d[o + F_B] = scan.innerEnd;
  d[o + F_D] = scan.innerStart === -1 ? -1 : c.tokens.scan(text, scan.innerStart, scan.innerEnd, KEYS, after);
  // This row's references, where they stand among all references (in row order).
  let r0 = 0;
  while (r0 < c.refs.length && c.refs[r0]!.row < row) r0++;
  let r1 = r0;
  while (r1 < c.refs.length && c.refs[r1]!.row === row) r1++;
  c.refs.splice(r0, r1 - r0, ...now.refs);
  return compactDocument(text, c, old);
}
