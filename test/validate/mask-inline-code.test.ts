/**
 * maskInlineCode blanks `code spans` (each backtick pairs with the next one) keeping every
 * column: the same string as replacing /`[^`]*`/g with spaces.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskInlineCode } from "../../src/validate/validate-noma.js";

describe("maskInlineCode", () => {
  it("equals the regular-expression replacement", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("`", "a", "[[", "]]", " ", "``", "x y"), { maxLength: 20 }), (parts) => {
        const line = parts.join("");
        expect(maskInlineCode(line)).toBe(line.replace(/`[^`]*`/g, (m) => " ".repeat(m.length)));
      }),
      { numRuns: 3000 },
    );
  });

  it("examples", () => {
    expect(maskInlineCode("see `[[x]]` and [[y]]")).toBe("see         and [[y]]");
    expect(maskInlineCode("no code")).toBe("no code");
    expect(maskInlineCode("one ` tick")).toBe("one ` tick");
  });
});
