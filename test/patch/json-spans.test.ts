/**
 * parseJsonSpans (the JSON reader of the dataset ops): it accepts exactly what JSON.parse
 * accepts, every span it reports holds the value JSON.parse reads there, and no input
 * makes it recurse without bound.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonSpanError, parseJsonSpans, type JsonSpan } from "../../src/patch/json-spans.js";

function check(text: string, span: JsonSpan): void {
  const value = JSON.parse(text.slice(span.start, span.end)) as unknown;
  if (span.kind === "array") {
    expect(Array.isArray(value)).toBe(true);
    expect(span.items.length).toBe((value as unknown[]).length);
    for (const item of span.items) check(text, item);
  } else if (span.kind === "object") {
    // (Object.keys puts integer-like keys first: compare as sets.)
    expect(span.entries.map((e) => e.key).sort()).toEqual(Object.keys(value as object).sort());
    for (const e of span.entries) {
      expect(JSON.parse(text.slice(e.start, e.keyEnd))).toBe(e.key);
      expect(e.end).toBe(e.value.end);
      check(text, e.value);
    }
  } else {
    expect(value).toEqual(span.value);
  }
}

describe("parseJsonSpans", () => {
  it("reads every JSON value in any layout, with spans that hold what JSON.parse reads", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 1, 2, 4, "\t", " \r\n "), (value, indent) => {
        const text = ` ${JSON.stringify(value, null, indent)}\n`;
        const span = parseJsonSpans(text);
        expect(JSON.parse(text.slice(span.start, span.end))).toEqual(JSON.parse(text));
        check(text, span);
      }),
      { numRuns: 400 },
    );
  });

  it("accepts exactly what JSON.parse accepts, on mangled JSON and on arbitrary text", () => {
    const mangled = fc
      .tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat(), fc.constantFrom("", ",", "]", "}", '"', "\\", "01", "-", "1e", "\u0001", "tru", " "))
      .map(([v, at, ins]) => {
        const t = JSON.stringify(v, null, 1);
        const k = at % (t.length + 1);
        return t.slice(0, k) + ins + t.slice(k + (ins === "" ? 1 : 0));
      });
    fc.assert(
      fc.property(fc.oneof(mangled, fc.string({ maxLength: 30 })), (text) => {
        let native = true;
        try {
          JSON.parse(text);
        } catch {
          native = false;
        }
        let ours = true;
        try {
          parseJsonSpans(text);
        } catch (e) {
          expect(e).toBeInstanceOf(JsonSpanError);
          ours = false;
        }
        expect(ours).toBe(native);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses deep nesting cleanly instead of recursing", () => {
    expect(() => parseJsonSpans("[".repeat(100_000))).toThrow(JsonSpanError);
    expect(() => parseJsonSpans(`${"[".repeat(300)}${"]".repeat(300)}`)).toThrow(/expected nesting no deeper than 200 levels, found "\["/);
    expect(parseJsonSpans(`${"[".repeat(150)}${"]".repeat(150)}`).kind).toBe("array");
  });
});
