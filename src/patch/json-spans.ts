/**
 * A JSON parser that keeps where every value sits in the text: the dataset ops edit a
 * JSON body in place (one value, one row, one key), whatever its layout, and leave every
 * other character as written. Strict JSON (RFC 8259): what JSON.parse accepts, and only
 * that; nesting deeper than `maxDepth` is refused rather than recursed into.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";

export type JsonSpan = JsonArraySpan | JsonObjectSpan | JsonScalarSpan;

interface SpanBase {
  /** Offset of the value's first character. */
  start: number;
  /** Offset just past the value. */
  end: number;
}

export interface JsonArraySpan extends SpanBase {
  kind: "array";
  items: JsonSpan[];
}

export interface JsonEntrySpan {
  key: string;
  /** Offset of the key's opening quote (the entry starts here). */
  start: number;
  /** Offset just past the key's closing quote. */
  keyEnd: number;
  /** Offset just past the value (the entry ends here). */
  end: number;
  value: JsonSpan;
}

export interface JsonObjectSpan extends SpanBase {
  kind: "object";
  entries: JsonEntrySpan[];
}

export interface JsonScalarSpan extends SpanBase {
  kind: "string" | "number" | "boolean" | "null";
  value: string | number | boolean | null;
}

export class JsonSpanError extends NomaError {
  static override readonly errorName: string = "JsonSpanError";
  static override readonly kind: ErrorKind = "internal";
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super("json-span", message);
  }
}

/** Parse `text` (one JSON value, whitespace around it allowed), keeping spans. */
export function parseJsonSpans(text: string, maxDepth = 200): JsonSpan {
  let i = 0;
  /** Stop at `i`: "expected <what>, found <the character there>". */
  const fail = (expected: string): never => {
    const found = i >= text.length ? "end of input" : JSON.stringify(text[i]);
    throw new JsonSpanError(`expected ${expected}, found ${found}`, i);
  };
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else return;
    }
  };
  /** A string at `i`: its end offset is left in `i`, its value returned. */
  const string = (): string => {
    const start = i;
    let escaped = false;
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail("a closing '\"'");
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) fail("a character (control characters must be escaped)");
      if (c === 92) {
        escaped = true;
        i++;
        const e = text[i];
        if (e === "u") {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!isHexDigit(text.charCodeAt(i))) fail("a hex digit");
            i++;
          }
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('an escape (one of " \\ / b f n r t u)');
        i++;
        continue;
      }
      i++;
    }
    i++; // closing quote
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const value = (depth: number): JsonSpan => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{" || c === "[") {
      if (depth >= maxDepth) fail(`nesting no deeper than ${maxDepth} levels`);
      i++;
      ws();
      if (c === "[") {
        const items: JsonSpan[] = [];
        if (text[i] === "]") {
          i++;
          return { kind: "array", start, end: i, items };
        }
        for (;;) {
          items.push(value(depth + 1));
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === "]") {
            i++;
            return { kind: "array", start, end: i, items };
          }
          fail('"," or "]"');
        }
      }
      const entries: JsonEntrySpan[] = [];
      if (text[i] === "}") {
        i++;
        return { kind: "object", start, end: i, entries };
      }
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 34) fail("a property name in double quotes");
        const keyStart = i;
        const key = string();
        const keyEnd = i;
        ws();
        if (text.charCodeAt(i) !== 58) fail('":"');
        i++;
        const v = value(depth + 1);
        entries.push({ key, start: keyStart, keyEnd, end: v.end, value: v });
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return { kind: "object", start, end: i, entries };
        }
        fail('"," or "}"');
      }
    }
    if (c === '"') {
      const v = string();
      return { kind: "string", start, end: i, value: v };
    }
    /** A literal at `i`, failing at its first wrong character. */
    const literal = (word: string): void => {
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) fail(`"${word}"`);
    };
    if (c === "t") {
      literal("true");
      return { kind: "boolean", start, end: i, value: true };
    }
    if (c === "f") {
      literal("false");
      return { kind: "boolean", start, end: i, value: false };
    }
    if (c === "n") {
      literal("null");
      return { kind: "null", start, end: i, value: null };
    }
    // A number: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
    const digits = (): number => {
      const from = i;
      while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      return i - from;
    };
    if (text.charCodeAt(i) === 45) i++;
    if (text.charCodeAt(i) === 48) i++;
    else if (digits() === 0) return fail(start === i ? "a JSON value" : "a digit");
    if (text.charCodeAt(i) === 46) {
      i++;
      if (digits() === 0) fail("a digit");
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      if (digits() === 0) fail("a digit");
    }
    return { kind: "number", start, end: i, value: Number(text.slice(start, i)) };
  };
  const root = value(0);
  ws();
  if (i < text.length) fail("end of input");
  return root;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
