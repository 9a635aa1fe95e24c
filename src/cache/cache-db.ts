/**
 * The hash cache `.notarai/.cache/notarai.db` (SQLite through sql.js, loaded
 * lazily). Its tables and their packed chunks are described in
 * `cache-tables.ts`: NotarAI's `file_cache` as NotarAI defines it, beside our
 * reconciliation records and hash memos stored as chunks of up to 4096 rows.
 *
 * Reads are bulk (whole chunks, only the chunks that can hold the keys asked
 * for), never one query per path. A missing, unreadable, corrupt (a chunk that
 * fails its checksums included) or newer-schema DB reads as a cold cache with a
 * warning, and the next write replaces it; NotarAI's own DB and our schema-1
 * and schema-2 DBs are read as they are and migrated by the next write. Writes
 * take the lock, re-read the file, apply, export, and replace the file
 * atomically (sqlite/rewrite-sqlite-file.ts), so concurrent writers never lose
 * each other's rows. Nothing is
 * read or written through a `.notarai/.cache` that links out of the repository.
 */
import { NomaError } from "../errors/noma-error.js";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { assertNoSymlinkEscape, symlinkEscape } from "../fsx/symlink-escape.js";
import {
  BLOB_HASH_CHUNKS,
  CACHE_SCHEMA_VERSION,
  CHUNK_TABLES,
  RECONCILED_CHUNKS,
  SCHEMA_DDL,
  STAT_HASH_CHUNKS,
  type ReconciledRow,
  type StatRow,
} from "./cache-tables.js";
import { countRows, keysByChunk, decodeChunks, deleteScope, readChunks, sqlJsChunks, updateChunks, type ChunkCodec, type ChunkReader } from "./chunk-table.js";
import { fileChunks, fileMetaValue, hasCurrentTables } from "./file-chunks.js";
import { loadSqlJs } from "../sqlite/load-sql-js.js";
import { rewriteSqliteFile } from "../sqlite/rewrite-sqlite-file.js";
import { fileSource, SqliteFile, SqliteFormatError } from "../sqlite/sqlite-file.js";
import { asBuffer, unpackPaths } from "./packed-paths.js";
import { readFileCacheRows, readV1BlobHashes, readV1Reconciled, readV1StatHashes, V1_TABLES } from "./read-older-schemas.js";
import { RecordTable } from "./record-table.js";
import { batches, metaValue, selectRows, tableNames } from "./select-rows.js";

export { CACHE_SCHEMA_VERSION, type ReconciledRow, type StatRow } from "./cache-tables.js";

export const CACHE_DB_PATH = ".notarai/.cache/notarai.db";
export const CACHE_LOCK_PATH = ".notarai/.cache/notarai.db.lock";
/** The spec key of rows that hold for every spec (NotarAI's global rows, snapshot seeds). */
export const ANY_SPEC = "*";

export type CacheStatus = "absent" | "ok" | "legacy" | "unreadable" | "newer";

export interface CacheRead {
  status: CacheStatus;
  /** Why the cache reads as cold (unreadable, newer schema), for stderr. */
  warning: string | null;
  /** Whether the DB already took (or declined) its snapshot seed. */
  seeded: boolean;
  /** The DB predates the current schema: the next write migrates it. */
  outdated: boolean;
  /** spec → path → row (spec "*" for rows valid for every spec). */
  reconciled: Map<string, Map<string, ReconciledRow>>;
  blobHashes: Map<string, string>;
  statHashes: Map<string, StatRow>;
}

export interface CacheQuery {
  /** Read reconciliation rows (default true). */
  reconciled?: boolean;
  /** Only reconciliation rows of these specs ("*" rows are always read). Default: all specs. */
  specs?: readonly string[];
  /** Only rows for these paths. Default: all paths. */
  paths?: readonly string[];
  /** Blob-memo rows to read: all, some ids, or none (default). */
  blobs?: "all" | readonly string[];
  /** Stat-memo rows to read: all, some paths, or none (default). */
  stats?: "all" | readonly string[];
}

function emptyRead(status: CacheStatus, warning: string | null): CacheRead {
  return { status, warning, seeded: false, outdated: false, reconciled: new Map(), blobHashes: new Map(), statHashes: new Map() };
}

function describeError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code !== undefined ? `${err.code}: ${err.message}` : String(err.message ?? e);
}

const cold = "treating it as cold: every governed file counts as changed";

/** What a DB holds: our current schema, our schema 2 (chunks without sums) or 1, or NotarAI's `file_cache` alone. */
type DbKind = "current" | "v2" | "v1" | "legacy";

type Classified = { ok: true; kind: DbKind; seeded: boolean } | { ok: false; status: CacheStatus; warning: string; version?: string };

/** Which kind of DB this is (through sql.js), or why it cannot be used. */
function classify(db: Database): Classified {
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

/** An open DB shared by the reads of this process while the file is unchanged (same size, mtime, inode). */
interface SharedDb {
  key: string;
  kind: DbKind;
  seeded: boolean;
  /** Chunk reads: from the file itself (current schema), else through sql.js. */
  chunks: ChunkReader;
  /** The sql.js handle, when the file was opened through SQLite (older schemas, or a file the reader declined). */
  db: Database | null;
  /** Let go of what it holds (the sql.js handle, or the file the reader reads on demand). */
  dispose(): void;
  users: number;
  stale: boolean;
}

let lastRead: SharedDb | null = null;

function release(s: SharedDb): void {
  s.users--;
  if (s.stale && s.users === 0) s.dispose();
}

function dropLastRead(): void {
  if (lastRead === null) return;
  lastRead.stale = true;
  if (lastRead.users === 0) lastRead.dispose();
  lastRead = null;
}

type Opened = { ok: true; open: SharedDb } | { ok: false; read: CacheRead };

/** A file of exactly our current schema, read without SQLite (pages on demand); null when the reader declines it. */
function openFile(fd: number, size: number): { seeded: boolean; chunks: ChunkReader } | null {
  try {
    const file = SqliteFile.open(fileSource(fd, size));
    if (!hasCurrentTables(file) || fileMetaValue(file, "schema_version") !== String(CACHE_SCHEMA_VERSION)) return null;
    return { seeded: fileMetaValue(file, "seeded") === "1", chunks: fileChunks(file) };
  } catch {
    return null;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
}

/**
 * Open the DB for reading (shared and counted: call `release`), or say why it
 * reads as cold. A file of our current schema is read directly, only the
 * pages the reads touch; anything else, or with `viaSqlJs`, whole through
 * SQLite. The file stays open while the DB is in use, so later reads (hashes,
 * memo rows) see the same version even if a writer replaces it meanwhile.
 */
async function openForRead(file: string, viaSqlJs = false): Promise<Opened> {
  const unreadable = (e: unknown): Opened => {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: false, read: emptyRead("absent", null) };
    return { ok: false, read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is unreadable (${describeError(e)}); ${cold}`) };
  };
  let fd: number;
  let key: string;
  let size: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    return unreadable(e);
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    key = `${file}\0${st.size}\0${st.mtimeNs}\0${st.ino}`;
    size = Number(st.size);
  } catch (e) {
    closeQuietly(fd);
    return unreadable(e);
  }
  if (lastRead !== null && lastRead.key === key && (!viaSqlJs || lastRead.db !== null)) {
    closeQuietly(fd);
    lastRead.users++;
    return { ok: true, open: lastRead };
  }
  if (size === 0) {
    closeQuietly(fd);
    return { ok: false, read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is empty; ${cold}`) };
  }
  const direct = viaSqlJs ? null : openFile(fd, size);
  if (direct !== null) {
    dropLastRead();
    lastRead = { key, kind: "current", seeded: direct.seeded, chunks: direct.chunks, db: null, dispose: () => closeQuietly(fd), users: 1, stale: false };
    return { ok: true, open: lastRead };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(fd);
  } catch (e) {
    return unreadable(e);
  } finally {
    closeQuietly(fd);
  }
  const SQL = await loadSqlJs();
  let db: Database;
  let c: Classified;
  try {
    db = new SQL.Database(bytes);
  } catch (e) {
    return {
      ok: false,
      read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is not a readable database (${describeError(e)}); ${cold} (\`cache clear\` removes it)`),
    };
  }
  try {
    c = classify(db);
  } catch (e) {
    db.close();
    return {
      ok: false,
      read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is not a readable database (${describeError(e)}); ${cold} (\`cache clear\` removes it)`),
    };
  }
  if (!c.ok) {
    db.close();
    return { ok: false, read: emptyRead(c.status, c.warning) };
  }
  dropLastRead();
  lastRead = { key, kind: c.kind, seeded: c.seeded, chunks: sqlJsChunks(db, c.kind === "current"), db, dispose: () => db.close(), users: 1, stale: false };
  return { ok: true, open: lastRead };
}

function unusable(s: SharedDb, e: unknown): CacheRead {
  if (lastRead === s) dropLastRead();
  return emptyRead("unreadable", `cache ${CACHE_DB_PATH} could not be read (${describeError(e)}); ${cold}`);
}

/** Rows of `codec` (one scope, or all scopes with `scope` null) for `wanted` keys, or all; decoded whole chunks. */
function readKeyed<Row>(chunks: ChunkReader, codec: ChunkCodec<Row>, scope: string | null, wanted: "all" | readonly string[], into: Map<string, Row>): void {
  if (wanted === "all") {
    decodeChunks(codec, chunks.readChunks(codec, scope, codec.columns.length), into);
    return;
  }
  if (wanted.length === 0) return;
  const byChunk = keysByChunk(
    chunks.readChunks(codec, scope, 0).map((c) => c.first),
    wanted,
  );
  const stored = chunks.readChunks(codec, scope, codec.columns.length, [...byChunk.keys()]);
  for (const c of stored) {
    const keys = byChunk.get(c.first) ?? [];
    // A few keys of a big chunk: look them up in place rather than decoding every key.
    if (codec.find !== undefined && keys.length * 16 < c.n) for (const [k, r] of codec.find(c.values, c.n, keys)) into.set(k, r);
    else decodeChunks(codec, [c], into, new Set(keys));
  }
}

function filterRows<Row>(rows: ReadonlyMap<string, Row>, wanted: "all" | readonly string[] | undefined, into: Map<string, Row>): void {
  if (wanted === undefined) return;
  if (wanted === "all") for (const [k, v] of rows) into.set(k, v);
  else
    for (const k of wanted) {
      const v = rows.get(k);
      if (v !== undefined) into.set(k, v);
    }
}

function readOpen(o: SharedDb, q: CacheQuery, out: CacheRead): void {
  const specs = q.specs !== undefined ? [...new Set([...q.specs, ANY_SPEC])] : null;
  if (o.kind === "legacy" || o.kind === "v1") {
    const db = o.db!;
    if (o.kind === "legacy") {
      if (q.reconciled !== false) {
        const m = new Map<string, ReconciledRow>();
        filterRows(readFileCacheRows(db), q.paths ?? "all", m);
        if (m.size > 0) out.reconciled.set(ANY_SPEC, m);
      }
      return;
    }
    if (q.reconciled !== false) {
      for (const [spec, rows] of readV1Reconciled(db, specs)) {
        const m = new Map<string, ReconciledRow>();
        filterRows(rows, q.paths ?? "all", m);
        if (m.size > 0) out.reconciled.set(spec, m);
      }
    }
    if (q.blobs !== undefined) filterRows(readV1BlobHashes(db), q.blobs, out.blobHashes);
    if (q.stats !== undefined) filterRows(readV1StatHashes(db), q.stats, out.statHashes);
    return;
  }
  if (q.reconciled !== false) {
    for (const spec of specs ?? [...new Set(o.chunks.readChunks(RECONCILED_CHUNKS, null, 0).map((c) => c.scope))]) {
      const m = new Map<string, ReconciledRow>();
      readKeyed(o.chunks, RECONCILED_CHUNKS, spec, q.paths ?? "all", m);
      if (m.size > 0) out.reconciled.set(spec, m);
    }
  }
  if (q.blobs !== undefined) readKeyed(o.chunks, BLOB_HASH_CHUNKS, null, q.blobs, out.blobHashes);
  if (q.stats !== undefined) readKeyed(o.chunks, STAT_HASH_CHUNKS, null, q.stats, out.statHashes);
}

/** Why the DB is not read at all: its path leads out of the repository through a symbolic link. */
function escapedCache(root: string): CacheRead | null {
  const e = symlinkEscape(root, CACHE_DB_PATH);
  if (e === null) return null;
  return emptyRead(
    "unreadable",
    `cache ${CACHE_DB_PATH}: ${e.link} is a symbolic link to ${e.target}, outside the repository; not read (${cold}; writing it is refused)`,
  );
}

/** Read the cache (bulk). Never throws for a bad DB: it reads as cold, with a warning. */
export async function readCache(root: string, q: CacheQuery = {}): Promise<CacheRead> {
  const file = join(root, CACHE_DB_PATH);
  const escaped = escapedCache(root);
  if (escaped !== null) return escaped;
  for (const viaSqlJs of [false, true]) {
    const opened = await openForRead(file, viaSqlJs);
    if (!opened.ok) return opened.read;
    const s = opened.open;
    try {
      const out = emptyRead(s.kind === "legacy" ? "legacy" : "ok", null);
      out.seeded = s.seeded;
      out.outdated = s.kind !== "current";
      readOpen(s, q, out);
      return out;
    } catch (e) {
      // The file reader met something it does not expect: ask SQLite, which decides what is readable.
      if (e instanceof SqliteFormatError && s.db === null) continue;
      return unusable(s, e);
    } finally {
      release(s);
    }
  }
  throw new Error("unreachable");
}

/** The warm path's read: records of some specs as sorted tables, memo rows on demand. */
export interface RecordsRead {
  /** The specs asked for. */
  specs: readonly string[];
  status: CacheStatus;
  warning: string | null;
  seeded: boolean;
  /** The DB predates the current schema: the next write migrates it. */
  outdated: boolean;
  /** spec → its records, for the specs asked for and "*" (absent: none). */
  tables: Map<string, RecordTable>;
  /** Memo rows for these blob ids and these paths' stat signatures (from the same DB version as `tables`; none if unreadable). */
  memo(blobs: readonly string[], paths: readonly string[]): { blobHashes: Map<string, string>; statHashes: Map<string, StatRow> };
  /** Let go of the DB (tables read no more hashes afterwards). */
  close(): void;
  /**
   * Why a read made after this one (a chunk's hashes, memo rows) failed — its checksums, or
   * its bytes — or null. The answer built on these tables must then be rebuilt from a cold
   * cache: the DB is damaged.
   */
  damaged(): string | null;
}

/** A cold read of `specs`, with the warning that says why. */
export function coldRecords(specs: readonly string[], read: Pick<CacheRead, "status" | "warning">): RecordsRead {
  return {
    specs,
    status: read.status,
    warning: read.warning,
    seeded: false,
    outdated: false,
    tables: new Map(),
    memo: () => ({ blobHashes: new Map(), statHashes: new Map() }),
    close: () => undefined,
    damaged: () => null,
  };
}

/** The warning for a damaged cache found while reading it. */
export function damagedCacheWarning(reason: string): string {
  return `cache ${CACHE_DB_PATH} is corrupt (${reason}); ${cold} (the next write replaces it)`;
}

/**
 * Records of `specs` (and "*") with only paths and blob ids decoded: what a
 * clean file needs to be found reconciled. Never throws for a bad DB.
 */
export async function readRecords(root: string, specs: readonly string[]): Promise<RecordsRead> {
  const file = join(root, CACHE_DB_PATH);
  const escaped = escapedCache(root);
  if (escaped !== null) return coldRecords(specs, escaped);
  for (const viaSqlJs of [false, true]) {
    const opened = await openForRead(file, viaSqlJs);
    if (!opened.ok) return coldRecords(specs, opened.read);
    const s = opened.open;
    let released = false;
    const close = (): void => {
      if (!released) release(s);
      released = true;
    };
    let damage: string | null = null;
    const damaged = (): string | null => damage;
    try {
      const tables = new Map<string, RecordTable>();
      const memo = (blobs: readonly string[], paths: readonly string[]) => {
        const m = emptyRead("ok", null);
        try {
          readOpen(s, { reconciled: false, blobs, stats: paths }, m);
        } catch (e) {
          damage ??= describeError(e); // no memo rows: the caller rebuilds its answer from a cold cache
          return { blobHashes: new Map<string, string>(), statHashes: new Map<string, StatRow>() };
        }
        return { blobHashes: m.blobHashes, statHashes: m.statHashes };
      };
      if (s.kind === "legacy" || s.kind === "v1") {
        const read = emptyRead("ok", null);
        readOpen(s, { specs }, read);
        for (const [spec, rows] of read.reconciled) tables.set(spec, RecordTable.fromRows(rows));
        return { specs, status: s.kind === "legacy" ? "legacy" : "ok", warning: null, seeded: s.seeded, outdated: true, tables, memo, close, damaged };
      }
      for (const spec of new Set([...specs, ANY_SPEC])) {
        const chunks = s.chunks.readChunks(RECONCILED_CHUNKS, spec, 1);
        if (chunks.length === 0) continue;
        const load = (first: string) => {
          try {
            const [c] = s.chunks.readChunks(RECONCILED_CHUNKS, spec, 3, [first]);
            if (c === undefined) throw new Error(`chunk ${first} of ${spec} vanished`);
            return { hashes: c.values[1]!, updated: c.values[2]! };
          } catch (e) {
            damage ??= describeError(e);
            throw e;
          }
        };
        tables.set(
          spec,
          RecordTable.fromChunks(
            chunks.map((c) => ({ first: c.first, n: c.n, lines: asBuffer(c.values[0]!) })),
            load,
          ),
        );
      }
      return { specs, status: "ok", warning: null, seeded: s.seeded, outdated: s.kind !== "current", tables, memo, close, damaged };
    } catch (e) {
      close();
      if (e instanceof SqliteFormatError && s.db === null) continue;
      return coldRecords(specs, unusable(s, e));
    }
  }
  throw new Error("unreachable");
}

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
  prune?: { livePaths: ReadonlySet<string>; liveSpecs: ReadonlySet<string>; liveBlobs?: ReadonlySet<string> };
  /** Mark the DB as seeded without seeding (after `cache clear`). */
  declineSeed?: boolean;
  /** Start from an empty DB, discarding the current file (`cache clear`). */
  reset?: boolean;
}

export class CacheWriteError extends NomaError {
  static override readonly errorName: string = "CacheWriteError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("cache-unwritable", message, options);
  }
}

const HASH = /^[0-9a-f]{64}$/;
const BLOB = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

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

/** Rows of schema 1 moved into chunks; the old tables dropped. */
function migrateV1(db: Database, tables: Set<string>): void {
  if (tables.has("nr_reconciled")) {
    for (const [spec, rows] of readV1Reconciled(db, null)) {
      const valid = new Map([...rows].filter(([, r]) => HASH.test(r.hash)));
      updateChunks(db, RECONCILED_CHUNKS, spec, { upserts: valid, onlyMissing: true });
    }
  }
  if (tables.has("nr_blob_hash"))
    updateChunks(db, BLOB_HASH_CHUNKS, null, {
      upserts: new Map([...readV1BlobHashes(db)].filter(([b, h]) => BLOB.test(b) && HASH.test(h))),
      onlyMissing: true,
    });
  if (tables.has("nr_stat_hash"))
    updateChunks(db, STAT_HASH_CHUNKS, null, { upserts: new Map([...readV1StatHashes(db)].filter(([, s]) => HASH.test(s.hash))), onlyMissing: true });
  for (const t of V1_TABLES) db.run(`DROP TABLE IF EXISTS ${t}`);
}

/**
 * Schema 2 → 3: every chunk read as it is (schema 2 has no sums to check), the chunk tables
 * dropped; the returned function re-inserts the rows, with sums, once SCHEMA_DDL has
 * created the new tables.
 */
function migrateV2(db: Database): () => void {
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

function prune(db: Database, root: string, p: NonNullable<CacheWrite["prune"]>): void {
  const gone = new Map<string, boolean>();
  const isGone = (path: string): boolean => {
    if (p.livePaths.has(path)) return false;
    let g = gone.get(path);
    if (g === undefined) gone.set(path, (g = !existsSync(join(root, path))));
    return g;
  };
  const specs = new Set<string>();
  const deadBySpec = new Map<string, string[]>();
  for (const c of readChunks(db, RECONCILED_CHUNKS, null, 1)) {
    specs.add(c.scope);
    for (const path of RECONCILED_CHUNKS.decodeKeys(c.values[0]!, c.n)) {
      if (!isGone(path)) continue;
      let list = deadBySpec.get(c.scope);
      if (list === undefined) deadBySpec.set(c.scope, (list = []));
      list.push(path);
    }
  }
  for (const spec of specs) {
    if (spec !== ANY_SPEC && !p.liveSpecs.has(spec) && !existsSync(join(root, spec))) {
      deleteScope(db, RECONCILED_CHUNKS, spec);
      deadBySpec.delete(spec);
    }
  }
  for (const [spec, paths] of deadBySpec) updateChunks(db, RECONCILED_CHUNKS, spec, { deletes: paths });
  const deadFileCache = selectRows(db, ["path"], "file_cache")
    .map((r) => r[0]!)
    .filter(isGone);
  for (const b of batches(deadFileCache)) db.run(`DELETE FROM file_cache WHERE path IN (${b.map(() => "?").join(",")})`, b);
  const deadStats: string[] = [];
  for (const c of readChunks(db, STAT_HASH_CHUNKS, null, 1)) for (const path of unpackPaths(c.values[0]!, c.n)) if (isGone(path)) deadStats.push(path);
  updateChunks(db, STAT_HASH_CHUNKS, null, { deletes: deadStats });
  if (p.liveBlobs !== undefined) {
    // Amortised: collect only when most memo rows are dead.
    if (countRows(db, BLOB_HASH_CHUNKS) > 2 * p.liveBlobs.size + 1_000) {
      const dead: string[] = [];
      for (const c of readChunks(db, BLOB_HASH_CHUNKS, null, 1))
        for (const b of BLOB_HASH_CHUNKS.decodeKeys(c.values[0]!, c.n)) if (!p.liveBlobs.has(b)) dead.push(b);
      updateChunks(db, BLOB_HASH_CHUNKS, null, { deletes: dead });
    }
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
 * Apply `w` to the cache: lock, re-read the DB file (a bad one is replaced, with
 * a warning; an older schema is migrated), apply, export, write a temp file,
 * fsync, rename, unlock (rewriteSqliteFile). Returns a warning when the previous
 * DB had to be discarded.
 */
export async function writeCache(root: string, w: CacheWrite): Promise<{ warning: string | null }> {
  ensureCacheDir(root);
  let warning: string | null = null;
  return rewriteSqliteFile({
    file: join(root, CACHE_DB_PATH),
    lock: join(root, CACHE_LOCK_PATH),
    fresh: w.reset === true,
    unreadable: (e) => {
      warning = `cache ${CACHE_DB_PATH} was unreadable (${describeError(e)}); starting a new one`;
    },
    apply: (SQL, bytes) => {
      let db: Database | null = null;
      let kind: DbKind | null = null;
      let tables = new Set<string>();
      if (bytes !== null && bytes.length > 0) {
        try {
          db = new SQL.Database(bytes);
          const c = classify(db);
          if (!c.ok && c.status === "newer") {
            db.close();
            db = null;
            throw new CacheWriteError(
              `cache ${CACHE_DB_PATH} has schema version ${c.version}, newer than this tool's ${CACHE_SCHEMA_VERSION}; upgrade noma-reconcile or run \`noma-reconcile cache clear\``,
            );
          }
          if (!c.ok) throw new Error(c.warning);
          kind = c.kind;
          tables = tableNames(db);
        } catch (e) {
          if (e instanceof CacheWriteError) throw e;
          db?.close();
          warning = `cache ${CACHE_DB_PATH} was not a readable database (${describeError(e)}); starting a new one`;
          db = null;
          kind = null;
        }
      }
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
          if (from === "legacy") for (const [p, r] of readFileCacheRows(target)) if (HASH.test(r.hash)) any.set(p, r);
          if (w.seed != null && w.declineSeed !== true)
            for (const [p, h] of w.seed) if (!any.has(p) && HASH.test(h)) any.set(p, { hash: h, blob: null, updatedAt: now });
          updateChunks(target, RECONCILED_CHUNKS, ANY_SPEC, { upserts: any, onlyMissing: true });
          target.run("INSERT OR REPLACE INTO nr_meta(key, value) VALUES ('seeded', '1')");
        }
        if (w.reconciled !== undefined)
          for (const [spec, rows] of groupBySpec(w.reconciled, now)) updateChunks(target, RECONCILED_CHUNKS, spec, { upserts: rows });
        if (w.fileCache !== undefined && w.fileCache.length > 0) upsertFileCache(target, w.fileCache, now);
        if (w.blobHashes !== undefined && w.blobHashes.size > 0)
          updateChunks(target, BLOB_HASH_CHUNKS, null, { upserts: new Map([...w.blobHashes].filter(([b, h]) => BLOB.test(b) && HASH.test(h))) });
        if (w.statHashes !== undefined && w.statHashes.size > 0) updateChunks(target, STAT_HASH_CHUNKS, null, { upserts: w.statHashes });
        if (w.prune !== undefined) prune(target, root, w.prune);
        target.run("COMMIT");
        vacuumIfSparse(target);
        return target.export();
      };
      let out: Uint8Array;
      const existing = db;
      if (existing === null) {
        const fresh = new SQL.Database();
        try {
          out = apply(fresh, null, new Set());
        } finally {
          fresh.close();
        }
      } else {
        try {
          out = apply(existing, kind, tables);
        } catch (e) {
          // The file opened, but its contents do not hold up (checksums, SQLite's own structures, a
          // schema that is not ours): a damaged cache is replaced, like an unreadable one.
          if (e instanceof CacheWriteError) throw e;
          warning = `cache ${CACHE_DB_PATH} was corrupt (${describeError(e)}); starting a new one`;
          const fresh = new SQL.Database();
          try {
            out = apply(fresh, null, new Set());
          } finally {
            fresh.close();
          }
        } finally {
          existing.close();
        }
      }
      dropLastRead();
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
  let db: Database;
  let tables: Set<string>;
  try {
    db = new SQL.Database(bytes);
    tables = tableNames(db);
  } catch (e) {
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
