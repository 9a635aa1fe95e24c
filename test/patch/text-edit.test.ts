/**
 * applyEdits: long results are assembled in a byte buffer (Latin-1, or UTF-16 when a
 * character does not fit a byte) instead of joined; the text is the same as the join's,
 * for any edits of long texts — non-Latin-1 characters and lone surrogates in the source
 * or in an insert, texts that become wide and narrow again, chained edits. A text whose bytes
 * are known (useTextBytes: a one-shot patch) has its results' bytes as pieces of them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bytesLength, byteRange } from "../../src/patch/byte-pieces.js";
import { applyEdits, assembledBytes, recordedEdit, recordEdits, releaseEditBuffer, useTextBytes, type TextEdit } from "../../src/patch/text-edit.js";

const BIG = '::claim{id="c"}\nprose line\n::\n'.repeat(40_000); // ~1.2 M characters
const insertArb = fc.constantFrom("", "x", "\n", "é", "—", "≥ ×", "😀", "\ud800", "\udc00z", "ÿ");

function joined(source: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.from - b.from);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    out += source.slice(at, e.from) + e.insert;
    at = e.to;
  }
  return out + source.slice(at);
}

describe("applyEdits", () => {
  it("assembles long results to exactly the joined text, chained, wide or not", () => {
    fc.assert(
      fc.property(fc.constantFrom("", "—", "\ud83d"), fc.array(fc.tuple(fc.nat(), fc.nat(3), insertArb), { minLength: 1, maxLength: 6 }), (seed, steps) => {
        releaseEditBuffer();
        let text = seed + BIG;
        for (const [at, remove, insert] of steps) {
          const from = at % text.length;
          const edit = { from, to: Math.min(text.length, from + remove), insert };
          const want = joined(text, [edit]);
          recordEdits(text);
          const got = applyEdits(text, [edit]);
          expect(recordedEdit()).toEqual({ text: got, prefix: edit.from, suffix: text.length - edit.to });
          expect(got.length).toBe(want.length);
          expect(got === want).toBe(true);
          // Its UTF-8 bytes are at hand exactly when it is all ASCII.
          const utf8 = assembledBytes(got);
          if (/[^\x00-\x7f]/.test(got)) expect(utf8).toBeUndefined();
          else expect(Buffer.compare(Buffer.concat(byteRange(utf8!, 0, got.length)), Buffer.from(got, "utf8"))).toBe(0);
          text = got;
        }
      }),
      { numRuns: 40 },
    );
  });

  it("updates the buffer in place for an edit of the text it holds, and assembles anew from any other text or several edits", () => {
    // Each step edits the last result (the buffer holds it: moved in place), an earlier result
    // (the buffer holds another text), or the last result with two edits at once.
    const step = fc.tuple(fc.constantFrom("last", "earlier", "two"), fc.nat(), fc.nat(3), insertArb, fc.nat(), insertArb);
    fc.assert(
      fc.property(fc.constantFrom("", "é", "—"), fc.array(step, { minLength: 1, maxLength: 8 }), (seed, steps) => {
        releaseEditBuffer();
        const texts = [seed + BIG];
        for (const [which, at, remove, insert, at2, insert2] of steps) {
          const text = which === "earlier" ? texts[at2 % texts.length]! : texts[texts.length - 1]!;
          const from = at % text.length;
          const edits: TextEdit[] = [{ from, to: Math.min(text.length, from + remove), insert }];
          const from2 = at2 % (text.length + 1);
          if (which === "two" && (from2 < from || from2 >= Math.min(text.length, from + remove))) edits.push({ from: from2, to: from2, insert: insert2 });
          const got = applyEdits(text, edits);
          expect(got === joined(text, edits)).toBe(true);
          const utf8 = assembledBytes(got);
          if (/[^\x00-\x7f]/.test(got)) expect(utf8).toBeUndefined();
          else expect(Buffer.compare(Buffer.concat(byteRange(utf8!, 0, got.length)), Buffer.from(got, "utf8"))).toBe(0);
          texts.push(got);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("keeps a known text's results as pieces of its bytes, exactly the results' bytes, until an insert is not ASCII", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom("", "x", "\n", "::", "é", "\ud800")), { minLength: 1, maxLength: 6 }), (steps) => {
        releaseEditBuffer();
        let text = BIG;
        useTextBytes(text, Buffer.from(text, "latin1"));
        let ascii = true;
        for (const [at, remove, insert] of steps) {
          const from = at % text.length;
          const edit = { from, to: Math.min(text.length, from + remove), insert };
          const got = applyEdits(text, [edit]);
          expect(got).toBe(joined(text, [edit]));
          ascii &&= /^[\x00-\x7f]*$/.test(insert);
          const bytes = assembledBytes(got);
          if (ascii) {
            expect(Array.isArray(bytes)).toBe(true); // pieces, not the scratch buffer
            expect(bytesLength(bytes!)).toBe(got.length);
            expect(Buffer.concat(byteRange(bytes!, 0, got.length)).equals(Buffer.from(got, "latin1"))).toBe(true);
            const a = from % (got.length + 1);
            expect(Buffer.concat(byteRange(bytes!, a, Math.min(got.length, a + 70_000))).toString("latin1")).toBe(got.slice(a, a + 70_000));
          } else if (/[^\x00-\x7f]/.test(got)) expect(bytes).toBeUndefined();
          text = got;
        }
      }),
      { numRuns: 30 },
    );
    releaseEditBuffer();
  });

  it("records the span of several edits, and of edits applied to the text an earlier edit made", () => {
    const src = "abcdefghij";
    recordEdits(src);
    const one = applyEdits(src, [
      { from: 6, to: 7, insert: "G" },
      { from: 2, to: 3, insert: "CC" },
    ]);
    const two = applyEdits(one, [{ from: 9, to: 10, insert: "" }]);
    expect(two).toBe("abCCdefGhj");
    expect(recordedEdit()).toEqual({ text: two, prefix: 2, suffix: 1 });
    recordEdits(src);
    applyEdits("other", [{ from: 0, to: 1, insert: "O" }]);
    expect(recordedEdit()).toBeUndefined();
    recordEdits(src);
    expect(recordedEdit()).toBeNull();
  });
});
