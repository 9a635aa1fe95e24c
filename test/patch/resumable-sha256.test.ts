/**
 * ResumableSha256: the digest of any text, and of any edit of it resumed from the
 * earlier text's states, equals a one-shot sha256 of the UTF-8 bytes — surrogate
 * pairs, lone surrogates and chunk boundaries included.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonPrefixLength, ResumableSha256 } from "../../src/patch/resumable-sha256.js";

const sha = (t: string): string => createHash("sha256").update(t, "utf8").digest("hex");
const charArb = fc.oneof(fc.constantFrom("a", "\n", "é", "😀", "\ud800", "\udc00", "\r\n"), fc.string({ maxLength: 3, unit: "binary" }));
const textArb = fc.array(charArb, { maxLength: 60 }).map((a) => a.join(""));

describe("ResumableSha256", () => {
  it("equals sha256 of the UTF-8 bytes for any text and chunk size", () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 9 }), (text, chunk) => {
        expect(ResumableSha256.of(text, chunk).hex).toBe(sha(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("resumed along a chain of edits, equals sha256 of each text", () => {
    fc.assert(
      fc.property(textArb, fc.array(fc.tuple(fc.nat(), fc.nat(5), textArb), { maxLength: 6 }), fc.integer({ min: 1, max: 9 }), (start, edits, chunk) => {
        let h = ResumableSha256.of(start, chunk);
        const states = [h];
        for (const [at, remove, insert] of edits) {
          const t = h.text;
          const i = at % (t.length + 1);
          h = h.resume(t.slice(0, i) + insert + t.slice(i + remove));
          expect(h.hex).toBe(sha(h.text));
          states.push(h);
        }
        // Earlier states stay usable (resuming never consumes them).
        for (const s of states) expect(s.resume(`${s.text}!`).hex).toBe(sha(`${s.text}!`));
      }),
      { numRuns: 1000 },
    );
  });

  it("resumed from a known shared prefix (any shorter one too) and from ASCII bytes (whole or in pieces), equals sha256 of each text", () => {
    const asciiArb = fc.array(fc.constantFrom("a", "\n", "::", "x y", "{}"), { maxLength: 40 }).map((a) => a.join(""));
    fc.assert(
      fc.property(
        asciiArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(5), asciiArb, fc.nat(4), fc.boolean()), { maxLength: 6 }),
        fc.integer({ min: 1, max: 9 }),
        (start, edits, chunk) => {
          let h = ResumableSha256.of(start, chunk);
          for (const [at, remove, insert, shorter, bytes] of edits) {
            const t = h.text;
            const i = at % (t.length + 1);
            const next = t.slice(0, i) + insert + t.slice(i + remove);
            const same = Math.max(0, commonPrefixLength(t, next) - shorter);
            // The bytes whole, or cut into pieces at arbitrary places (a one-shot patch's result, text-edit.ts).
            const whole = Buffer.from(next, "latin1");
            const cut = [whole.subarray(0, i), whole.subarray(i, i + insert.length), whole.subarray(i + insert.length)];
            h = h.resume(next, same, bytes ? (shorter % 2 === 0 ? whole : cut) : undefined);
            expect(h.hex).toBe(sha(next));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("a large text: editing near the end resumes from a late state", () => {
    const big = "x".repeat(3_000_000);
    const h = ResumableSha256.of(big);
    const edited = `${big.slice(0, -10)}yyyyyyyyyy`;
    expect(h.resume(edited).hex).toBe(sha(edited));
    expect(h.resume(`z${big.slice(1)}`).hex).toBe(sha(`z${big.slice(1)}`));
  });

  it("commonPrefixLength", () => {
    fc.assert(
      fc.property(textArb, textArb, (a, b) => {
        const p = commonPrefixLength(a, b);
        expect(a.slice(0, p)).toBe(b.slice(0, p));
        if (p < Math.min(a.length, b.length)) expect(a[p]).not.toBe(b[p]);
      }),
    );
    expect(commonPrefixLength("a".repeat(10_000), `${"a".repeat(9_000)}b`)).toBe(9_000);
  });
});
