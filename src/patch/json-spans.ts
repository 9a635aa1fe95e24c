/**
 * A JSON parser that keeps where every value sits in the text: the dataset ops edit a
 * JSON body in place (one value, one row, one key), whatever its layout, and leave every
 * other character as written. Strict JSON (RFC 8259): what JSON.parse accepts, and only
 * that; nesting deeper than `maxDepth` is refused rather than recursed into.
 */

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

export class JsonSpanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "JsonSpanError";
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parse `text` (one JSON value, whitespace around it allowed), keeping spans. */
export function parseJsonSpans(text: string, maxDepth = 200): JsonSpan {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSpanError(`${what} at offset ${i}`, i);
  };
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else return;
    }
  };
  const string = (): { value: string; start: number; end: number } => {
    const start = i;
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) fail("control character in a string");
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape");
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail("bad escape");
        i += 2;
        continue;
      }
      i++;
    }
    i++; // closing quote
    return { value: JSON.parse(text.slice(start, i)) as string, start, end: i };
  };
  const value = (depth: number): JsonSpan => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{" || c === "[") {
      if (depth >= maxDepth) fail(`nesting deeper than ${maxDepth} levels`);
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
          fail('expected "," or "]"');
        }
      }
      const entries: JsonEntrySpan[] = [];
      if (text[i] === "}") {
        i++;
        return { kind: "object", start, end: i, entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const key = string();
        ws();
        if (text[i] !== ":") fail('expected ":"');
        i++;
        const v = value(depth + 1);
        entries.push({ key: key.value, start: key.start, keyEnd: key.end, end: v.end, value: v });
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return { kind: "object", start, end: i, entries };
        }
        fail('expected "," or "}"');
      }
    }
    if (c === '"') {
      const s = string();
      return { kind: "string", start, end: s.end, value: s.value };
    }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { kind: v === null ? "null" : "boolean", start, end: i, value: v };
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return fail("expected a value");
    i += m[0].length;
    return { kind: "number", start, end: i, value: Number(m[0]) };
  };
  const root = value(0);
  ws();
  if (i < text.length) fail("unexpected text after the value");
  return root;
}
