/**
 * The JSON syntax locator used to name the position in an unparseable
 * `.mcp.json`: it accepts exactly what JSON.parse accepts (property tests on
 * valid JSON, mutated JSON and arbitrary text), and its position is where the
 * text stops being a JSON prefix.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findJsonSyntaxError } from "../../src/config/json-syntax-error.js";

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const jsonText = fc.tuple(fc.jsonValue(), fc.constantFrom(undefined, 2, "\t", 0)).map(([v, indent]) => JSON.stringify(v, null, indent));

describe("findJsonSyntaxError", () => {
  it("finds no error in any valid JSON text (property)", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(findJsonSyntaxError(text)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with JSON.parse on mutated JSON and on arbitrary text (property)", () => {
    const mutated = fc
      .tuple(jsonText, fc.nat(), fc.constantFrom("delete", "insert", "replace"), fc.constantFrom(...'{}[],:"\\ 0-.eE+tfnu\n\u0001x'))
      .map(([t, at, how, ch]) => {
        const i = t.length === 0 ? 0 : at % t.length;
        return how === "delete" ? t.slice(0, i) + t.slice(i + 1) : how === "insert" ? t.slice(0, i) + ch + t.slice(i) : t.slice(0, i) + ch + t.slice(i + 1);
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string({ maxLength: 40 })), (text) => {
        const e = findJsonSyntaxError(text);
        expect(e === null).toBe(parses(text));
        if (e !== null) {
          expect(e.offset).toBeGreaterThanOrEqual(0);
          expect(e.offset).toBeLessThanOrEqual(text.length);
          // Line and column point at the offset.
          const before = text.slice(0, e.offset).split("\n");
          expect(e.line).toBe(before.length);
          expect(e.column).toBe(before[before.length - 1]!.length + 1);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("names the first offending character and what was expected", () => {
    expect(findJsonSyntaxError('{\n  "a": 1,\n}')).toEqual({ offset: 12, line: 3, column: 1, message: 'expected a property name in double quotes, found "}"' });
    expect(findJsonSyntaxError('{"a" 1}')).toMatchObject({ line: 1, column: 6, message: 'expected ":", found "1"' });
    expect(findJsonSyntaxError("[1, 2")).toMatchObject({ column: 6, message: 'expected "," or "]", found end of input' });
    expect(findJsonSyntaxError("")).toMatchObject({ offset: 0, message: "expected a JSON value, found end of input" });
    expect(findJsonSyntaxError("{} x")).toMatchObject({ column: 4, message: 'expected end of input, found "x"' });
    expect(findJsonSyntaxError('"a\tb"')).toMatchObject({ column: 3 });
    expect(findJsonSyntaxError("01")).toMatchObject({ column: 2 });
    expect(findJsonSyntaxError("[tru]")).toMatchObject({ column: 5, message: 'expected "true", found "]"' });
    expect(findJsonSyntaxError('"\\u12g4"')).toMatchObject({ column: 6, message: 'expected a hex digit, found "g"' });
    expect(findJsonSyntaxError("-x")).toMatchObject({ column: 2, message: 'expected a digit, found "x"' });
  });

  it("reports nesting past 2000 levels instead of exhausting the stack", () => {
    expect(findJsonSyntaxError("[".repeat(100_000))).toMatchObject({ offset: 2000, message: 'expected nesting no deeper than 2000 levels, found "["' });
    expect(findJsonSyntaxError(`${"[".repeat(1999)}${"]".repeat(1999)}`)).toBeNull();
  });
});
