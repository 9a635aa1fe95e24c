/**
 * readTextFile and decodeUtf8 give exactly the string Node's UTF-8 decoding gives, for
 * any bytes: ASCII (the fast path), multi-byte UTF-8, a BOM, and invalid sequences; and
 * utf8Of answers a text's UTF-8 bytes (or nothing), never other bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { decodeUtf8, readTextFile, utf8Of } from "../../src/fsx/read-text-file.js";

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

describe("utf8Of", () => {
  /** Long texts (past the 64 KiB from which they are remembered): ASCII, one non-ASCII byte, invalid UTF-8. */
  const longArb = fc.tuple(fc.integer({ min: 60 * 1024, max: 70 * 1024 }), fc.constantFrom("ascii", "utf8", "invalid"), fc.nat()).map(([n, kind, at]) => {
    const b = Buffer.alloc(n, 0x61);
    if (kind === "utf8") Buffer.from("é").copy(b, at % (n - 2));
    if (kind === "invalid") b[at % n] = 0xff;
    return b;
  });

  it("answers the UTF-8 bytes of the text or nothing, for the last long text decoded and any other", () => {
    fc.assert(
      fc.property(longArb, longArb, (a, b) => {
        const ta = decodeUtf8(a);
        const tb = decodeUtf8(b);
        for (const t of [ta, tb, ta.slice(1), `${tb}`]) {
          const bytes = utf8Of(t);
          if (bytes !== undefined) expect(Buffer.from(bytes).equals(Buffer.from(t, "utf8"))).toBe(true);
        }
        // The last long ASCII text decoded is answered from its bytes.
        if (b.every((x) => x < 0x80) && b.length >= 64 * 1024) expect(utf8Of(tb)).toBe(b);
      }),
      { numRuns: 60 },
    );
  });

  it("answers nothing for short texts and texts it never decoded", () => {
    expect(utf8Of(decodeUtf8(Buffer.from("short ascii\n")))).toBeUndefined();
    expect(utf8Of("x".repeat(100_000))).toBeUndefined();
  });
});
