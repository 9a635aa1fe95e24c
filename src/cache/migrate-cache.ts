/**
 * Our older cache schemas brought to the current one, inside the write's transaction
 * (`write-cache.ts`): schema 1 (one SQL row per record) and schema 2 (chunks without
 * checksums). Every record and memo row is kept; the old tables are dropped.
 */
import type { Database } from "sql.js";
import { BLOB_HASH_CHUNKS, BLOB_HEX, CHUNK_TABLES, HASH_HEX, RECONCILED_CHUNKS, STAT_HASH_CHUNKS } from "./cache-tables.js";
import { decodeChunks, readChunks, updateChunks, type ChunkCodec } from "./chunk-table.js";
import { readV1BlobHashes, readV1Reconciled, readV1StatHashes, V1_TABLES } from "./read-older-schemas.js";
import { tableNames } from "./select-rows.js";

/** Rows of schema 1 moved into chunks; the old tables dropped. */
export function migrateV1(db: Database, tables: Set<string>): void {
  if (tables.has("nr_reconciled")) {
    for (const [spec, rows] of readV1Reconciled(db, null)) {
      const valid = new Map([...rows].filter(([, r]) => HASH_HEX.test(r.hash)));
      updateChunks(db, RECONCILED_CHUNKS, spec, { upserts: valid, onlyMissing: true });
    }
  }
  if (tables.has("nr_blob_hash"))
    updateChunks(db, BLOB_HASH_CHUNKS, null, {
      upserts: new Map([...readV1BlobHashes(db)].filter(([b, h]) => BLOB_HEX.test(b) && HASH_HEX.test(h))),
      onlyMissing: true,
    });
  if (tables.has("nr_stat_hash"))
    updateChunks(db, STAT_HASH_CHUNKS, null, { upserts: new Map([...readV1StatHashes(db)].filter(([, s]) => HASH_HEX.test(s.hash))), onlyMissing: true });
  for (const t of V1_TABLES) db.run(`DROP TABLE IF EXISTS ${t}`);
}

/**
 * Schema 2 → 3: every chunk read as it is (schema 2 has no sums to check), the chunk tables
 * dropped; the returned function re-inserts the rows, with sums, once SCHEMA_DDL has
 * created the new tables.
 */
export function migrateV2(db: Database): () => void {
  const kept: Array<() => void> = [];
  const tables = tableNames(db);
  for (const codec of [RECONCILED_CHUNKS, BLOB_HASH_CHUNKS, STAT_HASH_CHUNKS] as ChunkCodec<unknown>[]) {
    if (!tables.has(codec.table)) continue;
    const byScope = new Map<string, Map<string, unknown>>();
    for (const c of readChunks(db, codec, null, codec.columns.length, undefined, false)) {
      let rows = byScope.get(c.scope);
      if (rows === undefined) byScope.set(c.scope, (rows = new Map()));
      decodeChunks(codec, [c], rows);
    }
    for (const [scope, rows] of byScope) kept.push(() => updateChunks(db, codec, codec.scope !== null ? scope : null, { upserts: rows }));
  }
  for (const t of CHUNK_TABLES) db.run(`DROP TABLE IF EXISTS ${t}`);
  return () => {
    for (const k of kept) k();
  };
}
