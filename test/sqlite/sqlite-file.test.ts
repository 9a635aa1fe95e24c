/**
 * The SQLite page reader (src/sqlite/sqlite-file.ts) against SQLite itself (sql.js): for any
 * contents, page size and table kind, it reads the rows SQLite reads, in key order, from the
 * bytes in memory and from the file read on demand; what it does not expect it declines.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import initSqlJs from "sql.js";
import { afterAll, describe, expect, it } from "vitest";
import { fileSource, SqliteFile, SqliteFormatError, type SqliteRow } from "../../src/sqlite/sqlite-file.js";

const dir = mkdtempSync(join(tmpdir(), "nr-sqlite-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A row's values as sql.js gives them (BLOBs as hex, integers as numbers). */
function values(r: SqliteRow): unknown[] {
  return Array.from({ length: r.length }, (_, i) => r.get(i)).map((v) => (Buffer.isBuffer(v) ? v.toString("hex") : typeof v === "bigint" ? Number(v) : v));
}

describe("SqliteFile", () => {
  it("reads what SQLite reads, in key order, for rowid and WITHOUT ROWID tables, from bytes and from the file", async () => {
    const SQL = await initSqlJs();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            // Keys long enough to overflow an index page of the smallest size, values of many pages.
            fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ minLength: 1, maxLength: 300, size: "max" })),
            fc.option(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 9000, size: "max" })), { nil: null }),
            fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
            fc.option(fc.oneof(fc.string({ unit: "grapheme", maxLength: 20 }), fc.string({ unit: "grapheme", maxLength: 2000, size: "max" })), { nil: null }),
          ),
          { maxLength: 40, size: "medium" },
        ),
        fc.constantFrom(512, 1024, 4096, 65536),
        async (rows, pageSize) => {
          const db = new SQL.Database();
          db.run(`PRAGMA page_size = ${pageSize}`);
          db.run("CREATE TABLE t(k TEXT PRIMARY KEY, b BLOB, n, s TEXT)");
          db.run("CREATE TABLE w(k TEXT PRIMARY KEY, v BLOB, s TEXT) WITHOUT ROWID");
          const seen = new Set<string>();
          for (const [k, b, num, s] of rows) {
            if (seen.has(k)) continue;
            seen.add(k);
            db.run("INSERT INTO t VALUES (?, ?, ?, ?)", [k, b, typeof num === "bigint" ? num.toString() : num, s]);
            db.run("INSERT INTO w VALUES (?, ?, ?)", [k, b, s]);
          }
          const bytes = db.export();
          const path = join(dir, `db${n++}.sqlite`);
          writeFileSync(path, bytes);
          const fd = openSync(path, "r");
          try {
            for (const file of [SqliteFile.open(bytes), SqliteFile.open(fileSource(fd, bytes.length))]) {
              for (const [table, order] of [
                ["t", "rowid"],
                ["w", "k"],
              ] as const) {
                const ref = (db.exec(`SELECT * FROM ${table} ORDER BY ${order}`)[0]?.values ?? []).map((r) =>
                  r.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v)),
                );
                expect(file.rows(table).map(values)).toEqual(ref);
              }
            }
          } finally {
            closeSync(fd);
            db.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("declines what it does not expect: not SQLite, another text encoding, a table it does not have", async () => {
    expect(() => SqliteFile.open(Buffer.from("not a database at all, not even close to one; ".repeat(10)))).toThrow(SqliteFormatError);
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run("CREATE TABLE t(k)");
    db.run("INSERT INTO t VALUES (1)");
    const bytes = Buffer.from(db.export());
    db.close();
    expect(() => SqliteFile.open(bytes.subarray(0, bytes.length - 1))).toThrow(SqliteFormatError);
    const utf16 = Buffer.from(bytes);
    utf16.writeUInt32BE(2, 56);
    expect(() => SqliteFile.open(utf16)).toThrow(/encoding/);
    expect(() => SqliteFile.open(bytes).rows("nope")).toThrow(SqliteFormatError);
  });
});
