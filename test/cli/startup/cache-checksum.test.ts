/**
 * The compile cache's checksum (src/cli/startup/cache-checksum.ts): a change to any one 32-bit
 * word of a payload — any byte, any bits of it — always changes it; it does not depend on where
 * the payload sits in memory; and payloads that differ only by trailing zero bytes (the last
 * word is zero-padded) differ too: the length is taken last (and is in the file's header as
 * well, load-cached-body.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheChecksum } from "../../../src/cli/startup/cache-checksum.js";

describe("cacheChecksum", () => {
  it("changes when any bits within one 32-bit word of the payload change", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 600 }), fc.nat(), fc.integer({ min: 1, max: 0xffffffff }), (payload, at, mask) => {
        const word = (at % payload.length) >>> 2;
        const changed = Buffer.from(payload);
        for (let k = 0; k < 4 && word * 4 + k < changed.length; k++) changed[word * 4 + k] = changed[word * 4 + k]! ^ ((mask >>> (8 * k)) & 0xff);
        fc.pre(!changed.equals(Buffer.from(payload)));
        expect(cacheChecksum(changed).equals(cacheChecksum(payload))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("is the same wherever the payload sits in memory", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 7 }), (payload, shift) => {
        const host = Buffer.alloc(payload.length + shift);
        host.set(payload, shift);
        expect(cacheChecksum(host.subarray(shift)).equals(cacheChecksum(payload))).toBe(true);
      }),
    );
  });

  it("tells apart payloads that differ in a trailing zero byte", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (payload) => {
        const longer = Buffer.concat([payload, Buffer.alloc(1)]);
        expect(cacheChecksum(longer).equals(cacheChecksum(payload))).toBe(false);
      }),
    );
  });
});
