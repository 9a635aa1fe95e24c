/** The one-shot block hash (src/patch/one-shot-sha256.ts) against the Hash object it replaces. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { oneShotSha256Hex } from "../../src/patch/one-shot-sha256.js";
import { sha256Hex } from "../../src/patch/sha256-hex.js";

describe("oneShotSha256Hex", () => {
  it("equals sha256Hex for every string, lone surrogates and astral characters included (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary", maxLength: 200 }), fc.string({ unit: fc.constantFrom("a", "é", "\ud800", "\udfff", "😀", "\r", "\n") })),
        (s) => {
          expect(oneShotSha256Hex(s)).toBe(sha256Hex(s));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is the sha256 of the UTF-8 bytes", () => {
    expect(oneShotSha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(oneShotSha256Hex("é")).toBe(sha256Hex(Buffer.from([0xc3, 0xa9])));
  });
});
