/**
 * The cache's chunks read straight from the database file (src/cache/file-chunks.ts, over the
 * SQLite page reader) against the same reads through sql.js (sqlJsChunks): for any rows of the
 * three chunk tables, any scope, any number of columns and any subset of chunks asked for, the
 * same chunks in the same order with the same bytes; a chunk whose bytes fail its sums is
 * refused by both.
 */
import fc from "fast-check";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { BLOB_HASH_CHUNKS, RECONCILED_CHUNKS, SCHEMA_DDL, STAT_HASH_CHUNKS, type ReconciledRow, type StatRow } from "../../src/cache/cache-tables.js";
import { type ChunkCodec, type StoredChunk, sqlJsChunks, updateChunks } from "../../src/cache/chunk-table.js";
import { fileChunks, fileMetaValue, hasCurrentTables } from "../../src/cache/file-chunks.js";
import { SqliteFile } from "../../src/sqlite/sqlite-file.js";

const unit = fc.constantFrom("a", "b", "/", ".", "é", "日", "\uE000", "😀", "𝒜");
const keyArb = fc.array(unit, { minLength: 1, maxLength: 12 }).map((u) => u.join(""));
const hexArb = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString("hex"));
const reconciledArb: fc.Arbitrary<ReconciledRow> = fc.record({
  hash: hexArb(32),
  blob: fc.option(hexArb(20), { nil: null }),
  updatedAt: fc.integer({ min: 0, max: 0xffffffff }),
  mode: fc.constantFrom("100644", "100755", null),
});
const statArb: fc.Arbitrary<StatRow> = fc.record({
  size: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  mtimeNs: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
  ctimeNs: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
  ino: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
  hash: hexArb(32),
});
const rowsArb = <T>(row: fc.Arbitrary<T>) => fc.uniqueArray(fc.tuple(keyArb, row), { selector: ([k]) => k, maxLength: 60 });

/** Chunks as comparable data. */
const plain = (chunks: readonly StoredChunk[]) => chunks.map((c) => ({ ...c, values: c.values.map((v) => Buffer.from(v).toString("hex")) }));

describe("chunks read from the file", () => {
  it("are the chunks sql.js reads, for any rows, scope, columns and chunks asked for", async () => {
    const SQL = await initSqlJs();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(".notarai/a.spec.yaml", ".notarai/b.spec.yaml", "*"), rowsArb(reconciledArb)), { maxLength: 3 }),
        rowsArb(fc.tuple(hexArb(20), hexArb(32))),
        rowsArb(statArb),
        fc.integer({ min: 2, max: 16 }),
        fc.constantFrom(512, 4096),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (reconciled, blobs, stats, chunkRows, pageSize, picks) => {
          const db = new SQL.Database();
          try {
            db.run(`PRAGMA page_size = ${pageSize}`);
            db.run(SCHEMA_DDL);
            for (const [spec, rows] of reconciled) updateChunks(db, RECONCILED_CHUNKS, spec, { upserts: new Map(rows), chunkRows });
            updateChunks(db, BLOB_HASH_CHUNKS, null, { upserts: new Map(blobs.map(([, [b, h]]) => [b, h])), chunkRows });
            updateChunks(db, STAT_HASH_CHUNKS, null, { upserts: new Map(stats), chunkRows });
            db.run("INSERT OR REPLACE INTO nr_meta(key, value) VALUES ('schema_version', '3')");
            const file = SqliteFile.open(db.export());
            expect(hasCurrentTables(file)).toBe(true);
            expect(fileMetaValue(file, "schema_version")).toBe("3");
            const direct = fileChunks(file);
            const viaSql = sqlJsChunks(db);
            const codecs = [RECONCILED_CHUNKS, BLOB_HASH_CHUNKS, STAT_HASH_CHUNKS] as ChunkCodec<unknown>[];
            for (const codec of codecs) {
              const scopes = codec.scope !== null ? [null, ".notarai/a.spec.yaml", "*", ".notarai/none.spec.yaml"] : [null];
              for (const scope of scopes) {
                const all = viaSql.readChunks(codec, scope, 0).map((c) => c.first);
                const some = picks.map((p) => all[p % Math.max(all.length, 1)]).filter((f): f is string => f !== undefined);
                for (let columns = 0; columns <= codec.columns.length + 1; columns++) {
                  expect(plain(direct.readChunks(codec, scope, columns))).toEqual(plain(viaSql.readChunks(codec, scope, columns)));
                  expect(plain(direct.readChunks(codec, scope, columns, some))).toEqual(plain(viaSql.readChunks(codec, scope, columns, some)));
                }
              }
            }
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("are refused, as through sql.js, when a chunk's bytes do not match its sums", async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(SCHEMA_DDL);
    updateChunks(db, STAT_HASH_CHUNKS, null, {
      upserts: new Map([["a", { size: 1, mtimeNs: "2", ctimeNs: "3", ino: "4", hash: "f".repeat(64) }]]),
    });
    const column = STAT_HASH_CHUNKS.columns[STAT_HASH_CHUNKS.columns.length - 1]!;
    db.run(`UPDATE ${STAT_HASH_CHUNKS.table} SET ${column} = zeroblob(length(${column}))`);
    const file = SqliteFile.open(db.export());
    const all = STAT_HASH_CHUNKS.columns.length;
    expect(() => sqlJsChunks(db).readChunks(STAT_HASH_CHUNKS, null, all)).toThrow();
    expect(() => fileChunks(file).readChunks(STAT_HASH_CHUNKS, null, all)).toThrow();
    db.close();
  });
});
