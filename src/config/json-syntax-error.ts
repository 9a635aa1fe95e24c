/**
 * Where a JSON text first goes wrong (RFC 8259, exactly what JSON.parse
 * accepts): the offset, 1-based line and column, and what was expected.
 * Node 20's JSON.parse names no position, and `init` must name the position
 * in an unparseable `.mcp.json` it refuses to touch. Only used on that error
 * path; returns null for valid JSON. The scanning is the span-keeping JSON
 * reader's (it stops where the text stops being a JSON prefix).
 */
import { JsonSpanError, parseJsonSpans } from "../patch/json-spans.js";

export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  message: string;
}

/** Deep enough for any configuration file, shallow enough to stay clear of the stack limit. */
const MAX_DEPTH = 2000;

export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  try {
    parseJsonSpans(text, MAX_DEPTH);
    return null;
  } catch (e) {
    if (!(e instanceof JsonSpanError)) throw e;
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < e.offset && k < text.length; k++) {
      if (text.charCodeAt(k) === 0x0a) {
        line++;
        lineStart = k + 1;
      }
    }
    return { offset: e.offset, line, column: e.offset - lineStart + 1, message: e.message };
  }
}
