/**
 * Source-preserving edits: every change is a replacement of a character range
 * of the original text. Untouched bytes (line endings, BOM, trailing
 * whitespace of other lines) are copied verbatim.
 */
import { isAscii } from "node:buffer";
import type { NomaDocument } from "../noma/ast.js";
import { byteRange, type Bytes } from "./byte-pieces.js";

export interface TextEdit {
  from: number;
  to: number;
  insert: string;
}

/**
 * What the edits of one op changed, when it is being recorded (see recordEdits): the text
 * they produced and the bounds of the change — that text equals the op's starting text in
 * its first `prefix` and last `suffix` characters.
 */
export interface RecordedEdit {
  text: string;
  prefix: number;
  suffix: number;
}

/** The op's starting text, the recorded edit so far (null: none yet), and whether a source was not the text so far. */
let recording: { origin: string; edit: RecordedEdit | null; lost: boolean } | null = null;

/** Start recording the edits applied to `origin` (and to the texts they produce, in turn). */
export function recordEdits(origin: string): void {
  recording = { origin, edit: null, lost: false };
}

/**
 * Stop recording: what the edits since recordEdits changed; null when nothing was
 * applied, undefined when an edit was applied to some other text (the change is unknown).
 */
export function recordedEdit(): RecordedEdit | null | undefined {
  const r = recording;
  recording = null;
  if (r === null || r.lost) return undefined;
  return r.edit;
}

/** Results at least this long are assembled in a byte buffer (see assemble). */
const LARGE = 1 << 20;
/** The buffer long results are written into, reused op after op. */
let scratch: Buffer | null = null;
/**
 * The last long result, whether it has characters beyond U+00FF, and whether it is all ASCII
 * (undefined: not known yet). The buffer holds its characters until the next long result.
 */
let lastLong: { text: string; wide: boolean; ascii: boolean | undefined } | null = null;

/**
 * `parts` (of `source` and inserts, from the `sorted` edits) joined into a string of `length`
 * characters, written into a reused buffer — one byte per character when every character
 * fits (Latin-1), else two (UTF-16 code units, lone surrogates kept) — and decoded from it.
 * Node makes a string this long an external string, whose characters live in memory the C
 * allocator hands back op after op; a join takes a fresh block of the garbage-collected heap
 * each time, whose pages the kernel faults in one by one (the largest single cost of an op:
 * docs/perf/patch.md). The characters are the same either way.
 *
 * When `source` is the text the buffer already holds (the previous op's result: an op list)
 * and one edit made this one, only what follows the edit moves and the insert is written:
 * the characters before it are already in place. Its ASCII-ness then follows from the
 * source's and the insert's, without reading the text again (see assembledBytes).
 */
function assemble(source: string, sorted: readonly TextEdit[], parts: readonly string[], length: number): string {
  const last = lastLong;
  const held = last !== null && last.text === source;
  let wide = held ? last.wide : /[^\x00-\xff]/.test(source);
  for (let k = 1; k < parts.length && !wide; k += 2) wide = /[^\x00-\xff]/.test(parts[k]!);
  const encoding = wide ? "utf16le" : "latin1";
  const unit = wide ? 2 : 1;
  const bytes = length * unit;
  let at = 0;
  let ascii: boolean | undefined;
  if (held && last.wide === wide && sorted.length === 1 && scratch !== null && scratch.length >= bytes) {
    const e = sorted[0]!;
    scratch.copyWithin((e.from + e.insert.length) * unit, e.to * unit, source.length * unit);
    scratch.write(e.insert, e.from * unit, encoding);
    at = bytes;
    ascii = last.ascii === undefined ? undefined : last.ascii && /^[\x00-\x7f]*$/.test(e.insert);
  } else {
    if (scratch === null || scratch.length < bytes) scratch = Buffer.allocUnsafeSlow(bytes + (bytes >> 3));
    for (const part of parts) at += scratch.write(part, at, encoding);
  }
  const text = scratch.toString(encoding, 0, at);
  lastLong = { text, wide, ascii: wide ? false : ascii };
  return text;
}

/** A long ASCII text whose bytes are known, as pieces (see useTextBytes). */
let pieced: { text: string; bytes: Bytes } | null = null;

/**
 * The bytes of long ASCII `text` (one per character), for a process that edits it once (a
 * one-shot patch): long results of edits to it are then joined as strings, and their bytes
 * kept as pieces — views of these bytes and the inserts' — which the hash and the write use
 * (assembledBytes). No buffer the size of the document is filled or decoded.
 */
export function useTextBytes(text: string, bytes: Uint8Array): void {
  pieced = text.length >= LARGE && bytes.length === text.length ? { text, bytes } : null;
}

/**
 * The UTF-8 bytes of `text` when it is a long result assembled last and all ASCII (its
 * Latin-1 bytes are then its UTF-8 bytes), else undefined. Views of the reused buffer or of
 * the pieces: valid until the next edit.
 */
export function assembledBytes(text: string): Bytes | undefined {
  if (pieced !== null && pieced.text === text) return pieced.bytes;
  const last = lastLong;
  if (last === null || last.wide || scratch === null || last.text !== text) return undefined;
  const bytes = scratch.subarray(0, text.length);
  last.ascii ??= isAscii(bytes);
  return last.ascii ? bytes : undefined;
}

/** Let go of the buffer long results are assembled in (it is made again when needed) and of known bytes. */
export function releaseEditBuffer(): void {
  scratch = null;
  lastLong = null;
  pieced = null;
}

/** `sorted` applied to `source`, whose bytes are `bytes`: the result's bytes as pieces (inserts all ASCII), else undefined. */
function piecesOf(source: string, bytes: Bytes, sorted: readonly TextEdit[]): Bytes | undefined {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const e of sorted) {
    if (!/^[\x00-\x7f]*$/.test(e.insert)) return undefined;
    out.push(...byteRange(bytes, at, e.from));
    if (e.insert !== "") out.push(Buffer.from(e.insert, "latin1"));
    at = e.to;
  }
  out.push(...byteRange(bytes, at, source.length));
  return out;
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
  const length = source.length + sorted.reduce((n, e) => n + e.insert.length - (e.to - e.from), 0);
  const known = length >= LARGE && pieced !== null && pieced.text === source ? piecesOf(source, pieced.bytes, sorted) : undefined;
  const text = known !== undefined || length < LARGE ? parts.join("") : assemble(source, sorted, parts, length);
  if (known !== undefined) pieced = { text, bytes: known };
  const r = recording;
  if (r !== null && !r.lost) {
    // Edits of the text so far compose: the unchanged ends of both steps hold for the whole.
    const prefix = sorted[0]!.from;
    const suffix = source.length - at;
    if (r.edit === null && source === r.origin) r.edit = { text, prefix, suffix };
    else if (r.edit !== null && source === r.edit.text) r.edit = { text, prefix: Math.min(prefix, r.edit.prefix), suffix: Math.min(suffix, r.edit.suffix) };
    else r.lost = true;
  }
  return text;
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
