/** `cache status`: the cache DB's health and row counts, read-only (through sql.js, every chunk checked). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { describeError } from "../errors/describe-error.js";
import { loadSqlJs } from "../sqlite/load-sql-js.js";
import { sqlJsSchemaShapeProblem } from "../sqlite/schema-shape.js";
import { CACHE_DB_PATH } from "./cache-db-path.js";
import { BLOB_HASH_CHUNKS, CACHE_SCHEMA_VERSION, RECONCILED_CHUNKS, STAT_HASH_CHUNKS } from "./cache-tables.js";
import { countRows, decodeChunks, readChunks, type ChunkCodec } from "./chunk-table.js";
import { CACHE_TABLE_SHAPES, type CacheStatus } from "./classify-cache-db.js";
import { escapedCache } from "./read-cache.js";
import { metaValue, selectRows, tableNames } from "./select-rows.js";

export interface CacheStats {
  path: string;
  status: CacheStatus;
  warning: string | null;
  bytes: number;
  schema_version: number | null;
  seeded: boolean;
  rows: { file_cache: number; reconciled: number; blob_hashes: number; stat_hashes: number };
  specs: Record<string, number>;
}

/** Row counts and health of the cache DB (read-only). */
export async function cacheStats(root: string): Promise<CacheStats> {
  const file = join(root, CACHE_DB_PATH);
  const base: CacheStats = {
    path: CACHE_DB_PATH,
    status: "absent",
    warning: null,
    bytes: 0,
    schema_version: null,
    seeded: false,
    rows: { file_cache: 0, reconciled: 0, blob_hashes: 0, stat_hashes: 0 },
    specs: {},
  };
  const escaped = escapedCache(root);
  if (escaped !== null) return { ...base, status: "unreadable", warning: escaped.warning };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return base;
    return { ...base, status: "unreadable", warning: `cannot read ${CACHE_DB_PATH} (${describeError(e)})` };
  }
  base.bytes = bytes.length;
  const SQL = await loadSqlJs();
  let db: Database | undefined;
  let tables: Set<string>;
  try {
    db = new SQL.Database(bytes);
    // Nothing is counted in a file whose schema is not ours (a recursive view never finishes counting).
    const shape = sqlJsSchemaShapeProblem(db, CACHE_TABLE_SHAPES);
    if (shape !== null) {
      db.close();
      return { ...base, status: "unreadable", warning: `${CACHE_DB_PATH} is not a cache this tool writes (${shape})` };
    }
    tables = tableNames(db);
  } catch (e) {
    db?.close();
    return { ...base, status: "unreadable", warning: `${CACHE_DB_PATH} is not a readable database (${describeError(e)})` };
  }
  try {
    const count = (t: string): number => (tables.has(t) ? Number(db.exec(`SELECT count(*) FROM ${t}`)[0]?.values[0]?.[0] ?? 0) : 0);
    const chunked = (codec: ChunkCodec<unknown>): number => (tables.has(codec.table) ? countRows(db, codec) : 0);
    base.rows = {
      file_cache: count("file_cache"),
      reconciled: count("nr_reconciled") + chunked(RECONCILED_CHUNKS),
      blob_hashes: count("nr_blob_hash") + chunked(BLOB_HASH_CHUNKS),
      stat_hashes: count("nr_stat_hash") + chunked(STAT_HASH_CHUNKS),
    };
    if (!tables.has("nr_meta")) {
      base.status = tables.has("file_cache") ? "legacy" : "unreadable";
      return base;
    }
    const v = Number(metaValue(db, "schema_version"));
    base.schema_version = Number.isInteger(v) ? v : null;
    base.status = Number.isInteger(v) && v <= CACHE_SCHEMA_VERSION ? "ok" : "newer";
    base.seeded = metaValue(db, "seeded") === "1";
    // Health: every chunk against its checksums (schema 3).
    if (v === CACHE_SCHEMA_VERSION) {
      for (const codec of [RECONCILED_CHUNKS, BLOB_HASH_CHUNKS, STAT_HASH_CHUNKS] as ChunkCodec<unknown>[]) {
        if (tables.has(codec.table)) decodeChunks(codec, readChunks(db, codec, null, codec.columns.length));
      }
    }
    const perSpec = tables.has("nr_reconciled")
      ? "SELECT spec, count(*) AS n FROM nr_reconciled GROUP BY spec"
      : tables.has(RECONCILED_CHUNKS.table)
        ? `SELECT spec, sum(n) AS n FROM ${RECONCILED_CHUNKS.table} GROUP BY spec`
        : null;
    if (perSpec !== null) for (const [spec, n] of selectRows(db, ["spec", "n"], `(${perSpec} ORDER BY spec)`)) base.specs[spec!] = Number(n);
    return base;
  } catch (e) {
    return { ...base, status: "unreadable", warning: `${CACHE_DB_PATH} could not be read (${describeError(e)})` };
  } finally {
    db.close();
  }
}
