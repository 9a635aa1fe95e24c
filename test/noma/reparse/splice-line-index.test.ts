/**
 * spliceLineIndex: for any text, any edit and any valid (prefix, suffix) split —
 * line endings LF, CRLF and lone CR mixed — the spliced index equals indexing the
 * edited text from scratch.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexLines } from "../../../src/noma/parse-noma.js";
import { lineAt } from "../../../src/noma/index-lines.js";
import { spliceLineIndex } from "../../../src/noma/reparse/splice-line-index.js";

const piece = fc.constantFrom("a", "bc", "\n", "\r\n", "\r", "", "::", "\n\n");
const textArb = fc.array(piece, { maxLength: 30 }).map((p) => p.join(""));

function commonEnds(a: string, b: string): [number, number] {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a[p] === b[p]) p++;
  let s = 0;
  while (s < max - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return [p, s];
}

describe("spliceLineIndex", () => {
  it("equals indexLines of the edited text", () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(6), textArb, fc.nat(3), fc.nat(3), (text, at, remove, insert, shrinkP, shrinkS) => {
        const i = at % (text.length + 1);
        const next = text.slice(0, i) + insert + text.slice(i + remove);
        const [p0, s0] = commonEnds(text, next);
        // Any smaller split is valid too (callers may know less than the maximal one).
        const p = Math.max(0, p0 - shrinkP);
        const s = Math.max(0, s0 - shrinkS);
        const got = spliceLineIndex(indexLines(text), text, next, p, s);
        const want = indexLines(next);
        expect([...got.starts]).toEqual([...want.starts]);
        expect([...got.ends]).toEqual([...want.ends]);
      }),
      { numRuns: 5000 },
    );
  });

  it("equals indexLines after every edit of a chain spliced in place (reuse)", () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.tuple(fc.nat(), fc.nat(6), textArb), { minLength: 1, maxLength: 10 }), (start, edits) => {
        let text = start;
        let index = indexLines(text);
        for (const [at, remove, insert] of edits) {
          const i = at % (text.length + 1);
          const next = text.slice(0, i) + insert + text.slice(i + remove);
          const [p, s] = commonEnds(text, next);
          index = spliceLineIndex(index, text, next, p, s, true);
          const want = indexLines(next);
          expect([...index.starts]).toEqual([...want.starts]);
          expect([...index.ends]).toEqual([...want.ends]);
          text = next;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("lineAt finds the line of an offset", () => {
    const { starts } = indexLines("ab\ncd\n\nef");
    expect([0, 2, 3, 5, 6, 7, 9].map((o) => lineAt(starts, o))).toEqual([0, 0, 1, 1, 2, 3, 3]);
  });
});
