/**
 * Pipe-table rows: `| a | b |`. Cells split on `|` outside backtick code spans;
 * `\|` is kept as written (it does not split). Shared by the parser, the
 * renderer and the table patch ops.
 */
import type { TableAlign } from "./ast.js";
import { isJsSpace } from "./line-syntax.js";

/** A table row starts and ends with `|` (trailing whitespace ignored). */
export function isTableRow(line: string): boolean {
  if (line.charCodeAt(0) !== 124) return false;
  const t = line.trimEnd();
  return t.length >= 2 && t.charCodeAt(t.length - 1) === 124;
}

/** Split `text` on `|` outside backticks and not preceded by `\`; cells are not trimmed. */
export function splitOnPipes(text: string): string[] {
  const cells: string[] = [];
  let inCode = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 96) inCode = !inCode;
    else if (c === 92 /* \ */ && !inCode) i++;
    else if (c === 124 && !inCode) {
      cells.push(text.slice(start, i));
      start = i + 1;
    }
  }
  cells.push(text.slice(start));
  return cells;
}

/** Cells of a `| … |` row, trimmed. */
export function splitTableRow(line: string): string[] {
  const t = line.trim();
  const inner = t.slice(t.startsWith("|") ? 1 : 0, t.endsWith("|") && t.length > 1 ? -1 : undefined);
  return splitOnPipes(inner).map((c) => c.trim());
}

const SEP_CELL = /^:?-+:?$/;

/** The alignments of a separator row (`|:---|---:|`), or null when the line is not one (needs ≥ 2 cells). */
export function separatorAlign(line: string): TableAlign[] | null {
  if (!isTableRow(line)) return null;
  const cells = splitTableRow(line);
  if (cells.length < 2) return null;
  const align: TableAlign[] = [];
  for (const cell of cells) {
    if (!SEP_CELL.test(cell)) return null;
    const left = cell.startsWith(":");
    const right = cell.endsWith(":");
    align.push(left && right ? "center" : right ? "right" : left ? "left" : null);
  }
  return align;
}

/**
 * How many cells `src[s, e)` has as a separator row, or 0 when it is not one: the same
 * answer as `separatorAlign(line)?.length ?? 0`, without making strings. A backtick or a
 * backslash always lands in some cell, and no separator cell may hold one.
 */
export function separatorCellCount(src: string, s: number, e: number): number {
  if (e - s < 2 || src.charCodeAt(s) !== 124) return 0;
  let t = e;
  while (t > s && isJsSpace(src.charCodeAt(t - 1))) t--;
  if (t - s < 2 || src.charCodeAt(t - 1) !== 124) return 0;
  const innerEnd = t - 1;
  let cells = 0;
  let cs = s + 1;
  for (let k = s + 1; k <= innerEnd; k++) {
    const c = k < innerEnd ? src.charCodeAt(k) : 124;
    if (c === 96 || c === 92) return 0;
    if (c !== 124) continue;
    // One cell [cs, k): trimmed, it must read `:?-+:?`.
    let a = cs;
    let b = k;
    while (a < b && isJsSpace(src.charCodeAt(a))) a++;
    while (b > a && isJsSpace(src.charCodeAt(b - 1))) b--;
    if (a < b && src.charCodeAt(a) === 58) a++;
    if (b > a && src.charCodeAt(b - 1) === 58) b--;
    if (a === b) return 0;
    for (let j = a; j < b; j++) if (src.charCodeAt(j) !== 45) return 0;
    cells++;
    cs = k + 1;
  }
  return cells >= 2 ? cells : 0;
}
