/**
 * readTextFile and decodeUtf8 give exactly the string Node's UTF-8 decoding gives, for
 * any bytes: ASCII (the fast path), multi-byte UTF-8, a BOM, and invalid sequences.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { decodeUtf8, readTextFile } from "../../src/fsx/read-text-file.js";

const dir = mkdtempSync(join(tmpdir(), "nr-read-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytesArb = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((a) => a.map((b) => b & 0x7f)),
  fc.uint8Array({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 80 }).map((s) => new Uint8Array(Buffer.from(s, "utf8"))),
  fc.string({ maxLength: 80 }).map((s) => new Uint8Array(Buffer.from(`\uFEFF${s}`, "utf8"))),
);

describe("decodeUtf8", () => {
  it("equals Buffer#toString('utf8') on any bytes", () => {
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        const buf = Buffer.from(bytes);
        expect(decodeUtf8(buf)).toBe(buf.toString("utf8"));
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps a BOM and replaces invalid sequences as Node does", () => {
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toBe("\uFEFFa");
    expect(decodeUtf8(Buffer.from([0x61, 0xff, 0x62]))).toBe("a\uFFFDb");
    expect(decodeUtf8(Buffer.from("plain ascii\n"))).toBe("plain ascii\n");
  });
});

describe("readTextFile", () => {
  it("reads what readFileSync(path, 'utf8') reads", () => {
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        const file = join(dir, "f.noma");
        writeFileSync(file, bytes);
        expect(readTextFile(file)).toBe(readFileSync(file, "utf8"));
      }),
      { numRuns: 200 },
    );
  });

  it("throws what readFileSync throws for a missing file", () => {
    expect(() => readTextFile(join(dir, "missing.noma"))).toThrow(/ENOENT/);
  });
});
