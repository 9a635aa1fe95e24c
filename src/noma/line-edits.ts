/**
 * Whole-line edits of a text: what `fmt` changed, in the form a `format_document` transcript
 * record carries (src/patch/ops/format-op.ts), so that replaying it needs no formatter.
 */
import { splitLines } from "./split-lines.js";

/**
 * Lines `line … line + delete - 1` (1-based, of the text before; each with its line break)
 * replaced by `insert` (exact text, line breaks included). `delete` 0 inserts before `line`.
 */
export interface LineEdit {
  line: number;
  delete: number;
  insert: string;
}

/** Why `edits` cannot apply to a text of `lineCount` lines (not in order, overlapping, out of range), or null. */
export function lineEditsProblem(edits: readonly LineEdit[], lineCount: number): string | null {
  let next = 1;
  for (let k = 0; k < edits.length; k++) {
    const e = edits[k]!;
    if (!Number.isInteger(e.line) || !Number.isInteger(e.delete) || e.line < 1 || e.delete < 0)
      return `edit ${k + 1}: line and delete must be whole numbers (line ≥ 1)`;
    if (e.line < next) return `edit ${k + 1}: edits must be in line order and must not overlap`;
    if (e.line + e.delete - 1 > lineCount || e.line > lineCount + 1)
      return `edit ${k + 1}: lines ${e.line}–${e.line + e.delete - 1} are past the end (${lineCount} line${lineCount === 1 ? "" : "s"})`;
    if (e.delete === 0 && e.insert.length === 0) return `edit ${k + 1}: changes nothing`;
    next = e.line + e.delete;
  }
  return null;
}

/** Apply in-order, non-overlapping edits (check them with lineEditsProblem first). */
export function applyLineEdits(text: string, edits: readonly LineEdit[]): string {
  const { lineStarts } = splitLines(text);
  let out = "";
  let at = 0;
  for (const e of edits) {
    const from = lineStarts[e.line - 1] ?? text.length;
    out += text.slice(at, from) + e.insert;
    at = lineStarts[e.line - 1 + e.delete] ?? text.length;
  }
  return out + text.slice(at);
}
