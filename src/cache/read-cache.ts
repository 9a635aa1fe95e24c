/**
 * Reading the hash cache `.notarai/.cache/notarai.db` (its tables and packed chunks are
 * described in `cache-tables.ts`; writes are in `write-cache.ts`).
 *
 * Reads are bulk (whole chunks, only the chunks that can hold the keys asked
 * for), never one query per path. A file of exactly our current schema is read
 * without SQLite (`file-chunks.ts`); anything else through sql.js (loaded lazily). A
 * missing, unreadable, corrupt (a chunk that fails its checksums included) or
 * newer-schema DB reads as a cold cache with a warning; NotarAI's own DB and our
 * schema-1 and schema-2 DBs are read as they are (the next write migrates them).
 * Nothing is read through a `.notarai/.cache` that links out of the repository.
 */
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { describeError } from "../errors/describe-error.js";
import { symlinkEscape } from "../fsx/symlink-escape.js";
import { loadSqlJs } from "../sqlite/load-sql-js.js";
import { fileSource, SqliteFile, SqliteFormatError } from "../sqlite/sqlite-file.js";
import { CACHE_DB_PATH } from "./cache-db-path.js";
import { ANY_SPEC, BLOB_HASH_CHUNKS, CACHE_SCHEMA_VERSION, RECONCILED_CHUNKS, STAT_HASH_CHUNKS, type ReconciledRow, type StatRow } from "./cache-tables.js";
import { keysByChunk, decodeChunks, sqlJsChunks, type ChunkCodec, type ChunkReader } from "./chunk-table.js";
import { classifyCacheDb, type CacheStatus, type Classified, type DbKind } from "./classify-cache-db.js";
import { fileChunks, fileMetaValue, hasCurrentTables } from "./file-chunks.js";
import { asBuffer } from "./packed-paths.js";
import { readFileCacheRows, readV1BlobHashes, readV1Reconciled, readV1StatHashes } from "./read-older-schemas.js";
import { RecordTable } from "./record-table.js";

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

const cold = "treating it as cold: every governed file counts as changed";

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

/** Forget the DB this process last read (a write replaced it). */
export function forgetCacheRead(): void {
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
    forgetCacheRead();
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
    c = classifyCacheDb(db);
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
  forgetCacheRead();
  lastRead = { key, kind: c.kind, seeded: c.seeded, chunks: sqlJsChunks(db, c.kind === "current"), db, dispose: () => db.close(), users: 1, stale: false };
  return { ok: true, open: lastRead };
}

function unusable(s: SharedDb, e: unknown): CacheRead {
  if (lastRead === s) forgetCacheRead();
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
export function escapedCache(root: string): CacheRead | null {
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
