/**
 * The cache's tables (schema version 3) and how their chunks are packed.
 *
 *   file_cache(path, blake3_hash, updated_at)   NotarAI's table, kept as NotarAI
 *                                                defines it: one row per path
 *   nr_meta(key, value)                          schema_version, seeded
 *   nr_reconciled_chunk(spec, first_path, n, sums, lines, hashes, updated)
 *                                                reconciliation per (spec, path);
 *                                                spec "*" = every spec
 *   nr_blob_hash_chunk(first_blob, n, sums, blobs, hashes)
 *                                                git blob id → BLAKE3 of its bytes
 *   nr_stat_hash_chunk(first_path, n, sums, paths, stats, hashes)
 *                                                stat signature → BLAKE3, for files
 *                                                git does not vouch for
 *
 * `sums`: checksums of the chunk's key range and of each column (see
 * chunk-table.ts). Chunk columns (n rows, sorted by key): `paths` NUL-separated UTF-8; `hashes`
 * n raw 32-byte BLAKE3 digests; `blobs` n raw object ids of one width (20
 * bytes, or 32 in SHA-256 repositories); `updated` n uint32 LE unix seconds;
 * `stats` n × (size u64, mtime_ns i64, ctime_ns i64, ino u64) LE. Raw bytes
 * instead of hex text halve the file.
 *
 * A reconciliation chunk keeps its paths and blob ids as `lines`: each record
 * as the line `git ls-files -z -t -s` prints for the file at the recorded blob,
 * `H <mode> <blob> 0\t<path>\0` (mode 000000 and a zero id when no blob was
 * recorded). While nothing changed, a chunk's lines are byte for byte a run of
 * git's own listing, so the warm path checks thousands of files with one
 * comparison (`get-changed-artifacts.ts`).
 */
import { isAscii } from "node:buffer";
import { listingBlob, parseIndexListing, readIndexLine, type WorktreeListing } from "../git/worktree-listing.js";
import type { ChunkCodec } from "./chunk-table.js";
import { asBuffer, packPaths, unpackPaths } from "./packed-paths.js";
import { isLowerHex, packHex } from "./hex-columns.js";
import { sortedIndexOf } from "../sorted-index-of.js";

export const CACHE_SCHEMA_VERSION = 3;

/** The spec key of rows that hold for every spec (NotarAI's global rows, snapshot seeds). */
export const ANY_SPEC = "*";

/** A BLAKE3 digest as stored: 64 lowercase hex digits. */
export const HASH_HEX = /^[0-9a-f]{64}$/;
/** A git object id: SHA-1 or SHA-256, lowercase hex. */
export const BLOB_HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The chunk tables (schema 3 added `sums`, see chunk-table.ts); dropped and rebuilt when a schema-2 file is migrated. */
export const CHUNK_TABLES = ["nr_reconciled_chunk", "nr_blob_hash_chunk", "nr_stat_hash_chunk"] as const;

export const SCHEMA_DDL = [
  ``,
  `CREATE TABLE IF NOT EXISTS file_cache(path TEXT PRIMARY KEY, blake3_hash TEXT NOT NULL, updated_at INTEGER NOT NULL);`,
  `CREATE TABLE IF NOT EXISTS nr_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`,
  `CREATE TABLE IF NOT EXISTS nr_reconciled_chunk(spec TEXT NOT NULL, first_path TEXT NOT NULL, n INTEGER NOT NULL, sums BLOB NOT NULL, lines BLOB ` +
    `NOT NULL, hashes BLOB NOT NULL, updated BLOB NOT NULL, PRIMARY KEY(spec, first_path));`,
  `CREATE TABLE IF NOT EXISTS nr_blob_hash_chunk(first_blob TEXT NOT NULL PRIMARY KEY, n INTEGER NOT NULL, sums BLOB NOT NULL, blobs BLOB NOT NULL, ` +
    `hashes BLOB NOT NULL);`,
  `CREATE TABLE IF NOT EXISTS nr_stat_hash_chunk(first_path TEXT NOT NULL PRIMARY KEY, n INTEGER NOT NULL, sums BLOB NOT NULL, paths BLOB NOT NULL, ` +
    `stats BLOB NOT NULL, hashes BLOB NOT NULL);`,
  ``,
].join("\n");

export interface ReconciledRow {
  hash: string;
  blob: string | null;
  updatedAt: number;
  /** The index mode the blob was recorded with ("100644" or "100755"), when known. */
  mode?: string | null;
}

export interface StatRow {
  size: number;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
  hash: string;
}

const HASH_BYTES = 32;

/** Lowercase hex of each `width`-byte slice of `bytes`. */
export function unpackHex(bytes: Uint8Array, n: number, width: number, what: string): string[] {
  if (bytes.length !== n * width) throw new Error(`${what} column holds ${bytes.length} bytes, expected ${n * width}`);
  const hex = asBuffer(bytes).toString("hex");
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = hex.slice(i * width * 2, (i + 1) * width * 2);
  return out;
}

/** The object-id width of a chunk: 32 bytes if any id is SHA-256, else 20. */
export function blobWidth(blobs: ReadonlyArray<string | null>): number {
  for (const b of blobs) if (b !== null && b.length === 64) return 32;
  return 20;
}

/** Width of the ids in a `blobs` column of n rows. */
export function storedBlobWidth(bytes: Uint8Array, n: number): number {
  if (n === 0) return 20;
  const w = bytes.length / n;
  if (w !== 20 && w !== 32) throw new Error(`blobs column holds ${bytes.length} bytes for ${n} rows`);
  return w;
}

const REGULAR_MODES = new Set(["100644", "100755"]);

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** A `lines` column parsed (once per buffer: keys and rows are often decoded from the same chunk). */
const parsedLines = new WeakMap<Uint8Array, WorktreeListing>();

function linesOf(bytes: Uint8Array, n: number): WorktreeListing {
  let l = parsedLines.get(bytes);
  if (l === undefined) {
    l = parseIndexListing(asBuffer(bytes));
    parsedLines.set(bytes, l);
  }
  if (l.paths.length !== n) throw new Error(`reconciled chunk holds ${l.paths.length} lines, expected ${n}`);
  return l;
}

/** Each record as git's index line for it (see above); `width`: object id bytes. */
export function recordLines(keys: readonly string[], rows: readonly ReconciledRow[], width: number): Buffer {
  const zero = "0".repeat(width * 2);
  let out = "";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k.length === 0 || k.includes("\0")) throw new Error(`cannot pack path ${JSON.stringify(k)}`);
    const r = rows[i]!;
    // A blob id is only ever a hint (the hash decides), so one that does not fit is dropped, not stored wrong.
    const blob = r.blob !== null && isLowerHex(r.blob, width * 2) ? r.blob : null;
    const mode = blob === null ? "000000" : r.mode !== undefined && r.mode !== null && REGULAR_MODES.has(r.mode) ? r.mode : "100644";
    out += `H ${mode} ${blob ?? zero} 0\t${k}\0`;
  }
  return Buffer.from(out, "utf8");
}

export const RECONCILED_CHUNKS: ChunkCodec<ReconciledRow> = {
  table: "nr_reconciled_chunk",
  scope: "spec",
  first: "first_path",
  columns: ["lines", "hashes", "updated"],
  encode(keys, rows) {
    const updated = Buffer.alloc(rows.length * 4);
    rows.forEach((r, i) => updated.writeUInt32LE(Math.min(Math.max(Math.floor(r.updatedAt), 0), 0xffffffff), i * 4));
    return [
      recordLines(keys, rows, blobWidth(rows.map((r) => r.blob))),
      packHex(
        rows.map((r) => r.hash),
        HASH_BYTES,
        "hash",
      ),
      updated,
    ];
  },
  decode(values, n, only) {
    const [lineBytes, hashBytes, updatedBytes] = values;
    if (lineBytes === undefined || hashBytes === undefined || updatedBytes === undefined) throw new Error("reconciled chunk lacks columns");
    const lines = linesOf(lineBytes, n);
    if (hashBytes.length !== n * HASH_BYTES) throw new Error(`hashes column holds ${hashBytes.length} bytes, expected ${n * HASH_BYTES}`);
    if (updatedBytes.length !== n * 4) throw new Error("updated column has the wrong length");
    const hashes = asBuffer(hashBytes);
    const updated = asBuffer(updatedBytes);
    return (only ?? range(n)).map((i) => {
      const mode = lines.modes[i]!;
      return {
        hash: hashes.toString("hex", i * HASH_BYTES, (i + 1) * HASH_BYTES),
        blob: mode === 0 ? null : listingBlob(lines, i),
        updatedAt: updated.readUInt32LE(i * 4),
        mode: mode === 0 ? null : mode.toString(8),
      };
    });
  },
  decodeKeys(first, n) {
    return linesOf(first, n).paths;
  },
  find(values, n, keys) {
    const [lineBytes, hashBytes, updatedBytes] = values;
    if (lineBytes === undefined || hashBytes === undefined || updatedBytes === undefined) throw new Error("reconciled chunk lacks columns");
    if (hashBytes.length !== n * HASH_BYTES || updatedBytes.length !== n * 4) throw new Error("reconciled chunk columns have the wrong length");
    const lines = asBuffer(lineBytes);
    const hashes = asBuffer(hashBytes);
    const updated = asBuffer(updatedBytes);
    // Line starts, once; every line is `H <mode> <id> 0\t<path>\0`, its tab at one offset from its start.
    const starts = [0];
    for (let p = lines.indexOf(0); p >= 0 && p + 1 < lines.length; p = lines.indexOf(0, p + 1)) starts.push(p + 1);
    if (starts.length !== n) throw new Error(`reconciled chunk holds ${starts.length} lines, expected ${n}`);
    const tabAt = lines.indexOf(9);
    const oidLength = tabAt - 11;
    const utf8 = !isAscii(lines);
    const out: Array<[string, ReconciledRow]> = [];
    for (const key of keys) {
      const needle = Buffer.from(`\t${key}\0`, "utf8");
      for (let at = lines.indexOf(needle); at >= 0; at = lines.indexOf(needle, at + 1)) {
        const start = at - tabAt;
        const row = sortedIndexOf(starts, start);
        if (row < 0) continue;
        const line = readIndexLine(lines, start, oidLength, utf8);
        const mode = line.mode;
        out.push([
          key,
          {
            hash: hashes.toString("hex", row * HASH_BYTES, (row + 1) * HASH_BYTES),
            blob: mode === 0 ? null : lines.toString("latin1", line.oidAt, line.oidAt + oidLength),
            updatedAt: updated.readUInt32LE(row * 4),
            mode: mode === 0 ? null : mode.toString(8),
          },
        ]);
        break;
      }
    }
    return out;
  },
};

export const BLOB_HASH_CHUNKS: ChunkCodec<string> = {
  table: "nr_blob_hash_chunk",
  scope: null,
  first: "first_blob",
  columns: ["blobs", "hashes"],
  // SHA-1 and SHA-256 object ids pack to 20 and 32 bytes; a chunk holds one width (its bytes / rows).
  classOf: (key) => key.length,
  encode(keys, rows) {
    return [packHex(keys, keys[0]?.length === 64 ? 32 : 20, "blob id"), packHex(rows, HASH_BYTES, "hash")];
  },
  decode(values, n, only) {
    const hashes = values[1];
    if (hashes === undefined) throw new Error("blob-hash chunk lacks columns");
    if (hashes.length !== n * HASH_BYTES) throw new Error(`hashes column holds ${hashes.length} bytes, expected ${n * HASH_BYTES}`);
    const b = asBuffer(hashes);
    return (only ?? range(n)).map((i) => b.toString("hex", i * HASH_BYTES, (i + 1) * HASH_BYTES));
  },
  decodeKeys(first, n) {
    return unpackHex(first, n, storedBlobWidth(first, n), "blobs");
  },
};

const STAT_BYTES = 32;

export const STAT_HASH_CHUNKS: ChunkCodec<StatRow> = {
  table: "nr_stat_hash_chunk",
  scope: null,
  first: "first_path",
  columns: ["paths", "stats", "hashes"],
  encode(keys, rows) {
    const stats = Buffer.alloc(rows.length * STAT_BYTES);
    rows.forEach((r, i) => {
      const o = i * STAT_BYTES;
      stats.writeBigUInt64LE(BigInt(r.size), o);
      stats.writeBigInt64LE(BigInt(r.mtimeNs), o + 8);
      stats.writeBigInt64LE(BigInt(r.ctimeNs), o + 16);
      stats.writeBigUInt64LE(BigInt(r.ino), o + 24);
    });
    return [
      packPaths(keys),
      stats,
      packHex(
        rows.map((r) => r.hash),
        HASH_BYTES,
        "hash",
      ),
    ];
  },
  decode(values, n, only) {
    const [, statBytes, hashBytes] = values;
    if (statBytes === undefined || hashBytes === undefined) throw new Error("stat-hash chunk lacks columns");
    if (statBytes.length !== n * STAT_BYTES) throw new Error("stats column has the wrong length");
    if (hashBytes.length !== n * HASH_BYTES) throw new Error("hashes column has the wrong length");
    const stats = asBuffer(statBytes);
    const hashes = asBuffer(hashBytes);
    return (only ?? range(n)).map((i) => {
      const o = i * STAT_BYTES;
      return {
        size: Number(stats.readBigUInt64LE(o)),
        mtimeNs: String(stats.readBigInt64LE(o + 8)),
        ctimeNs: String(stats.readBigInt64LE(o + 16)),
        ino: String(stats.readBigUInt64LE(o + 24)),
        hash: hashes.toString("hex", i * HASH_BYTES, (i + 1) * HASH_BYTES),
      };
    });
  },
  decodeKeys: unpackPaths,
};
