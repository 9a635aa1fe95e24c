/**
 * Directive and heading attribute blocks: `{key key=value key="…" key='…'}`.
 *
 * Tokens are scanned left to right; text between tokens is skipped; a later
 * duplicate key wins; a bare key is `true`. Every value, quoted or not, is
 * coerced (see `coerceAttrValue`). Each token keeps its offsets so the patch
 * engine can rewrite one token and leave the rest of the line untouched.
 */
import type { AttrToken, AttrValue } from "./ast.js";

const INT = /^-?\d+$/;
const DECIMAL = /^-?\d+\.\d+$/;

/** `true`/`false` → boolean; `-?\d+` → integer; `-?\d+\.\d+` → number; anything else stays a string. */
export function coerceAttrValue(raw: string): AttrValue {
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (INT.test(raw) || DECIMAL.test(raw)) return Number(raw);
  return raw;
}

function isKeyStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isKeyChar(c: number): boolean {
  return isKeyStart(c) || (c >= 48 && c <= 57) || c === 45;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Attributes live on plain objects (V8 keeps them in fast mode; null-prototype
 * objects are dictionaries and much slower to build). Keys are arbitrary
 * document text, so read and write them only through these two helpers:
 * `getAttr` ignores inherited members (`toString`, `constructor`…), `setAttr`
 * stores `__proto__` as an own property instead of changing the prototype.
 */
export function getAttr(attrs: Readonly<Record<string, AttrValue>>, key: string): AttrValue | undefined {
  return Object.prototype.hasOwnProperty.call(attrs, key) ? attrs[key] : undefined;
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
 * Scan the text between the braces of an attribute block.
 * `offset` is added to every token position (the index of the character after `{` on its line).
 */
export function parseAttributes(inner: string, offset = 0): ParsedAttrs {
  const tokens: AttrToken[] = [];
  const attrs = scanAttributes(inner, offset, tokens);
  return { attrs, tokens };
}

/** Attribute values only (the parser's hot path: no token objects). */
export function parseAttributeValues(inner: string): Record<string, AttrValue> {
  return scanAttributes(inner, 0, null);
}

function scanAttributes(inner: string, offset: number, tokens: AttrToken[] | null): Record<string, AttrValue> {
  const attrs: Record<string, AttrValue> = {};
  const n = inner.length;
  let i = 0;
  while (i < n) {
    const c = inner.charCodeAt(i);
    if (!isKeyStart(c)) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isKeyChar(inner.charCodeAt(i))) i++;
    const key = inner.slice(start, i);
    let value: AttrValue = true;
    if (i < n && inner.charCodeAt(i) === 61 /* = */) {
      i++;
      const q = inner.charCodeAt(i);
      if (q === 34 /* " */ || q === 39 /* ' */) {
        const close = inner.indexOf(q === 34 ? '"' : "'", i + 1);
        if (close === -1) {
          value = coerceAttrValue(inner.slice(i + 1));
          i = n;
        } else {
          value = coerceAttrValue(inner.slice(i + 1, close));
          i = close + 1;
        }
      } else {
        const vStart = i;
        while (i < n && !isSpace(inner.charCodeAt(i))) i++;
        value = coerceAttrValue(inner.slice(vStart, i));
      }
    }
    setAttr(attrs, key, value);
    if (tokens !== null) tokens.push({ key, value, start: start + offset, end: i + offset });
  }
  return attrs;
}

/** Why an attribute value cannot be written so that it reads back the same. */
export type AttrFormatError = "newline" | "both-quotes";

/**
 * Write one attribute token: `true` → bare key; `false` → `key=false`; numbers in JS form;
 * strings `key="…"`, or `key='…'` when they contain `"`. A value with a line break,
 * or with both quote kinds, cannot be read back and is refused.
 */
export function formatAttr(key: string, value: AttrValue): string | AttrFormatError {
  if (value === true) return key;
  if (value === false) return `${key}=false`;
  if (typeof value === "number") return `${key}=${String(value)}`;
  if (/[\r\n]/.test(value)) return "newline";
  if (value.includes('"')) {
    if (value.includes("'")) return "both-quotes";
    return `${key}='${value}'`;
  }
  return `${key}="${value}"`;
}

/** Split an `aliases` value on commas and/or whitespace. */
/** The shared empty alias list (frozen: replace it, never push to it). */
export const NO_ALIASES: readonly string[] = Object.freeze([]);

export function splitAliases(value: AttrValue | undefined): readonly string[] {
  if (value === undefined || typeof value === "boolean") return NO_ALIASES;
  return String(value)
    .split(/[\s,]+/)
    .filter((a) => a.length > 0);
}
