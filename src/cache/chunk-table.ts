/**
 * Rows kept as packed chunks in SQLite: a table of many small rows (one per
 * path or blob id) is stored as chunks of up to CHUNK_ROWS rows sorted by key,
 * one SQLite row per chunk with the chunk's first key and a BLOB per column.
 * Reading 100,000 rows is then a few dozen statement steps and one native
 * decode per column, not 100,000 steps through sql.js; a write decodes and
 * re-encodes only the chunks whose key range it touches.
 *
 * Keys sort by UTF-8 bytes (SQLite's BINARY collation, git's index order), so
 * a chunk's key range is [its first key, the next chunk's first key).
 *
 * Every chunk carries `sums` (schema 3): 8 bytes of SHA-256 over its table,
 * scope, first key and row count, then 8 bytes per data column over that and
 * the column's bytes. A read checks what it reads (the key range always, each
 * column it takes), so one flipped bit anywhere in a chunk is a
 * CacheCorruptError — the cache then reads as cold — never a wrong row. The
 * sums column comes before the data columns, so reading the first k columns
 * stays a prefix read of the record.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import { createHash } from "node:crypto";
import type { Database, SqlValue } from "sql.js";
import { compareUtf8, sortUtf8 } from "../git/compare-utf8.js";

/** A chunk whose bytes do not match its checksums (or cannot be decoded): the cache is damaged. */
export class CacheCorruptError extends NomaError {
  static override readonly errorName: string = "CacheCorruptError";
  static override readonly kind: ErrorKind = "internal";
  constructor(message: string) {
    super("cache-corrupt", message);
  }
}

const SUM_BYTES = 8;

function metaSum(table: string, scope: string, first: string, n: number): Buffer {
  return createHash("sha256").update(`nr-chunk\0${table}\0${scope}\0${first}\0${n}`).digest().subarray(0, SUM_BYTES);
}

function columnSum(meta: Uint8Array, i: number, value: Uint8Array): Buffer {
  return createHash("sha256").update(meta).update(Uint8Array.of(i)).update(value).digest().subarray(0, SUM_BYTES);
}

/** The `sums` value of a chunk: its key range's digest, then one per column. */
export function chunkSums(codec: ChunkCodec<unknown>, scope: string, first: string, n: number, values: readonly Uint8Array[]): Buffer {
  const meta = metaSum(codec.table, scope, first, n);
  return Buffer.concat([meta, ...values.map((v, i) => columnSum(meta, i, v))]);
}

/** Check a chunk read with its first `values.length` columns against its `sums`; throws CacheCorruptError. */
export function verifyChunk(codec: ChunkCodec<unknown>, chunk: StoredChunk, sums: unknown): void {
  const where = `${codec.table} chunk ${JSON.stringify(chunk.first)}${codec.scope !== null ? ` of ${JSON.stringify(chunk.scope)}` : ""}`;
  if (!(sums instanceof Uint8Array) || sums.length !== SUM_BYTES * (1 + codec.columns.length)) throw new CacheCorruptError(`${where} has no valid checksums`);
  const meta = metaSum(codec.table, chunk.scope, chunk.first, chunk.n);
  if (!meta.equals(sums.subarray(0, SUM_BYTES))) throw new CacheCorruptError(`${where} fails its checksum (key range)`);
  chunk.values.forEach((v, i) => {
    if (!columnSum(meta, i, v).equals(sums.subarray(SUM_BYTES * (i + 1), SUM_BYTES * (i + 2))))
      throw new CacheCorruptError(`${where} fails its checksum (${codec.columns[i]})`);
  });
}

/** Rows per chunk written; a chunk that grows past it is split. */
export const CHUNK_ROWS = 4096;

export interface ChunkCodec<Row> {
  /** SQLite table. */
  table: string;
  /** Column that partitions rows (chunks never mix its values), or null. */
  scope: string | null;
  /** Column holding the chunk's first key. */
  first: string;
  /** BLOB columns of a chunk, in storage order; the first one alone yields the keys. */
  columns: readonly string[];
  /** Encode rows (sorted by key) into one value per column. */
  encode(keys: readonly string[], rows: readonly Row[]): Uint8Array[];
  /** Decode a chunk's rows (those at `only`, or all); throws when its columns do not hold `n` rows. */
  decode(values: readonly Uint8Array[], n: number, only?: readonly number[]): Row[];
  /** The keys of a chunk from its first column alone. */
  decodeKeys(firstColumn: Uint8Array, n: number): string[];
  /** Optionally, the rows of a few keys without decoding the chunk's other keys. */
  find?(values: readonly Uint8Array[], n: number, keys: readonly string[]): Array<[string, Row]>;
  /**
   * Optionally, the class of a key whose rows cannot share a chunk with another class's (blob ids of
   * 40 and 64 hex digits pack to different widths): a chunk is cut wherever the class changes.
   */
  classOf?(key: string): number;
}

export interface StoredChunk {
  /** The scope value ("" when the table has none). */
  scope: string;
  first: string;
  n: number;
  /** Values of the columns asked for, in order. */
  values: Uint8Array[];
}

function scopeWhere(codec: ChunkCodec<unknown>, scope: string | null): { sql: string; params: SqlValue[] } {
  if (codec.scope === null || scope === null) return { sql: "1", params: [] };
  return { sql: `${codec.scope} = ?`, params: [scope] };
}

/**
 * Chunks of one scope (or every scope, `scope` null), ordered by scope then
 * first key, with the first `columns` data columns (0: none, only the
 * directory), each checked against its sums (`checked` false: a schema-2
 * table, which has none). `firsts` limits the read to chunks with those first keys.
 */
export function readChunks(
  db: Database,
  codec: ChunkCodec<unknown>,
  scope: string | null,
  columns: number,
  firsts?: readonly string[],
  checked = true,
): StoredChunk[] {
  const where = scopeWhere(codec, scope);
  columns = Math.min(columns, codec.columns.length);
  const cols = [...(checked ? ["sums"] : []), ...codec.columns.slice(0, columns)];
  const data = checked ? 4 : 3;
  const scopeCol = codec.scope ?? "''";
  const out: StoredChunk[] = [];
  const run = (extra: string, params: SqlValue[]): void => {
    const select = `SELECT ${scopeCol}, ${codec.first}, n${cols.map((c) => `, ${c}`).join("")} FROM ${codec.table}`;
    const st = db.prepare(`${select} WHERE ${where.sql}${extra} ORDER BY ${scopeCol}, ${codec.first}`);
    try {
      st.bind([...where.params, ...params]);
      while (st.step()) {
        const row = st.get();
        const values: Uint8Array[] = [];
        for (let i = 0; i < columns; i++) {
          const v = row[data + i];
          if (!(v instanceof Uint8Array)) throw new CacheCorruptError(`${codec.table}.${codec.columns[i]} is not a BLOB`);
          values.push(v);
        }
        const n = Number(row[2]);
        if (!Number.isInteger(n) || n < 0) throw new CacheCorruptError(`${codec.table} has a chunk with a bad row count`);
        const chunk = { scope: String(row[0]), first: String(row[1]), n, values };
        if (checked) verifyChunk(codec, chunk, row[3]);
        out.push(chunk);
      }
    } finally {
      st.free();
    }
  };
  if (firsts === undefined) run("", []);
  else
    for (let i = 0; i < firsts.length; i += 500) {
      const b = firsts.slice(i, i + 500);
      run(` AND ${codec.first} IN (${b.map(() => "?").join(",")})`, b);
    }
  return out;
}

/** Reads chunks, from sql.js or from the file itself (`file-chunks.ts`); the same answers either way. */
export interface ChunkReader {
  /** As `readChunks`. */
  readChunks(codec: ChunkCodec<unknown>, scope: string | null, columns: number, firsts?: readonly string[]): StoredChunk[];
}

/** A ChunkReader over an open sql.js database (`checked` false: schema 2, no sums). */
export function sqlJsChunks(db: Database, checked = true): ChunkReader {
  return { readChunks: (codec, scope, columns, firsts) => readChunks(db, codec, scope, columns, firsts, checked) };
}

/** Index of the chunk whose key range holds `key` in a sorted list of first keys: -1 when `key` sorts before them all. */
export function chunkOf(firsts: readonly string[], key: string): number {
  let lo = 0;
  let hi = firsts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareUtf8(firsts[mid]!, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** `keys` grouped by the first key of the chunk whose range may hold them (in chunk order). */
export function keysByChunk(firsts: readonly string[], keys: Iterable<string>): Map<string, string[]> {
  const hit = new Map<number, string[]>();
  for (const k of keys) {
    const i = chunkOf(firsts, k);
    if (i < 0) continue;
    let list = hit.get(i);
    if (list === undefined) hit.set(i, (list = []));
    list.push(k);
  }
  return new Map([...hit].sort(([a], [b]) => a - b).map(([i, list]) => [firsts[i]!, list]));
}

/** Decoded rows of chunks, keyed (only the keys in `wanted`, when given: the other rows are not decoded). */
export function decodeChunks<Row>(
  codec: ChunkCodec<Row>,
  chunks: readonly StoredChunk[],
  into: Map<string, Row> = new Map(),
  wanted?: ReadonlySet<string>,
): Map<string, Row> {
  try {
    return decodeInto(codec, chunks, into, wanted);
  } catch (e) {
    if (e instanceof CacheCorruptError) throw e;
    throw new CacheCorruptError(`${codec.table} cannot be decoded (${(e as Error).message})`);
  }
}

/** The keys of a chunk read with at least its first column; a chunk that cannot be decoded is a CacheCorruptError. */
export function decodeChunkKeys(codec: ChunkCodec<unknown>, chunk: StoredChunk): string[] {
  try {
    const first = chunk.values[0];
    if (first === undefined) throw new Error("its first column was not read");
    return codec.decodeKeys(first, chunk.n);
  } catch (e) {
    if (e instanceof CacheCorruptError) throw e;
    throw new CacheCorruptError(`${codec.table} chunk ${JSON.stringify(chunk.first)} cannot be decoded (${(e as Error).message})`);
  }
}

function decodeInto<Row>(codec: ChunkCodec<Row>, chunks: readonly StoredChunk[], into: Map<string, Row>, wanted?: ReadonlySet<string>): Map<string, Row> {
  for (const c of chunks) {
    const keys = codec.decodeKeys(c.values[0]!, c.n);
    if (wanted === undefined) {
      const rows = codec.decode(c.values, c.n);
      for (let i = 0; i < c.n; i++) into.set(keys[i]!, rows[i]!);
      continue;
    }
    const at: number[] = [];
    for (let i = 0; i < c.n; i++) if (wanted.has(keys[i]!)) at.push(i);
    const rows = codec.decode(c.values, c.n, at);
    at.forEach((i, j) => into.set(keys[i]!, rows[j]!));
  }
  return into;
}

function insertChunks<Row>(
  db: Database,
  codec: ChunkCodec<Row>,
  scope: string | null,
  keys: readonly string[],
  rows: ReadonlyMap<string, Row>,
  chunkRows: number,
): void {
  if (keys.length === 0) return;
  const cols = [...(codec.scope !== null ? [codec.scope] : []), codec.first, "n", "sums", ...codec.columns];
  const st = db.prepare(`INSERT INTO ${codec.table}(${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
  try {
    for (const run of classRuns(codec, keys)) {
      const pieces = Math.ceil(run.length / chunkRows);
      const size = Math.ceil(run.length / pieces);
      for (let start = 0; start < run.length; start += size) {
        const k = run.slice(start, start + size);
        const values = codec.encode(
          k,
          k.map((key) => rows.get(key)!),
        );
        const scopeValue = codec.scope !== null ? (scope ?? "") : "";
        st.run([...(codec.scope !== null ? [scopeValue] : []), k[0]!, k.length, chunkSums(codec, scopeValue, k[0]!, k.length, values), ...values]);
      }
    }
  } finally {
    st.free();
  }
}

/** Sorted keys cut into runs of one `classOf` (all of them, when the codec has no classes). */
function classRuns(codec: ChunkCodec<unknown>, keys: readonly string[]): Array<readonly string[]> {
  const classOf = codec.classOf;
  if (classOf === undefined) return [keys];
  const runs: Array<readonly string[]> = [];
  let start = 0;
  for (let i = 1; i <= keys.length; i++) {
    if (i === keys.length || classOf(keys[i]!) !== classOf(keys[start]!)) {
      runs.push(keys.slice(start, i));
      start = i;
    }
  }
  return runs;
}

function deleteChunk(db: Database, codec: ChunkCodec<unknown>, scope: string | null, first: string): void {
  const where = scopeWhere(codec, scope);
  db.run(`DELETE FROM ${codec.table} WHERE ${where.sql} AND ${codec.first} = ?`, [...where.params, first]);
}

export interface ChunkUpdate<Row> {
  /** Rows to write (replacing a row of the same key). */
  upserts?: ReadonlyMap<string, Row>;
  /** Keys to remove (applied before the upserts). */
  deletes?: Iterable<string>;
  /** Write an upsert only where its key has no row yet (INSERT OR IGNORE). */
  onlyMissing?: boolean;
  /** Rows per chunk written (default CHUNK_ROWS; tests use small ones). */
  chunkRows?: number;
}

/** Apply an update to one scope, rewriting only the chunks whose key ranges it touches. */
export function updateChunks<Row>(db: Database, codec: ChunkCodec<Row>, scope: string | null, update: ChunkUpdate<Row>): void {
  const upserts = update.upserts ?? new Map<string, Row>();
  const deletes = new Set(update.deletes ?? []);
  if (upserts.size === 0 && deletes.size === 0) return;
  const firsts = readChunks(db, codec, scope, 0).map((c) => c.first);
  const touched = new Map<number, string[]>();
  const assign = (key: string): void => {
    const i = firsts.length === 0 ? -1 : Math.max(0, chunkOf(firsts, key));
    let list = touched.get(i);
    if (list === undefined) touched.set(i, (list = []));
    list.push(key);
  };
  for (const k of deletes) if (firsts.length > 0) assign(k);
  for (const k of upserts.keys()) if (!deletes.has(k)) assign(k);
  for (const [i, keys] of touched) {
    let rows = new Map<string, Row>();
    if (i >= 0) {
      const first = firsts[i]!;
      const [chunk] = readChunks(db, codec, scope, codec.columns.length, [first]);
      if (chunk !== undefined) rows = decodeChunks(codec, [chunk]);
      deleteChunk(db, codec, scope, first);
    }
    for (const k of keys) {
      if (deletes.has(k)) rows.delete(k);
      const r = upserts.get(k);
      if (r !== undefined && (update.onlyMissing !== true || !rows.has(k))) rows.set(k, r);
    }
    insertChunks(db, codec, scope, sortUtf8([...rows.keys()]), rows, update.chunkRows ?? CHUNK_ROWS);
  }
}

/** Remove every chunk of a scope. */
export function deleteScope(db: Database, codec: ChunkCodec<unknown>, scope: string): void {
  if (codec.scope === null) throw new Error(`${codec.table} has no scope column`);
  db.run(`DELETE FROM ${codec.table} WHERE ${codec.scope} = ?`, [scope]);
}

/** Rows stored (of one scope, or all). */
export function countRows(db: Database, codec: ChunkCodec<unknown>, scope: string | null = null): number {
  const where = scopeWhere(codec, scope);
  const res = db.exec(`SELECT coalesce(sum(n), 0) FROM ${codec.table} WHERE ${where.sql}`, where.params);
  return Number(res[0]?.values[0]?.[0] ?? 0);
}
