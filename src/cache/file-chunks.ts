/**
 * Chunks read straight from the database file (`sqlite/sqlite-file.ts`), for a file
 * whose schema is exactly ours: the same rows, in the same order, checked
 * against the same sums, as `readChunks` through sql.js.
 */
import { verifyChunk, type ChunkCodec, type ChunkReader, type StoredChunk } from "./chunk-table.js";
import { SCHEMA_DDL } from "./cache-tables.js";
import { compareUtf8 } from "../git/compare-utf8.js";
import { SqliteFormatError, type SqliteFile, type SqliteRow } from "../sqlite/sqlite-file.js";

/** Our tables' CREATE statements as SQLite stores them (without IF NOT EXISTS). */
const EXPECTED_SQL = new Map(
  SCHEMA_DDL.split(";")
    .map((st) => st.trim().replace(/^CREATE TABLE IF NOT EXISTS /, "CREATE TABLE "))
    .filter((st) => st.length > 0)
    .map((st) => [st.slice("CREATE TABLE ".length, st.indexOf("(")), st] as const),
);

/**
 * Whether the file's tables are exactly the current schema's, and nothing else is in it but
 * indexes on them: other tables (such as schema 1's), a view or a trigger disqualify it (the
 * read then goes through sql.js, whose shape check — classify-cache-db.ts — judges it).
 */
export function hasCurrentTables(file: SqliteFile): boolean {
  for (const [name, sql] of EXPECTED_SQL) if (file.schema.get(name)?.sql !== sql) return false;
  for (const e of file.schema.values()) {
    if (e.type === "table" && !EXPECTED_SQL.has(e.name)) return false;
    if (e.type !== "table" && e.type !== "index") return false;
  }
  return true;
}

/** A value of `nr_meta`, or null. */
export function fileMetaValue(file: SqliteFile, key: string): string | null {
  for (const row of file.rows("nr_meta")) if (row.get(0) === key) return String(row.get(1));
  return null;
}

export function fileChunks(file: SqliteFile): ChunkReader {
  const tables = new Map<string, SqliteRow[]>();
  return {
    readChunks(codec: ChunkCodec<unknown>, scope: string | null, columns: number, firsts?: readonly string[]): StoredChunk[] {
      let rows = tables.get(codec.table);
      if (rows === undefined) tables.set(codec.table, (rows = file.rows(codec.table)));
      const base = codec.scope !== null ? 1 : 0;
      columns = Math.min(columns, codec.columns.length);
      const wantFirst = firsts !== undefined ? new Set(firsts) : null;
      const out: StoredChunk[] = [];
      for (const row of rows) {
        const rowScope = codec.scope !== null ? row.get(0) : "";
        const first = row.get(base);
        const n = row.get(base + 1);
        if (typeof rowScope !== "string" || typeof first !== "string" || typeof n !== "number" || !Number.isInteger(n) || n < 0)
          throw new SqliteFormatError(`${codec.table} row`);
        if (scope !== null && codec.scope !== null && rowScope !== scope) continue;
        if (wantFirst !== null && !wantFirst.has(first)) continue;
        row.upTo(base + 2 + columns);
        const values: Uint8Array[] = [];
        for (let i = 0; i < columns; i++) {
          const v = row.get(base + 3 + i);
          if (!Buffer.isBuffer(v)) throw new SqliteFormatError(`${codec.table}.${codec.columns[i]} is not a BLOB`);
          values.push(v);
        }
        const chunk = { scope: rowScope, first, n, values };
        verifyChunk(codec, chunk, row.get(base + 2));
        out.push(chunk);
      }
      return out.sort((a, b) => compareUtf8(a.scope, b.scope) || compareUtf8(a.first, b.first));
    },
  };
}
