/**
 * Writing the hash cache `.notarai/.cache/notarai.db` (read by `read-cache.ts`). A write
 * takes the lock, re-reads the file, applies, exports and replaces the file atomically
 * (sqlite/rewrite-sqlite-file.ts), so concurrent writers never lose each other's rows. A
 * bad DB is replaced, with a warning; an older schema is migrated (`migrate-cache.ts`); a
 * newer one is refused. Nothing is written through a `.notarai/.cache` that links out of
 * the repository.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database, SqlJsStatic } from "sql.js";
import { describeBug, describeError } from "../errors/describe-error.js";
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import { assertNoSymlinkEscape } from "../fsx/symlink-escape.js";
import { rewriteSqliteFile } from "../sqlite/rewrite-sqlite-file.js";
import { integrityProblem, isSqliteCorruption } from "../sqlite/sqlite-corruption.js";
import { CACHE_DB_PATH, CACHE_LOCK_PATH } from "./cache-db-path.js";
import {
  ANY_SPEC,
  BLOB_HASH_CHUNKS,
  CACHE_SCHEMA_VERSION,
  RECONCILED_CHUNKS,
  SCHEMA_DDL,
  STAT_HASH_CHUNKS,
  type ReconciledRow,
  type StatRow,
} from "./cache-tables.js";
import { CacheCorruptError, updateChunks } from "./chunk-table.js";
import { classifyCacheDb, type DbKind } from "./classify-cache-db.js";
import { isBlobHex, isHashHex } from "./hex-columns.js";
import { migrateV1, migrateV2 } from "./migrate-cache.js";
import { pruneCache, type CachePrune } from "./prune-cache.js";
import { forgetCacheRead } from "./read-cache.js";
import { readFileCacheRows } from "./read-older-schemas.js";
import { metaValue, tableNames } from "./select-rows.js";

export interface CacheWrite {
  /** Reconciliation rows to upsert (spec "*" allowed). */
  reconciled?: ReadonlyArray<{ spec: string; path: string; hash: string; blob: string | null; mode?: string | null }>;
  /** NotarAI `file_cache` rows to upsert. */
  fileCache?: ReadonlyArray<{ path: string; hash: string }>;
  blobHashes?: ReadonlyMap<string, string>;
  statHashes?: ReadonlyMap<string, StatRow>;
  /** Snapshot fingerprints (path → hash) to seed as "*" rows, applied only if the DB has not been seeded yet. */
  seed?: ReadonlyMap<string, string> | null;
  /** Prune rows of files that no longer exist (paths in `livePaths` are kept without a stat). */
  prune?: CachePrune;
  /** Mark the DB as seeded without seeding (after `cache clear`). */
  declineSeed?: boolean;
  /** Start from an empty DB, discarding the current file (`cache clear`). */
  reset?: boolean;
}

export class CacheWriteError extends NomaError {
  static override readonly errorName: string = "CacheWriteError";
  constructor(message: string, options: { cause?: unknown; kind?: ErrorKind; code?: string } = {}) {
    super(options.code ?? "cache-unwritable", message, options);
  }
}

/** Upsert rows of NotarAI's table, sorted by path (B-tree appends are cheaper than random inserts). */
function upsertFileCache(db: Database, rows: ReadonlyArray<{ path: string; hash: string }>, now: number): void {
  const sorted = [...rows].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const st = db.prepare("INSERT OR REPLACE INTO file_cache(path, blake3_hash, updated_at) VALUES (?, ?, ?)");
  try {
    for (const r of sorted) st.run([r.path, r.hash, now]);
  } finally {
    st.free();
  }
}

/** Rebuild the file when a quarter of it is free pages (chunks rewritten, an old schema dropped). */
function vacuumIfSparse(db: Database): void {
  const pages = Number(db.exec("PRAGMA page_count")[0]?.values[0]?.[0] ?? 0);
  const free = Number(db.exec("PRAGMA freelist_count")[0]?.values[0]?.[0] ?? 0);
  if (pages > 64 && free * 4 > pages) db.run("VACUUM");
}

/** Create `.notarai/.cache/` with a `.gitignore` of `*`, so its files never show up as untracked, even before `init`. */
export function ensureCacheDir(root: string): string {
  const dir = join(root, ".notarai/.cache");
  // Never write through a link that leads out of the repository (SymlinkEscapeError, exit 2).
  assertNoSymlinkEscape(root, ".notarai/.cache", "write the cache");
  try {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, ".gitignore"))) writeFileSync(join(dir, ".gitignore"), "*\n");
  } catch (e) {
    throw new CacheWriteError(`cannot create ${dir} (${describeError(e)})`, { cause: e });
  }
  return dir;
}

function groupBySpec(rows: NonNullable<CacheWrite["reconciled"]>, now: number): Map<string, Map<string, ReconciledRow>> {
  const out = new Map<string, Map<string, ReconciledRow>>();
  for (const r of rows) {
    let m = out.get(r.spec);
    if (m === undefined) out.set(r.spec, (m = new Map()));
    m.set(r.path, { hash: r.hash, blob: r.blob, updatedAt: now, mode: r.mode ?? null });
  }
  return out;
}

/**
 * Why the DB is damaged, given `e` met while reading or updating it: SQLite's own corruption
 * errors, a chunk that fails its checksums (or cannot be decoded), a schema that is not ours —
 * or, for any other error, SQLite's integrity check of the file failing. Null when the DB is
 * sound: the error is then ours (a bug, a bad argument) and the file must be left as it was.
 * `file` is read again for the check (under the write's lock, so unchanged): sql.js writes
 * into the buffer it opened, so the bytes the write began with may hold part of its work.
 */
function damageOf(SQL: SqlJsStatic, file: string, e: unknown): string | null {
  if (e instanceof CacheCorruptError || isSqliteCorruption(e)) return (e as Error).message;
  let db: Database | null = null;
  try {
    db = new SQL.Database(readFileSync(file));
    const problem = integrityProblem(db);
    return problem === null ? null : `${describeBug(e)}; integrity check: ${problem}`;
  } catch (e2) {
    return isSqliteCorruption(e2) ? `${describeBug(e)}; ${(e2 as Error).message}` : null;
  } finally {
    db?.close();
  }
}

/** A write that failed on a sound DB: our error, reported as one, the file left as it was. */
function failedWrite(e: unknown): CacheWriteError {
  const err = new CacheWriteError(`could not update ${CACHE_DB_PATH} (${describeBug(e)}); the file was left as it was`, {
    cause: e,
    kind: "internal",
    code: "cache-write-failed",
  });
  if (e instanceof Error && e.stack !== undefined) err.stack = `${err.stack ?? err.message}\nCaused by: ${e.stack}`;
  return err;
}

/**
 * Apply `w` to the cache: lock, re-read the DB file, apply, export, write a temp file, fsync,
 * rename, unlock (rewriteSqliteFile). An older schema is migrated; a newer one is refused. Only
 * a damaged DB (see damageOf; a schema that is not ours included) is replaced by a new one,
 * with a warning, which is returned; any other failure throws and leaves the file as it was.
 */
export async function writeCache(root: string, w: CacheWrite): Promise<{ warning: string | null }> {
  ensureCacheDir(root);
  let warning: string | null = null;
  const replaced = (reason: string): void => {
    warning = `cache ${CACHE_DB_PATH} was corrupt (${reason}); starting a new one`;
  };
  const file = join(root, CACHE_DB_PATH);
  return rewriteSqliteFile({
    file,
    lock: join(root, CACHE_LOCK_PATH),
    fresh: w.reset === true,
    unreadable: (e) => {
      throw new CacheWriteError(`cannot read ${CACHE_DB_PATH} (${describeError(e)}); it was left as it was`, { cause: e });
    },
    apply: (SQL, bytes) => {
      /** Apply the write to `target` (a DB of `from` kind, or a new one) and export it. */
      const apply = (target: Database, from: DbKind | null, had: Set<string>): Uint8Array => {
        target.run("BEGIN");
        const reinsert = from === "v2" ? migrateV2(target) : null;
        target.run(SCHEMA_DDL);
        reinsert?.();
        if (from === "v1") migrateV1(target, had);
        target.run("INSERT OR REPLACE INTO nr_meta(key, value) VALUES ('schema_version', ?)", [String(CACHE_SCHEMA_VERSION)]);
        const now = Math.floor(Date.now() / 1000);
        if (metaValue(target, "seeded") !== "1") {
          const any = new Map<string, ReconciledRow>();
          // NotarAI's rows are global per path: they hold for every spec.
          if (from === "legacy") for (const [p, r] of readFileCacheRows(target)) if (isHashHex(r.hash)) any.set(p, r);
          if (w.seed != null && w.declineSeed !== true)
            for (const [p, h] of w.seed) if (!any.has(p) && isHashHex(h)) any.set(p, { hash: h, blob: null, updatedAt: now });
          updateChunks(target, RECONCILED_CHUNKS, ANY_SPEC, { upserts: any, onlyMissing: true });
          target.run("INSERT OR REPLACE INTO nr_meta(key, value) VALUES ('seeded', '1')");
        }
        if (w.reconciled !== undefined)
          for (const [spec, rows] of groupBySpec(w.reconciled, now)) updateChunks(target, RECONCILED_CHUNKS, spec, { upserts: rows });
        if (w.fileCache !== undefined && w.fileCache.length > 0) upsertFileCache(target, w.fileCache, now);
        if (w.blobHashes !== undefined && w.blobHashes.size > 0)
          updateChunks(target, BLOB_HASH_CHUNKS, null, { upserts: new Map([...w.blobHashes].filter(([b, h]) => isBlobHex(b) && isHashHex(h))) });
        if (w.statHashes !== undefined && w.statHashes.size > 0) updateChunks(target, STAT_HASH_CHUNKS, null, { upserts: w.statHashes });
        if (w.prune !== undefined) pruneCache(target, root, w.prune);
        target.run("COMMIT");
        vacuumIfSparse(target);
        return target.export();
      };
      const applyFresh = (): Uint8Array => {
        const fresh = new SQL.Database();
        try {
          return apply(fresh, null, new Set());
        } finally {
          fresh.close();
        }
      };
      let out: Uint8Array | null = null;
      if (bytes === null || bytes.length === 0) out = applyFresh();
      else {
        let db: Database | null = null;
        try {
          db = new SQL.Database(bytes);
          const c = classifyCacheDb(db);
          if (!c.ok && c.status === "newer")
            throw new CacheWriteError(
              `cache ${CACHE_DB_PATH} has schema version ${c.version}, newer than this tool's ${CACHE_SCHEMA_VERSION}; ` +
                "upgrade noma-reconcile or run `noma-reconcile cache clear`",
            );
          // Not a cache this tool can use (a schema that is not ours, no table it knows): damaged.
          if (!c.ok) throw new CacheCorruptError(c.reason);
          out = apply(db, c.kind, tableNames(db));
        } catch (e) {
          if (e instanceof CacheWriteError) throw e;
          const damage = damageOf(SQL, file, e);
          if (damage === null) throw failedWrite(e);
          replaced(damage);
        } finally {
          db?.close();
        }
        out ??= applyFresh();
      }
      forgetCacheRead();
      return { bytes: out, result: { warning } };
    },
    writeError: (e) => new CacheWriteError(`cannot write ${CACHE_DB_PATH} (${describeError(e)})`, { cause: e }),
  });
}

/**
 * Forget everything (`clear_cache`): replace the DB, under the lock, with an
 * empty one that declines snapshot seeding, so the next diff shows every
 * governed file. True if a DB existed.
 */
export async function clearCacheDb(root: string): Promise<boolean> {
  assertNoSymlinkEscape(root, ".notarai/.cache", "clear the cache");
  const existed = existsSync(join(root, CACHE_DB_PATH));
  if (!existed) return false;
  await writeCache(root, { reset: true, declineSeed: true });
  return true;
}
