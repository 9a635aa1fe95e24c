/**
 * Whether bytes are text the product can judge: UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF) holding no NUL byte (git's own test for binary content).
 * A document, transcript, spec, sidecar or configuration that is not is refused everywhere
 * with one code (`not-utf8-text`) and one message naming the first byte that is not text;
 * nothing is ever decoded with U+FFFD in place of bytes it could not read. A UTF-8 byte-order
 * mark is text (it is kept byte for byte, Noma §5.4); a UTF-16 or UTF-32 one is not, and the
 * message says how to convert the file (docs/noma-decisions.md).
 */
import { isAscii, isUtf8 } from "node:buffer";
import { NomaError } from "../errors/noma-error.js";
import { decodeUtf8 } from "./read-text-file.js";

/** The code of every refusal of bytes that are not UTF-8 text (a diagnostic's code, an error's code). */
export const NOT_UTF8_TEXT = "not-utf8-text";

/**
 * The offset where `bytes` stop being text: the first NUL byte, or the first byte of the first
 * ill-formed UTF-8 sequence (where a decoder would put its first U+FFFD); -1 when they are text.
 */
export function firstNonTextByte(bytes: Uint8Array): number {
  const nul = bytes.indexOf(0);
  if (isAscii(bytes)) return nul;
  const end = nul === -1 ? bytes.length : nul;
  if (nul === -1 && isUtf8(bytes)) return -1;
  const bad = invalidUtf8Before(bytes, end);
  return bad === -1 ? nul : bad;
}

/** The first byte of the first ill-formed UTF-8 sequence (NUL bytes allowed), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  return isUtf8(bytes) ? -1 : invalidUtf8Before(bytes, bytes.length);
}

/** The first byte (before `end`) of the first ill-formed UTF-8 sequence, or -1. */
function invalidUtf8Before(b: Uint8Array, end: number): number {
  let i = 0;
  while (i < end) {
    if (b[i]! < 0x80) {
      i++;
      continue;
    }
    const n = utf8SequenceLength(b, i);
    if (n === 0) return i;
    i += n;
  }
  return -1;
}

/**
 * The length of the well-formed UTF-8 sequence starting at `b[i]` (1 to 4), or 0 when the
 * bytes there are ill-formed (an overlong form, a surrogate, past U+10FFFF, a stray
 * continuation byte, a sequence cut short by the end or by a byte that does not continue it).
 */
export function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c >= 0xe0 && c <= 0xef) {
    need = 2;
    if (c === 0xe0) lo = 0xa0; // no overlong forms
    if (c === 0xed) hi = 0x9f; // no surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 3;
    if (c === 0xf0) lo = 0x90; // no overlong forms
    if (c === 0xf4) hi = 0x8f; // nothing past U+10FFFF
  } else return 0;
  for (let k = 1; k <= need; k++) {
    const n = b[i + k];
    if (n === undefined || n < (k === 1 ? lo : 0x80) || n > (k === 1 ? hi : 0xbf)) return 0;
  }
  return need + 1;
}

/** The 1-based line and column (in characters) of byte `offset`, the bytes before it being text. */
export function textPosition(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = bytes[i]!;
    if (c === 0x0a || (c === 0x0d && bytes[i + 1] !== 0x0a)) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: Buffer.from(bytes.buffer, bytes.byteOffset + start, offset - start).toString("utf8").length + 1 };
}

const hex = (n: number): string => `0x${n.toString(16).toUpperCase().padStart(2, "0")}`;

/** Why `bytes` are not text, `at` being firstNonTextByte's answer: the byte, its offset, and (a UTF-16/32 byte-order mark) what to do. */
export function describeNonText(bytes: Uint8Array, at: number): string {
  const byte = bytes[at]!;
  const what = byte === 0 ? `byte 0x00 (NUL) at offset ${at}` : `byte ${hex(byte)} at offset ${at} is not valid UTF-8`;
  return `not UTF-8 text: ${what}${bomHint(bytes)}`;
}

function bomHint(b: Uint8Array): string {
  const le = b[0] === 0xff && b[1] === 0xfe;
  const be = b[0] === 0xfe && b[1] === 0xff;
  const le32 = le && b[2] === 0 && b[3] === 0;
  const be32 = b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff;
  const from = le32 ? "UTF-32LE" : be32 ? "UTF-32BE" : le ? "UTF-16LE" : be ? "UTF-16BE" : null;
  if (from === null) return "";
  return ` (the file starts with a ${from} byte-order mark; Noma files are UTF-8: convert it, e.g. iconv -f ${from} -t UTF-8)`;
}

/** Bytes that are not UTF-8 text, refused. `file` names them (a repository-relative path, or a label). */
export class NotUtf8TextError extends NomaError {
  static override readonly errorName: string = "NotUtf8TextError";
  constructor(
    readonly file: string,
    /** The first byte that is not text. */
    readonly offset: number,
    /** The message without the file: what `describeNonText` says. */
    readonly reason: string,
    /** Where that byte is (1-based line, column in characters). */
    readonly position: { line: number; column: number },
  ) {
    super(NOT_UTF8_TEXT, `${file}: ${reason}`);
  }
}

/** The NotUtf8TextError for `bytes` (naming `file`), or null when they are text. */
export function nonTextError(bytes: Uint8Array, file: string): NotUtf8TextError | null {
  const at = firstNonTextByte(bytes);
  return at === -1 ? null : new NotUtf8TextError(file, at, describeNonText(bytes, at), textPosition(bytes, at));
}

/** The text of `bytes`, or NotUtf8TextError naming `file` and the first byte that is not text (decoded as read-text-file.ts does). */
export function decodeText(bytes: Buffer, file: string): string {
  const error = nonTextError(bytes, file);
  if (error !== null) throw error;
  return decodeUtf8(bytes);
}

/** The first lone surrogate of `s` (a UTF-16 unit no UTF-8 byte sequence encodes), as its index, or -1. */
export function loneSurrogateAt(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/**
 * Where a JSON value holds a string (a value or a key) that UTF-8 cannot encode — a lone
 * surrogate, which JSON's `\ud800` escape can spell — as `at` (a path like `ops[0].content`)
 * and a message; null when every string is well formed. Written as UTF-8 such a string would
 * lose the surrogate for U+FFFD while a record of the request kept it, so every text-writing
 * request refuses it. Iterative (any depth).
 */
export function illFormedString(value: unknown, name = "arguments"): { at: string; message: string } | null {
  const quick = (s: string): boolean => !/[\ud800-\udfff]/.test(s);
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: name }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (quick(v)) continue;
      const i = loneSurrogateAt(v);
      if (i !== -1) return { at: path, message: lonely(path, v, i) };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
      continue;
    }
    const keys = Object.keys(v);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k]!;
      const at = `${path}.${key}`;
      if (!quick(key) && loneSurrogateAt(key) !== -1) return { at, message: lonely(`a key of ${path}`, key, loneSurrogateAt(key)) };
      stack.push({ v: (v as Record<string, unknown>)[key], path: at });
    }
  }
  return null;
}

function lonely(where: string, s: string, i: number): string {
  const unit = `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return `${where}: a lone surrogate (${unit} at character ${i}) is not text UTF-8 can encode; it would be written as U+FFFD`;
}
