/**
 * What an open cache DB is: our current schema, one of our older ones (read as they are,
 * migrated by the next write), NotarAI's `file_cache` alone, or something this tool cannot
 * use (no table it knows, a newer schema).
 */
import type { Database } from "sql.js";
import { CACHE_DB_PATH } from "./cache-db-path.js";
import { CACHE_SCHEMA_VERSION } from "./cache-tables.js";
import { V1_TABLES } from "./read-older-schemas.js";
import { metaValue, tableNames } from "./select-rows.js";

export type CacheStatus = "absent" | "ok" | "legacy" | "unreadable" | "newer";

/** What a DB holds: our current schema, our schema 2 (chunks without sums) or 1, or NotarAI's `file_cache` alone. */
export type DbKind = "current" | "v2" | "v1" | "legacy";

export type Classified = { ok: true; kind: DbKind; seeded: boolean } | { ok: false; status: CacheStatus; warning: string; version?: string };

/** Which kind of DB this is (through sql.js), or why it cannot be used. */
export function classifyCacheDb(db: Database): Classified {
  const tables = tableNames(db);
  if (!tables.has("nr_meta")) {
    if (tables.has("file_cache")) return { ok: true, kind: "legacy", seeded: false };
    return { ok: false, status: "unreadable", warning: `cache ${CACHE_DB_PATH} has no file_cache table; treating it as cold` };
  }
  const raw = metaValue(db, "schema_version");
  const version = Number(raw);
  if (!Number.isInteger(version) || version > CACHE_SCHEMA_VERSION) {
    return {
      ok: false,
      status: "newer",
      version: raw ?? "?",
      warning: `cache ${CACHE_DB_PATH} has schema version ${raw ?? "?"}, newer than this tool's ${CACHE_SCHEMA_VERSION}; treating it as cold`,
    };
  }
  const kind: DbKind = version < 2 || tables.has(V1_TABLES[0]) ? "v1" : version < CACHE_SCHEMA_VERSION ? "v2" : "current";
  return { ok: true, kind, seeded: metaValue(db, "seeded") === "1" };
}
