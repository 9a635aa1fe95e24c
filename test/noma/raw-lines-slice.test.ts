/**
 * The fast path of a block's hash input (src/noma/raw-lines-slice.ts) against the slow path it
 * replaces (rawLinesForHash): equal for every text and every line range, out-of-range ones included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rawLinesSlice } from "../../src/noma/raw-lines-slice.js";
import { rawLinesForHash, splitLines } from "../../src/noma/split-lines.js";

const piece = fc.constantFrom("a", "bc", " ", "\n", "\r", "\r\n", "\n\n", "é", "😀", "::", "\t");
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));

describe("rawLinesSlice", () => {
  it("equals rawLinesForHash for every text and line range (property)", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -1, max: 45 }), fc.integer({ min: -1, max: 45 }), (t, a, b) => {
        const { lineStarts } = splitLines(t);
        expect(rawLinesSlice(t, lineStarts, a, b)).toBe(rawLinesForHash(t, lineStarts, a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps each line's \\r, joins with \\n, and takes the slow path across a lone \\r", () => {
    const t = "a\r\nb\rc\nd\n";
    const { lineStarts } = splitLines(t);
    expect(rawLinesSlice(t, lineStarts, 1, 1)).toBe("a\r");
    expect(rawLinesSlice(t, lineStarts, 1, 3)).toBe("a\r\nb\r\nc");
    expect(rawLinesSlice(t, lineStarts, 3, 9)).toBe("c\nd");
    expect(rawLinesSlice(t, lineStarts, 5, 9)).toBe("");
  });
});
