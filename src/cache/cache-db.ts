/**
 * The hash cache `.notarai/.cache/notarai.db` (SQLite through sql.js, loaded
 * lazily). Tables:
 *
 *   file_cache(path, blake3_hash, updated_at)   NotarAI's table, kept as is: the
 *                                                last hash marked reconciled per path
 *   nr_meta(key, value)                          schema_version, seeded
 *   nr_reconciled(spec, path, blake3_hash, blob, updated_at)
 *                                                reconciliation per (spec, path);
 *                                                spec "*" = every spec (NotarAI
 *                                                rows, snapshot seeds)
 *   nr_blob_hash(blob, blake3_hash)              git blob id → BLAKE3 of its bytes
 *   nr_stat_hash(path, size, mtime_ns, ctime_ns, ino, blake3_hash)
 *                                                stat signature → BLAKE3, for files
 *                                                git does not vouch for
 *
 * Reads are bulk (one SELECT per table, or IN-batches for short path lists),
 * never one query per path. A missing, unreadable, corrupt or newer-schema DB
 * reads as a cold cache with a warning. Writes take the lock, re-read the file,
 * apply, export, and replace the file atomically, so concurrent writers never
 * lose each other's rows.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database, SqlJsStatic } from "sql.js";
import { withFileLock } from "../fsx/with-file-lock.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";

export const CACHE_DB_PATH = ".notarai/.cache/notarai.db";
export const CACHE_LOCK_PATH = ".notarai/.cache/notarai.db.lock";
export const CACHE_SCHEMA_VERSION = 1;
/** The spec key of rows that hold for every spec (NotarAI's global rows, snapshot seeds). */
export const ANY_SPEC = "*";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS file_cache(path TEXT PRIMARY KEY, blake3_hash TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS nr_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS nr_reconciled(spec TEXT NOT NULL, path TEXT NOT NULL, blake3_hash TEXT NOT NULL, blob TEXT, updated_at INTEGER NOT NULL, PRIMARY KEY(spec, path)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS nr_blob_hash(blob TEXT PRIMARY KEY, blake3_hash TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS nr_stat_hash(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns TEXT NOT NULL, ctime_ns TEXT NOT NULL, ino TEXT NOT NULL, blake3_hash TEXT NOT NULL) WITHOUT ROWID;
`;

export type CacheStatus = "absent" | "ok" | "legacy" | "unreadable" | "newer";

export interface ReconciledRow {
  hash: string;
  blob: string | null;
  updatedAt: number;
}

export interface StatRow {
  size: number;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
  hash: string;
}

export interface CacheRead {
  status: CacheStatus;
  /** Why the cache reads as cold (unreadable, newer schema), for stderr. */
  warning: string | null;
  /** Whether the DB already took (or declined) its snapshot seed. */
  seeded: boolean;
  /** spec → path → row (spec "*" for rows valid for every spec). */
  reconciled: Map<string, Map<string, ReconciledRow>>;
  /** spec → path → blob id recorded with the reconciliation, "" when none (query `reconciled: "blobs"`). */
  reconciledBlobs: Map<string, Map<string, string>>;
  blobHashes: Map<string, string>;
  statHashes: Map<string, StatRow>;
}

export interface CacheQuery {
  /**
   * Read reconciliation rows: true (default: full rows into `reconciled`), false, or
   * "blobs" (only path → blob id into `reconciledBlobs`: the cheap warm-path read).
   */
  reconciled?: boolean | "blobs";
  /** Only reconciliation rows of these specs ("*" rows are always read). Default: all specs. */
  specs?: readonly string[];
  /** Only rows for these paths. Default: all paths. */
  paths?: readonly string[];
  /** Blob-memo rows to read: all, some ids, or none (default). */
  blobs?: "all" | readonly string[];
  /** Stat-memo rows to read: all, some paths, or none (default). */
  stats?: "all" | readonly string[];
}

let sqlPromise: Promise<SqlJsStatic> | undefined;

/** Load sql.js (once per process, lazily). */
export function loadSqlJs(): Promise<SqlJsStatic> {
  sqlPromise ??= (async () => {
    const mod = (await import("sql.js")) as unknown as { default: (cfg?: object) => Promise<SqlJsStatic> };
    return mod.default();
  })();
  return sqlPromise;
}

function emptyRead(status: CacheStatus, warning: string | null): CacheRead {
  return { status, warning, seeded: false, reconciled: new Map(), reconciledBlobs: new Map(), blobHashes: new Map(), statHashes: new Map() };
}

function tableNames(db: Database): Set<string> {
  const res = db.exec("SELECT name FROM sqlite_master WHERE type = 'table'");
  return new Set((res[0]?.values ?? []).map((r) => String(r[0])));
}

function meta(db: Database, key: string): string | null {
  const res = db.exec("SELECT value FROM nr_meta WHERE key = ?", [key]);
  const v = res[0]?.values[0]?.[0];
  return v === undefined || v === null ? null : String(v);
}

const FS = "\x1f";
const RS = "\x1e";

/**
 * Run `SELECT <cols> FROM … WHERE …` and return rows of strings, in bulk: one
 * group_concat round trip; falls back to JSON when a value holds a separator.
 */
function selectRows(db: Database, cols: readonly string[], from: string, params: (string | number)[] = []): string[][] {
  const joined = cols.map((c) => `coalesce(${c}, '')`).join(` || char(31) || `);
  const res = db.exec(`SELECT count(*), group_concat(${joined}, char(30)) FROM ${from}`, params);
  const count = Number(res[0]?.values[0]?.[0] ?? 0);
  if (count === 0) return [];
  const text = String(res[0]!.values[0]![1]);
  const rows = text.split(RS).map((r) => r.split(FS));
  if (rows.length === count && rows.every((r) => r.length === cols.length)) return rows;
  const json = db.exec(`SELECT json_group_array(json_array(${cols.map((c) => `coalesce(${c}, '')`).join(", ")})) FROM ${from}`, params);
  return JSON.parse(String(json[0]!.values[0]![0])) as string[][];
}

/** Batches of at most `size` for IN (…) lists. */
function batches<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const IN_LIMIT = 2_000;

function readReconciled(db: Database, q: CacheQuery, into: Map<string, Map<string, ReconciledRow>>): void {
  const put = (r: string[]): void => {
    const [spec, path, hash, blob, updated] = r as [string, string, string, string, string];
    let m = into.get(spec);
    if (m === undefined) into.set(spec, (m = new Map()));
    m.set(path, { hash, blob: blob === "" ? null : blob, updatedAt: Number(updated) });
  };
  const cols = ["spec", "path", "blake3_hash", "blob", "updated_at"];
  const specFilter = q.specs !== undefined ? [...q.specs, ANY_SPEC] : null;
  const specClause = specFilter !== null ? `spec IN (${specFilter.map(() => "?").join(",")})` : "1";
  if (q.paths !== undefined && q.paths.length <= IN_LIMIT) {
    for (const b of batches(q.paths)) {
      for (const r of selectRows(db, cols, `nr_reconciled WHERE ${specClause} AND path IN (${b.map(() => "?").join(",")})`, [...(specFilter ?? []), ...b])) put(r);
    }
  } else {
    const wanted = q.paths !== undefined ? new Set(q.paths) : null;
    for (const r of selectRows(db, cols, `nr_reconciled WHERE ${specClause}`, specFilter ?? [])) if (wanted === null || wanted.has(r[1]!)) put(r);
  }
}

/** path → blob of reconciliation rows of the given specs, parsed straight from one group_concat string. */
function readReconciledBlobs(db: Database, specs: readonly string[] | undefined, into: Map<string, Map<string, string>>): void {
  const filter = specs !== undefined ? [...specs, ANY_SPEC] : null;
  const where = filter !== null ? `spec IN (${filter.map(() => "?").join(",")}) AND ` : "";
  const res = db.exec(`SELECT spec, group_concat(path || char(31) || coalesce(blob, ''), char(30)) FROM nr_reconciled ${where.length > 0 ? `WHERE ${where.slice(0, -5)}` : ""} GROUP BY spec`, filter ?? []);
  for (const row of res[0]?.values ?? []) {
    const spec = String(row[0]);
    const text = String(row[1] ?? "");
    const m = new Map<string, string>();
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf(RS, start);
      if (end < 0) end = text.length;
      const sep = text.lastIndexOf(FS, end);
      if (sep < start) throw new Error("cache row holds a separator character");
      m.set(text.slice(start, sep), text.slice(sep + 1, end));
      start = end + 1;
    }
    into.set(spec, m);
  }
}

function readLegacy(db: Database, q: CacheQuery, into: Map<string, Map<string, ReconciledRow>>): void {
  const m = new Map<string, ReconciledRow>();
  const wanted = q.paths !== undefined ? new Set(q.paths) : null;
  for (const [path, hash, updated] of selectRows(db, ["path", "blake3_hash", "updated_at"], "file_cache") as [string, string, string][]) {
    if (wanted === null || wanted.has(path)) m.set(path, { hash: hash.toLowerCase(), blob: null, updatedAt: Number(updated) });
  }
  if (m.size > 0) into.set(ANY_SPEC, m);
}

function readBlobs(db: Database, which: "all" | readonly string[], into: Map<string, string>): void {
  if (which === "all" || which.length > IN_LIMIT) {
    const wanted = which === "all" ? null : new Set(which);
    for (const [blob, hash] of selectRows(db, ["blob", "blake3_hash"], "nr_blob_hash") as [string, string][]) if (wanted === null || wanted.has(blob)) into.set(blob, hash);
    return;
  }
  for (const b of batches(which)) {
    for (const [blob, hash] of selectRows(db, ["blob", "blake3_hash"], `nr_blob_hash WHERE blob IN (${b.map(() => "?").join(",")})`, b) as [string, string][]) into.set(blob, hash);
  }
}

function readStats(db: Database, which: "all" | readonly string[], into: Map<string, StatRow>): void {
  const cols = ["path", "size", "mtime_ns", "ctime_ns", "ino", "blake3_hash"];
  const put = (r: string[]): void => {
    const [path, size, mtimeNs, ctimeNs, ino, hash] = r as [string, string, string, string, string, string];
    into.set(path, { size: Number(size), mtimeNs, ctimeNs, ino, hash });
  };
  if (which === "all" || which.length > IN_LIMIT) {
    const wanted = which === "all" ? null : new Set(which);
    for (const r of selectRows(db, cols, "nr_stat_hash")) if (wanted === null || wanted.has(r[0]!)) put(r);
    return;
  }
  for (const b of batches(which)) for (const r of selectRows(db, cols, `nr_stat_hash WHERE path IN (${b.map(() => "?").join(",")})`, b)) put(r);
}

/** Open DB bytes; throws when they are not a usable SQLite database. */
function openBytes(SQL: SqlJsStatic, bytes: Uint8Array): { db: Database; tables: Set<string> } {
  const db = new SQL.Database(bytes);
  try {
    return { db, tables: tableNames(db) };
  } catch (e) {
    db.close();
    throw e;
  }
}

function describeError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code !== undefined ? `${err.code}: ${err.message}` : String(err.message ?? e);
}

interface OpenRead {
  key: string;
  db: Database;
  tables: Set<string>;
}

/** The DB last opened for reading in this process, reused while the file is unchanged (same size, mtime, inode). */
let lastRead: OpenRead | null = null;

function dropLastRead(): void {
  lastRead?.db.close();
  lastRead = null;
}

type Opened = { ok: true; db: Database; tables: Set<string> } | { ok: false; read: CacheRead };

async function openForRead(file: string): Promise<Opened> {
  let key: string;
  try {
    const st = statSync(file, { bigint: true });
    key = `${file}\0${st.size}\0${st.mtimeNs}\0${st.ino}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: false, read: emptyRead("absent", null) };
    return { ok: false, read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is unreadable (${describeError(e)}); treating it as cold: every governed file counts as changed`) };
  }
  if (lastRead !== null && lastRead.key === key) return { ok: true, db: lastRead.db, tables: lastRead.tables };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: false, read: emptyRead("absent", null) };
    return { ok: false, read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is unreadable (${describeError(e)}); treating it as cold: every governed file counts as changed`) };
  }
  if (bytes.length === 0) return { ok: false, read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is empty; treating it as cold: every governed file counts as changed`) };
  const SQL = await loadSqlJs();
  try {
    const opened = openBytes(SQL, bytes);
    dropLastRead();
    lastRead = { key, ...opened };
    return { ok: true, ...opened };
  } catch (e) {
    return { ok: false, read: emptyRead("unreadable", `cache ${CACHE_DB_PATH} is not a readable database (${describeError(e)}); treating it as cold: every governed file counts as changed (\`cache clear\` removes it)`) };
  }
}

/** Read the cache (bulk). Never throws for a bad DB: it reads as cold, with a warning. */
export async function readCache(root: string, q: CacheQuery = {}): Promise<CacheRead> {
  const opened = await openForRead(join(root, CACHE_DB_PATH));
  if (!opened.ok) return opened.read;
  const { db, tables } = opened;
  try {
    const out = emptyRead("ok", null);
    if (!tables.has("nr_meta")) {
      if (!tables.has("file_cache")) return emptyRead("unreadable", `cache ${CACHE_DB_PATH} has no file_cache table; treating it as cold`);
      out.status = "legacy";
      if (q.reconciled !== false) readLegacy(db, q, out.reconciled);
      return out;
    }
    const version = Number(meta(db, "schema_version"));
    if (!Number.isInteger(version) || version > CACHE_SCHEMA_VERSION) {
      return emptyRead("newer", `cache ${CACHE_DB_PATH} has schema version ${meta(db, "schema_version") ?? "?"}, newer than this tool's ${CACHE_SCHEMA_VERSION}; treating it as cold`);
    }
    out.seeded = meta(db, "seeded") === "1";
    if (q.reconciled === "blobs") readReconciledBlobs(db, q.specs, out.reconciledBlobs);
    else if (q.reconciled !== false) readReconciled(db, q, out.reconciled);
    if (q.blobs !== undefined) readBlobs(db, q.blobs, out.blobHashes);
    if (q.stats !== undefined) readStats(db, q.stats, out.statHashes);
    return out;
  } catch (e) {
    dropLastRead();
    return emptyRead("unreadable", `cache ${CACHE_DB_PATH} could not be read (${describeError(e)}); treating it as cold: every governed file counts as changed`);
  }
}

export interface CacheWrite {
  /** Reconciliation rows to upsert (spec "*" allowed). */
  reconciled?: ReadonlyArray<{ spec: string; path: string; hash: string; blob: string | null }>;
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

export class CacheWriteError extends Error {
  readonly exitCode = 2;
  readonly code = "cache-unwritable";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CacheWriteError";
  }
}

/**
 * Run one prepared statement per row, rows sorted by their leading (string) key
 * columns: B-tree appends are ~2× faster than random inserts.
 */
function run(db: Database, sql: string, rows: Iterable<(string | number | null)[]>, keyColumns: 1 | 2 = 1): void {
  const sorted = [...rows].sort(
    keyColumns === 1
      ? (a, b) => ((a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : 0)
      : (a, b) => ((a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : (a[1] as string) < (b[1] as string) ? -1 : (a[1] as string) > (b[1] as string) ? 1 : 0),
  );
  const st = db.prepare(sql);
  try {
    for (const r of sorted) {
      st.bind(r);
      st.step();
      st.reset();
    }
  } finally {
    st.free();
  }
}

function prune(db: Database, root: string, p: NonNullable<CacheWrite["prune"]>): void {
  const gone = new Map<string, boolean>();
  const isGone = (path: string): boolean => {
    if (p.livePaths.has(path)) return false;
    let g = gone.get(path);
    if (g === undefined) gone.set(path, (g = !existsSync(join(root, path))));
    return g;
  };
  const dead = (table: string, col = "path"): string[] => selectRows(db, [col], `(SELECT DISTINCT ${col} FROM ${table})`).map((r) => r[0]!).filter(isGone);
  for (const table of ["nr_reconciled", "file_cache", "nr_stat_hash"]) {
    const paths = dead(table);
    for (const b of batches(paths)) db.run(`DELETE FROM ${table} WHERE path IN (${b.map(() => "?").join(",")})`, b);
  }
  const deadSpecs = selectRows(db, ["spec"], "(SELECT DISTINCT spec FROM nr_reconciled)")
    .map((r) => r[0]!)
    .filter((s) => s !== ANY_SPEC && !p.liveSpecs.has(s) && !existsSync(join(root, s)));
  for (const b of batches(deadSpecs)) db.run(`DELETE FROM nr_reconciled WHERE spec IN (${b.map(() => "?").join(",")})`, b);
  if (p.liveBlobs !== undefined) {
    const count = Number(db.exec("SELECT count(*) FROM nr_blob_hash")[0]?.values[0]?.[0] ?? 0);
    // Amortised: collect only when most memo rows are dead.
    if (count > 2 * p.liveBlobs.size + 1_000) {
      const deadBlobs = selectRows(db, ["blob"], "nr_blob_hash")
        .map((r) => r[0]!)
        .filter((b) => !p.liveBlobs!.has(b));
      for (const b of batches(deadBlobs)) db.run(`DELETE FROM nr_blob_hash WHERE blob IN (${b.map(() => "?").join(",")})`, b);
    }
  }
}

/** Create `.notarai/.cache/` with a `.gitignore` of `*`, so its files never show up as untracked, even before `init`. */
export function ensureCacheDir(root: string): string {
  const dir = join(root, ".notarai/.cache");
  try {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, ".gitignore"))) writeFileSync(join(dir, ".gitignore"), "*\n");
  } catch (e) {
    throw new CacheWriteError(`cannot create ${dir} (${describeError(e)})`, { cause: e });
  }
  return dir;
}

/**
 * Apply `w` to the cache: lock, re-read the DB file (a bad one is replaced, with
 * a warning), apply, export, write a temp file, fsync, rename, unlock.
 * Returns a warning when the previous DB had to be discarded.
 */
export async function writeCache(root: string, w: CacheWrite): Promise<{ warning: string | null }> {
  const SQL = await loadSqlJs();
  const file = join(root, CACHE_DB_PATH);
  ensureCacheDir(root);
  return withFileLock(join(root, CACHE_LOCK_PATH), () => {
    let warning: string | null = null;
    let db: Database | null = null;
    let legacy = false;
    let bytes: Uint8Array | null = null;
    try {
      if (w.reset !== true) bytes = readFileSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") warning = `cache ${CACHE_DB_PATH} was unreadable (${describeError(e)}); starting a new one`;
    }
    if (bytes !== null && bytes.length > 0) {
      try {
        const opened = openBytes(SQL, bytes);
        db = opened.db;
        if (opened.tables.has("nr_meta")) {
          const v = Number(meta(db, "schema_version"));
          if (Number.isInteger(v) && v > CACHE_SCHEMA_VERSION) {
            db.close();
            throw new CacheWriteError(`cache ${CACHE_DB_PATH} has schema version ${v}, newer than this tool's ${CACHE_SCHEMA_VERSION}; upgrade noma-reconcile or run \`noma-reconcile cache clear\``);
          }
        } else {
          legacy = opened.tables.has("file_cache");
        }
      } catch (e) {
        if (e instanceof CacheWriteError) throw e;
        warning = `cache ${CACHE_DB_PATH} was not a readable database (${describeError(e)}); starting a new one`;
        db = null;
      }
    }
    db ??= new SQL.Database();
    try {
      db.run("BEGIN");
      db.run(SCHEMA);
      db.run("INSERT OR REPLACE INTO nr_meta(key, value) VALUES ('schema_version', ?)", [String(CACHE_SCHEMA_VERSION)]);
      const now = Math.floor(Date.now() / 1000);
      if (meta(db, "seeded") !== "1") {
        if (legacy) {
          // NotarAI's rows are global per path: they hold for every spec.
          db.run(`INSERT OR IGNORE INTO nr_reconciled(spec, path, blake3_hash, blob, updated_at) SELECT '${ANY_SPEC}', path, lower(blake3_hash), NULL, updated_at FROM file_cache`);
        }
        if (w.seed != null && w.declineSeed !== true) {
          run(db, "INSERT OR IGNORE INTO nr_reconciled(spec, path, blake3_hash, blob, updated_at) VALUES (?, ?, ?, NULL, ?)", [...w.seed].map(([p, h]) => [ANY_SPEC, p, h, now]), 2);
        }
        db.run("INSERT OR REPLACE INTO nr_meta(key, value) VALUES ('seeded', '1')");
      }
      if (w.reconciled !== undefined && w.reconciled.length > 0) {
        run(db, "INSERT OR REPLACE INTO nr_reconciled(spec, path, blake3_hash, blob, updated_at) VALUES (?, ?, ?, ?, ?)", w.reconciled.map((r) => [r.spec, r.path, r.hash, r.blob, now]), 2);
      }
      if (w.fileCache !== undefined && w.fileCache.length > 0) {
        run(db, "INSERT OR REPLACE INTO file_cache(path, blake3_hash, updated_at) VALUES (?, ?, ?)", w.fileCache.map((r) => [r.path, r.hash, now]));
      }
      if (w.blobHashes !== undefined && w.blobHashes.size > 0) {
        run(db, "INSERT OR REPLACE INTO nr_blob_hash(blob, blake3_hash) VALUES (?, ?)", [...w.blobHashes]);
      }
      if (w.statHashes !== undefined && w.statHashes.size > 0) {
        run(
          db,
          "INSERT OR REPLACE INTO nr_stat_hash(path, size, mtime_ns, ctime_ns, ino, blake3_hash) VALUES (?, ?, ?, ?, ?, ?)",
          [...w.statHashes].map(([p, s]) => [p, s.size, s.mtimeNs, s.ctimeNs, s.ino, s.hash]),
        );
      }
      if (w.prune !== undefined) prune(db, root, w.prune);
      db.run("COMMIT");
      const out = db.export();
      try {
        dropLastRead();
        writeFileAtomic(file, out);
      } catch (e) {
        throw new CacheWriteError(`cannot write ${CACHE_DB_PATH} (${describeError(e)})`, { cause: e });
      }
    } finally {
      db.close();
    }
    return { warning };
  });
}

/**
 * Forget everything (`clear_cache`): replace the DB, under the lock, with an
 * empty one that declines snapshot seeding, so the next diff shows every
 * governed file. True if a DB existed.
 */
export async function clearCacheDb(root: string): Promise<boolean> {
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
  const base: CacheStats = { path: CACHE_DB_PATH, status: "absent", warning: null, bytes: 0, schema_version: null, seeded: false, rows: { file_cache: 0, reconciled: 0, blob_hashes: 0, stat_hashes: 0 }, specs: {} };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return base;
    return { ...base, status: "unreadable", warning: `cannot read ${CACHE_DB_PATH} (${describeError(e)})` };
  }
  base.bytes = bytes.length;
  const SQL = await loadSqlJs();
  let opened: { db: Database; tables: Set<string> };
  try {
    opened = openBytes(SQL, bytes);
  } catch (e) {
    return { ...base, status: "unreadable", warning: `${CACHE_DB_PATH} is not a readable database (${describeError(e)})` };
  }
  const { db, tables } = opened;
  try {
    const count = (t: string): number => (tables.has(t) ? Number(db.exec(`SELECT count(*) FROM ${t}`)[0]?.values[0]?.[0] ?? 0) : 0);
    base.rows = { file_cache: count("file_cache"), reconciled: count("nr_reconciled"), blob_hashes: count("nr_blob_hash"), stat_hashes: count("nr_stat_hash") };
    if (!tables.has("nr_meta")) {
      base.status = tables.has("file_cache") ? "legacy" : "unreadable";
      return base;
    }
    const v = Number(meta(db, "schema_version"));
    base.schema_version = Number.isInteger(v) ? v : null;
    base.status = Number.isInteger(v) && v <= CACHE_SCHEMA_VERSION ? "ok" : "newer";
    base.seeded = meta(db, "seeded") === "1";
    for (const [spec, n] of selectRows(db, ["spec", "n"], "(SELECT spec, count(*) AS n FROM nr_reconciled GROUP BY spec ORDER BY spec)")) base.specs[spec!] = Number(n);
    return base;
  } catch (e) {
    return { ...base, status: "unreadable", warning: `${CACHE_DB_PATH} could not be read (${describeError(e)})` };
  } finally {
    db.close();
  }
}
