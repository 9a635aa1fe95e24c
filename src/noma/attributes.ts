/**
 * Directive and heading attribute blocks: `{key key=value key="…" key='…'}`.
 *
 * Tokens are scanned left to right; text between tokens is skipped; a later
 * duplicate key wins; a bare key is `true`. Every value, quoted or not, is
 * coerced (see `coerceAttrValue`). Each token keeps its offsets so the patch
 * engine can rewrite one token and leave the rest of the line untouched.
 */
import type { AttrToken, AttrValue } from "./ast.js";

/** `-?\d+` or `-?\d+\.\d+`, over `raw[from, to)`. */
function isNumeral(raw: string): boolean {
  const n = raw.length;
  let i = raw.charCodeAt(0) === 45 ? 1 : 0;
  const digits = i;
  while (i < n && raw.charCodeAt(i) >= 48 && raw.charCodeAt(i) <= 57) i++;
  if (i === digits) return false;
  if (i === n) return true;
  if (raw.charCodeAt(i) !== 46) return false;
  const fraction = ++i;
  while (i < n && raw.charCodeAt(i) >= 48 && raw.charCodeAt(i) <= 57) i++;
  return i === n && i > fraction;
}

/** `true`/`false` → boolean; `-?\d+` → integer; `-?\d+\.\d+` → number; anything else stays a string. */
export function coerceAttrValue(raw: string): AttrValue {
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (isNumeral(raw)) return Number(raw);
  return raw;
}

/** Character classes of ASCII codes: 1 starts a key (`[A-Za-z_]`), 2 continues one (also `[0-9-]`). */
const KEY_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const start = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  KEY_CLASS[c] = start ? 3 : (c >= 48 && c <= 57) || c === 45 ? 2 : 0;
}

/**
 * Attributes live on plain objects (V8 keeps them in fast mode; null-prototype
 * objects are dictionaries and much slower to build). Keys are arbitrary
 * document text, so read and write them only through these two helpers:
 * `getAttr` ignores inherited members (`toString`, `constructor`…), `setAttr`
 * stores `__proto__` as an own property instead of changing the prototype.
 */
export function getAttr(attrs: Readonly<Record<string, AttrValue>>, key: string): AttrValue | undefined {
  return Object.hasOwn(attrs, key) ? attrs[key] : undefined;
}

export function setAttr(attrs: Record<string, AttrValue>, key: string, value: AttrValue): void {
  if (key === "__proto__") Object.defineProperty(attrs, key, { value, enumerable: true, writable: true, configurable: true });
  else attrs[key] = value;
}

export interface ParsedAttrs {
  attrs: Record<string, AttrValue>;
  tokens: AttrToken[];
}

/**
 * One `key`, `key=value`, `key="…"` or `key='…'` token, as offsets into the text
 * scanned. `valueStart` is -1 for a bare key (value `true`).
 */
export interface AttrTokenScan {
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
  /** Offset just past the token (past the closing quote for quoted values). */
  end: number;
}

/**
 * The next token of `text` in `[i, to)`, into `tok`; false when none is left. Tokens
 * are scanned left to right; text between tokens is skipped; an unclosed quote runs
 * to the end.
 */
export function nextAttrToken(text: string, i: number, to: number, tok: AttrTokenScan): boolean {
  // The character classes are read in place, not through isKeyStart/isKeyChar: a one-shot run
  // asks V8 not to inline (prepare-short-run-jit.ts), and this runs once per attribute character.
  let c = 0;
  while (i < to && ((c = text.charCodeAt(i)) >= 128 || (KEY_CLASS[c]! & 1) === 0)) i++;
  if (i >= to) return false;
  tok.keyStart = i;
  while (i < to && (c = text.charCodeAt(i)) < 128 && KEY_CLASS[c]! !== 0) i++;
  tok.keyEnd = i;
  tok.valueStart = -1;
  if (i < to && text.charCodeAt(i) === 61 /* = */) {
    i++;
    const q = i < to ? text.charCodeAt(i) : -1;
    if (q === 34 /* " */ || q === 39 /* ' */) {
      // Values are short: a loop costs less than calling indexOf.
      let close = i + 1;
      while (close < to && text.charCodeAt(close) !== q) close++;
      tok.valueStart = i + 1;
      tok.valueEnd = close;
      i = close < to ? close + 1 : to;
    } else {
      tok.valueStart = i;
      while (i < to && (c = text.charCodeAt(i)) !== 32 && c !== 9) i++;
      tok.valueEnd = i;
    }
  }
  tok.end = i;
  return true;
}

export function tokenValue(text: string, tok: AttrTokenScan): AttrValue {
  return tok.valueStart === -1 ? true : coerceAttrValue(text.slice(tok.valueStart, tok.valueEnd));
}

export function newTokenScan(): AttrTokenScan {
  return { keyStart: 0, keyEnd: 0, valueStart: -1, valueEnd: -1, end: 0 };
}

/**
 * Scan the text between the braces of an attribute block.
 * `offset` is added to every token position (the index of the character after `{` on its line).
 */
export function parseAttributes(inner: string, offset = 0): ParsedAttrs {
  const tokens: AttrToken[] = [];
  const attrs = scanAttributes(inner, 0, inner.length, offset, tokens);
  return { attrs, tokens };
}

/** Attribute values only (no token objects). */
export function parseAttributeValues(inner: string): Record<string, AttrValue> {
  return scanAttributes(inner, 0, inner.length, 0, null);
}

/** Attribute values of the block `text[from, to)` (the text between the braces), without slicing it out. */
export function parseAttributeRange(text: string, from: number, to: number): Record<string, AttrValue> {
  return scanAttributes(text, from, to, 0, null);
}

/** A later duplicate key wins; a bare key is `true`; every value is coerced (`coerceAttrValue`). */
function scanAttributes(text: string, from: number, to: number, offset: number, tokens: AttrToken[] | null): Record<string, AttrValue> {
  const attrs: Record<string, AttrValue> = {};
  const tok = newTokenScan();
  let i = from;
  while (nextAttrToken(text, i, to, tok)) {
    const key = text.slice(tok.keyStart, tok.keyEnd);
    const value = tokenValue(text, tok);
    setAttr(attrs, key, value);
    if (tokens !== null) tokens.push({ key, value, start: tok.keyStart - from + offset, end: tok.end - from + offset });
    i = tok.end;
  }
  return attrs;
}

/** Why an attribute value cannot be written so that it reads back the same. */
export type AttrFormatError = "newline" | "both-quotes" | "not-finite";

/**
 * A number as an attribute value reads back: `-?\d+(\.\d+)?`. JS writes very large and
 * very small numbers with an exponent (`1e+21`, `1e-7`), which would read back as a
 * string; those are written out in plain decimal (the shortest that reads back exactly).
 */
function plainNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  if (Object.is(value, -0)) return "-0";
  const s = String(value);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (m === null) return s;
  // The same decimal digits, with the point moved: reads back as exactly this number.
  const digits = m[2]! + (m[3] ?? "");
  const exp = Number(m[4]);
  if (exp < 0) return `${m[1]}0.${"0".repeat(-exp - 1)}${digits}`;
  const whole = exp + 1;
  return whole >= digits.length ? `${m[1]}${digits}${"0".repeat(whole - digits.length)}` : `${m[1]}${digits.slice(0, whole)}.${digits.slice(whole)}`;
}

/**
 * Write one attribute token: `true` → bare key; `false` → `key=false`; numbers in plain
 * decimal; strings `key="…"`, or `key='…'` when they contain `"`. There are no escapes
 * inside quotes, so a string with both quote kinds is written unquoted (`key=a"b'c`: an
 * unquoted value runs to the next space or tab) when it has no whitespace and does not
 * start with a quote; a value with a line break, or both quote kinds where that is not
 * possible, cannot be read back and is refused.
 */
export function formatAttr(key: string, value: AttrValue): string | AttrFormatError {
  if (value === true) return key;
  if (value === false) return `${key}=false`;
  if (typeof value === "number") {
    const n = plainNumber(value);
    return n === null ? "not-finite" : `${key}=${n}`;
  }
  if (/[\r\n]/.test(value)) return "newline";
  if (value.includes('"')) {
    if (!value.includes("'")) return `${key}='${value}'`;
    if (/[ \t]/.test(value) || value.startsWith('"') || value.startsWith("'")) return "both-quotes";
    return `${key}=${value}`;
  }
  return `${key}="${value}"`;
}

/**
 * Whether the attribute text `text[from, to)` (between the braces) is already what writing
 * its attributes back gives (each token as formatAttr writes it, in order, one space
 * apart): then a rendering may copy it. Conservative: a duplicate key, `__proto__`, a quoted
 * value that reads as a number or a boolean, an unquoted one that is not written unquoted,
 * or any other spacing answers false.
 */
export function isWrittenForm(text: string, from: number, to: number): boolean {
  const tok = WRITTEN;
  let i = from;
  let count = 0;
  while (i < to) {
    if (!nextAttrToken(text, i, to, tok) || tok.keyStart !== i) return false;
    const keyLength = tok.keyEnd - tok.keyStart;
    if (keyLength === 9 && text.startsWith("__proto__", tok.keyStart)) return false;
    // A key seen before in this block (a later duplicate would win, at the first one's place).
    for (let k = 0; k < count; k++) {
      const s = KEYS[2 * k]!;
      if (KEYS[2 * k + 1]! - s !== keyLength) continue;
      let j = 0;
      while (j < keyLength && text.charCodeAt(s + j) === text.charCodeAt(tok.keyStart + j)) j++;
      if (j === keyLength) return false;
    }
    KEYS[2 * count] = tok.keyStart;
    KEYS[2 * count + 1] = tok.keyEnd;
    count++;
    if (tok.valueStart !== -1) {
      const q = text.charCodeAt(tok.valueStart - 1);
      const raw = text.slice(tok.valueStart, tok.valueEnd);
      const value = coerceAttrValue(raw);
      if (q === 34 || q === 39) {
        // Quoted, and closed: a string that needs these quotes (single ones only around a `"`).
        if (tok.end !== tok.valueEnd + 1 || typeof value !== "string" || (q === 39) !== raw.includes('"')) return false;
      } else if (value !== false && (typeof value !== "number" || plainNumber(value) !== raw)) return false;
    }
    i = tok.end;
    if (i === to) break;
    if (text.charCodeAt(i) !== 32 || i + 1 >= to) return false;
    i++;
  }
  return count > 0;
}

const WRITTEN = newTokenScan();
/** Key ranges of the block being read by isWrittenForm. */
const KEYS: number[] = [];

/** Split an `aliases` value on commas and/or whitespace. */
/** The shared empty alias list (frozen: replace it, never push to it). */
export const NO_ALIASES: readonly string[] = Object.freeze([]);

export function splitAliases(value: AttrValue | undefined): readonly string[] {
  if (value === undefined || typeof value === "boolean") return NO_ALIASES;
  return String(value)
    .split(/[\s,]+/)
    .filter((a) => a.length > 0);
}
