/**
 * Source-preserving edits: every change is a replacement of a character range
 * of the original text. Untouched bytes (line endings, BOM, trailing
 * whitespace of other lines) are copied verbatim.
 */
import type { NomaDocument } from "../noma/ast.js";

export interface TextEdit {
  from: number;
  to: number;
  insert: string;
}

/** Apply non-overlapping edits (any order) to `source`. */
export function applyEdits(source: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return source;
  const sorted = [...edits].sort((a, b) => a.from - b.from || a.to - b.to);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    if (e.from < at) throw new Error(`overlapping edits at offset ${e.from}`);
    parts.push(source.slice(at, e.from), e.insert);
    at = e.to;
  }
  parts.push(source.slice(at));
  return parts.join("");
}

/** The line break a document uses for new lines: the first one found, else "\n". */
export function documentEol(doc: NomaDocument): string {
  const s = doc.source;
  const i = s.search(/\r\n|\r|\n/);
  if (i === -1) return "\n";
  return s.startsWith("\r\n", i) ? "\r\n" : s[i]!;
}

function lineCount(doc: NomaDocument): number {
  return doc.lineStarts.length - 1;
}

function endsWithBreak(doc: NomaDocument): boolean {
  const s = doc.source;
  return s.length > 0 && (s.endsWith("\n") || s.endsWith("\r"));
}

/** Content end offset of line `i` (0-based), before its line break. */
export function lineContentEnd(doc: NomaDocument, i: number): number {
  let end = doc.lineStarts[i + 1]!;
  const s = doc.source;
  if (end > doc.lineStarts[i]! && s.charCodeAt(end - 1) === 10) end--;
  if (end > doc.lineStarts[i]! && s.charCodeAt(end - 1) === 13) end--;
  return end;
}

/** Replace the content of line `i` (0-based), keeping its line break. */
export function replaceLineContent(doc: NomaDocument, i: number, content: string): TextEdit {
  return { from: doc.lineStarts[i]!, to: lineContentEnd(doc, i), insert: content };
}

/** Insert `lines` before line `i` (0-based; `i` = line count appends). New lines use the document's line break. */
export function insertLines(doc: NomaDocument, i: number, lines: readonly string[], eol = documentEol(doc)): TextEdit {
  if (lines.length === 0) return { from: doc.lineStarts[i] ?? doc.source.length, to: doc.lineStarts[i] ?? doc.source.length, insert: "" };
  const n = lineCount(doc);
  if (i >= n) {
    const at = doc.source.length;
    if (n === 0 || endsWithBreak(doc)) return { from: at, to: at, insert: lines.map((l) => l + eol).join("") };
    return { from: at, to: at, insert: eol + lines.join(eol) };
  }
  const at = doc.lineStarts[i]!;
  return { from: at, to: at, insert: lines.map((l) => l + eol).join("") };
}

/** Delete lines [a, b) (0-based), line breaks included; keeps a missing final line break missing. */
export function deleteLines(doc: NomaDocument, a: number, b: number): TextEdit {
  const n = lineCount(doc);
  if (b >= n && !endsWithBreak(doc) && a > 0) {
    return { from: lineContentEnd(doc, a - 1), to: doc.source.length, insert: "" };
  }
  return { from: doc.lineStarts[a]!, to: doc.lineStarts[Math.min(b, n)]!, insert: "" };
}

/** Replace lines [a, b) with `lines` (each new line ends with the document's break, except at a missing final break). */
export function replaceLines(doc: NomaDocument, a: number, b: number, lines: readonly string[], eol = documentEol(doc)): TextEdit {
  if (lines.length === 0) return deleteLines(doc, a, b);
  const n = lineCount(doc);
  const from = doc.lineStarts[a]!;
  if (b >= n && !endsWithBreak(doc)) return { from, to: doc.source.length, insert: lines.join(eol) };
  return { from, to: doc.lineStarts[b]!, insert: lines.map((l) => l + eol).join("") };
}
