/**
 * The hex-column fast path (src/cache/hex-columns.ts) against what it replaced: the per-row regular
 * expressions, the per-row packing, and a real sql.js cache written through `writeCache` reading back
 * exactly the rows the regular expressions let through (issue 38).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { CACHE_DB_PATH } from "../../src/cache/cache-db-path.js";
import { BLOB_HASH_CHUNKS, BLOB_HEX, HASH_HEX, SCHEMA_DDL, STAT_HASH_CHUNKS, type StatRow } from "../../src/cache/cache-tables.js";
import { decodeChunks, readChunks, updateChunks } from "../../src/cache/chunk-table.js";
import { isBlobHex, isHashHex, isLowerHex, packHex } from "../../src/cache/hex-columns.js";
import { writeCache } from "../../src/cache/write-cache.js";
import { sortUtf8 } from "../../src/git/compare-utf8.js";

// Hex digits weighted heavily, and the near misses: upper case, the next letters, other scripts, a newline (`$`).
const char = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom(..."0123456789abcdef") },
  { weight: 1, arbitrary: fc.constantFrom("A", "F", "g", "G", "x", " ", "\n", "é", "０", "😀", "\0") },
);
const nearHex = (lengths: number[]) =>
  fc
    .oneof(
      fc.constantFrom(...lengths).chain((n) => fc.array(char, { minLength: n, maxLength: n })),
      fc.array(char, { maxLength: 70 }),
    )
    .map((c) => c.join(""));
const anyHex = nearHex([39, 40, 41, 63, 64, 65]);
const validHex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString("hex"));

/** The packing this replaced: a regular expression and a native write per row. */
function packHexPerRow(hexes: readonly string[], width: number, what: string): Buffer {
  const out = Buffer.alloc(hexes.length * width);
  for (let i = 0; i < hexes.length; i++) {
    const h = hexes[i]!;
    if (h.length !== width * 2 || !/^[0-9a-f]*$/.test(h)) throw new Error(`cannot pack ${what} ${JSON.stringify(h)}`);
    out.write(h, i * width, width, "hex");
  }
  return out;
}

function outcome(f: () => Buffer): { bytes: string } | { error: string } {
  try {
    return { bytes: f().toString("hex") };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe("hex columns: the fast checks equal the regular expressions", () => {
  it("isHashHex, isBlobHex and isLowerHex answer as HASH_HEX, BLOB_HEX and a length plus /^[0-9a-f]*$/", () => {
    fc.assert(
      fc.property(anyHex, fc.constantFrom(0, 40, 64), (s, n) => {
        expect(isHashHex(s)).toBe(HASH_HEX.test(s));
        expect(isBlobHex(s)).toBe(BLOB_HEX.test(s));
        expect(isLowerHex(s, n)).toBe(s.length === n && /^[0-9a-f]*$/.test(s));
      }),
      { numRuns: 2000 },
    );
    expect(isHashHex("a".repeat(64))).toBe(true);
    expect(isHashHex(`${"a".repeat(63)}A`)).toBe(false);
    expect(isBlobHex("0".repeat(40))).toBe(true);
    expect(isBlobHex("0".repeat(52))).toBe(false);
  });

  it("packHex writes the same bytes as the per-row packing, and refuses the same first bad digest", () => {
    for (const width of [20, 32]) {
      fc.assert(
        fc.property(fc.array(fc.oneof({ weight: 8, arbitrary: validHex(width) }, { weight: 1, arbitrary: anyHex }), { maxLength: 20 }), (hexes) => {
          expect(outcome(() => packHex(hexes, width, "hash"))).toEqual(outcome(() => packHexPerRow(hexes, width, "hash")));
        }),
        { numRuns: 500 },
      );
    }
    expect(packHex([], 32, "hash").length).toBe(0);
  });
});

describe("hex columns: a real cache written through the fast path", () => {
  it("reads back exactly the memo rows the regular expressions let through, sorted as before", async () => {
    const SQL = await initSqlJs();
    const statArb: fc.Arbitrary<StatRow> = fc.record({
      size: fc.integer({ min: 0, max: 1 << 30 }),
      mtimeNs: fc.bigInt({ min: 0n, max: 2n ** 62n }).map(String),
      ctimeNs: fc.bigInt({ min: 0n, max: 2n ** 62n }).map(String),
      ino: fc.bigInt({ min: 0n, max: 2n ** 63n }).map(String),
      hash: validHex(32),
    });
    const blobKey = fc.oneof({ weight: 8, arbitrary: validHex(20) }, { weight: 1, arbitrary: anyHex });
    const hashValue = fc.oneof({ weight: 8, arbitrary: validHex(32) }, { weight: 1, arbitrary: anyHex });
    const path = fc.array(fc.constantFrom("a", "b", "/", "é", "\uE000", "😀"), { minLength: 1, maxLength: 8 }).map((c) => c.join(""));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(blobKey, hashValue), { maxLength: 60 }),
        fc.uniqueArray(fc.tuple(path, statArb), { selector: ([p]) => p, maxLength: 30 }),
        async (blobPairs, statPairs) => {
          const root = mkdtempSync(join(tmpdir(), "nr-hex-columns-"));
          try {
            const blobHashes = new Map(blobPairs);
            const statHashes = new Map(statPairs);
            await writeCache(root, { blobHashes, statHashes });
            const db = new SQL.Database(readFileSync(join(root, CACHE_DB_PATH)));
            try {
              const blobs = decodeChunks(BLOB_HASH_CHUNKS, readChunks(db, BLOB_HASH_CHUNKS, null, 2));
              const expected = [...blobHashes].filter(([b, h]) => BLOB_HEX.test(b) && HASH_HEX.test(h));
              // Keys come back in UTF-8 order (the chunks' order), whatever order they went in.
              expect([...blobs]).toEqual(expected.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
              const stats = decodeChunks(STAT_HASH_CHUNKS, readChunks(db, STAT_HASH_CHUNKS, null, 3));
              expect([...stats.keys()]).toEqual(sortUtf8([...statHashes.keys()]));
              for (const [p, row] of statHashes) expect(stats.get(p)).toEqual(row);
            } finally {
              db.close();
            }
          } finally {
            rmSync(root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("blob ids of both widths in one cache", () => {
  // Found by the property below (seed 1786978866): a 40- and a 64-digit blob id sorted into one chunk made
  // the writer throw "cannot pack blob id", so `writeCache` failed. A chunk is now cut where the width changes.
  it("are written, updated and read back, each chunk holding one width", async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    try {
      db.run(SCHEMA_DDL);
      const sha1 = (d: string) => d.repeat(40);
      const sha256 = (d: string) => d.repeat(64);
      const hash = (d: string) => d.repeat(64);
      // Interleaved in UTF-8 order: 0…0 (40) < 0…0 (64) < 1…1 (40) < 1…1 (64) < …
      const first = new Map([sha1("0"), sha256("0"), sha1("1"), sha256("1"), sha1("2")].map((b, i) => [b, hash(String(i))]));
      updateChunks(db, BLOB_HASH_CHUNKS, null, { upserts: first, chunkRows: 3 });
      const second = new Map([
        [sha256("2"), hash("a")],
        [sha1("1"), hash("b")],
        [sha256("f"), hash("c")],
      ]);
      updateChunks(db, BLOB_HASH_CHUNKS, null, { upserts: second, deletes: [sha256("0")], chunkRows: 3 });
      const chunks = readChunks(db, BLOB_HASH_CHUNKS, null, 2);
      for (const c of chunks) expect(c.values[0]!.length / c.n, `chunk ${c.first}`).toBe(c.first.length / 2);
      const expected = new Map(first);
      expected.delete(sha256("0"));
      for (const [k, v] of second) expected.set(k, v);
      expect([...decodeChunks(BLOB_HASH_CHUNKS, chunks)]).toEqual(sortUtf8([...expected.keys()]).map((k) => [k, expected.get(k)]));
    } finally {
      db.close();
    }
  });

  it("go through writeCache whole (the property's shrunk counterexample)", async () => {
    const root = mkdtempSync(join(tmpdir(), "nr-hex-widths-"));
    try {
      const blobHashes = new Map([
        ["0".repeat(64), "0".repeat(64)],
        ["0".repeat(40), "0".repeat(64)],
      ]);
      await writeCache(root, { blobHashes, statHashes: new Map() });
      const SQL = await initSqlJs();
      const db = new SQL.Database(readFileSync(join(root, CACHE_DB_PATH)));
      try {
        expect([...decodeChunks(BLOB_HASH_CHUNKS, readChunks(db, BLOB_HASH_CHUNKS, null, 2))]).toEqual([
          ["0".repeat(40), "0".repeat(64)],
          ["0".repeat(64), "0".repeat(64)],
        ]);
      } finally {
        db.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
