/**
 * What an open cache DB is: our current schema, one of our older ones (read as they are,
 * migrated by the next write), NotarAI's `file_cache` alone, or something this tool cannot
 * use — a schema that is not one we create (sqlite/schema-shape.ts: a view or trigger, a
 * table we do not create, other columns), no table it knows, or a newer schema.
 *
 * The shape is checked before any table is read: a recursive view in place of one of our
 * tables would never finish answering, and a trigger would run on our writes.
 */
import type { Database } from "sql.js";
import { declaredColumns, sqlJsSchemaShapeProblem } from "../sqlite/schema-shape.js";
import { CACHE_DB_PATH } from "./cache-db-path.js";
import { BLOB_HASH_CHUNKS, CACHE_SCHEMA_VERSION, CHUNK_TABLES, RECONCILED_CHUNKS, STAT_HASH_CHUNKS } from "./cache-tables.js";
import type { ChunkCodec } from "./chunk-table.js";
import { V1_TABLES } from "./read-older-schemas.js";
import { metaValue, tableNames } from "./select-rows.js";

export type CacheStatus = "absent" | "ok" | "legacy" | "unreadable" | "newer";

/** What a DB holds: our current schema, our schema 2 (chunks without sums) or 1, or NotarAI's `file_cache` alone. */
export type DbKind = "current" | "v2" | "v1" | "legacy";

export type Classified =
  | { ok: true; kind: DbKind; seeded: boolean }
  | {
      ok: false;
      status: CacheStatus;
      /** For stderr: what is wrong and that the cache reads as cold. */
      warning: string;
      /** What is wrong, alone. */
      reason: string;
      version?: string;
    };

/** A chunk table's columns: schema 3's (with `sums`), or schema 2's. */
function chunkColumns(codec: ChunkCodec<unknown>, sums: boolean): string[] {
  return [...(codec.scope !== null ? [codec.scope] : []), codec.first, "n", ...(sums ? ["sums"] : []), ...codec.columns];
}

const CHUNK_CODECS = [RECONCILED_CHUNKS, BLOB_HASH_CHUNKS, STAT_HASH_CHUNKS] as const;

/** Every table any of our schemas (and NotarAI's) creates, with its columns. */
export const CACHE_TABLE_SHAPES: ReadonlyMap<string, ReadonlyArray<readonly string[]>> = new Map<string, ReadonlyArray<readonly string[]>>([
  ["file_cache", [["path", "blake3_hash", "updated_at"]]],
  ["nr_meta", [["key", "value"]]],
  [V1_TABLES[0], [["spec", "path", "blake3_hash", "blob", "updated_at"]]],
  [V1_TABLES[1], [["blob", "blake3_hash"]]],
  [V1_TABLES[2], [["path", "size", "mtime_ns", "ctime_ns", "ino", "blake3_hash"]]],
  ...CHUNK_CODECS.map((c) => [c.table, [chunkColumns(c, true), chunkColumns(c, false)]] as const),
]);

function unusable(reason: string): Classified {
  return {
    ok: false,
    status: "unreadable",
    reason,
    warning: `cache ${CACHE_DB_PATH} is not a cache this tool writes (${reason}); treating it as cold (the next write replaces it)`,
  };
}

/** Which kind of DB this is (through sql.js), or why it cannot be used. */
export function classifyCacheDb(db: Database): Classified {
  const shape = sqlJsSchemaShapeProblem(db, CACHE_TABLE_SHAPES);
  if (shape !== null) return unusable(shape);
  const tables = tableNames(db);
  if (!tables.has("nr_meta")) {
    const ours = [...tables].find((t) => t.startsWith("nr_"));
    if (ours !== undefined) return unusable(`a table ${ours} without nr_meta`);
    if (tables.has("file_cache")) return { ok: true, kind: "legacy", seeded: false };
    return unusable("no file_cache table");
  }
  const raw = metaValue(db, "schema_version");
  const version = Number(raw);
  if (!Number.isInteger(version) || version > CACHE_SCHEMA_VERSION) {
    return {
      ok: false,
      status: "newer",
      version: raw ?? "?",
      reason: `schema version ${raw ?? "?"}`,
      warning: `cache ${CACHE_DB_PATH} has schema version ${raw ?? "?"}, newer than this tool's ${CACHE_SCHEMA_VERSION}; treating it as cold`,
    };
  }
  // Chunk tables of the version the file says: schema 2's have no sums, schema 3's do.
  for (const table of CHUNK_TABLES) {
    if (!tables.has(table)) continue;
    const sums = declaredColumns(db, table).some((c) => c.name === "sums");
    if (sums !== (version !== 2)) return unusable(`schema version ${version} with ${sums ? "schema 3's" : "schema 2's"} ${table}`);
  }
  const kind: DbKind = version < 2 || tables.has(V1_TABLES[0]) ? "v1" : version < CACHE_SCHEMA_VERSION ? "v2" : "current";
  return { ok: true, kind, seeded: metaValue(db, "seeded") === "1" };
}
