/**
 * Read-only access to the rows of an SQLite database file, in plain
 * JavaScript over the file's bytes (https://www.sqlite.org/fileformat2.html):
 * the header, the schema table, and the b-trees of tables (rowid tables and
 * WITHOUT ROWID ones) with their overflow chains.
 *
 * The hash cache (cache/) and the run DB (runs/norma-db.ts) read with it
 * instead of sql.js when the file has exactly their current schema: no
 * WebAssembly to compile, no copy of the file into SQLite's memory, and BLOB
 * columns come out as slices of the file (sql.js copies them byte by byte in
 * JavaScript). Anything it does not expect (another text
 * encoding, a page type it does not know, a pointer out of range, a cycle)
 * throws SqliteFormatError, and the caller reads through sql.js instead.
 * Writes always go through SQLite.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import { readSync } from "node:fs";

export class SqliteFormatError extends NomaError {
  static override readonly errorName: string = "SqliteFormatError";
  static override readonly kind: ErrorKind = "internal";
  constructor(message: string) {
    super("sqlite-format", `unexpected SQLite file: ${message}`);
  }
}

/** A column value: NULL, an integer or real, TEXT (UTF-8) or a BLOB (a view of the file, or a copy when it spanned pages). */
export type SqliteValue = null | number | bigint | string | Buffer;

export interface SchemaEntry {
  type: string;
  name: string;
  rootPage: number;
  sql: string;
}

const MAGIC = "SQLite format 3\0";
const LEAF_TABLE = 13;
const INTERIOR_TABLE = 5;
const LEAF_INDEX = 10;
const INTERIOR_INDEX = 2;
const MAX_DEPTH = 64;

/** A row whose columns are decoded on demand (a large BLOB is gathered from its overflow pages only when asked for). */
export class SqliteRow {
  private payload: Buffer | null = null;
  private readonly types: number[] = [];
  private readonly offsets: number[] = [];

  constructor(
    private readonly file: SqliteFile,
    /** The cell's local payload bytes. */
    private readonly local: Buffer,
    /** The whole payload's size. */
    size: number,
    /** First overflow page, or 0. */
    private readonly overflow: number,
  ) {
    // The record header (serial types) must be local: SQLite keeps at least the first M bytes local.
    const [headerSize, n0] = readVarint(local, 0);
    if (headerSize > local.length || headerSize < n0) throw new SqliteFormatError("record header does not fit its cell");
    let at = n0;
    let offset = headerSize;
    while (at < headerSize) {
      const [t, n] = readVarint(local, at);
      at += n;
      this.types.push(t);
      this.offsets.push(offset);
      offset += serialSize(t);
    }
    if (at !== headerSize || offset !== size) throw new SqliteFormatError("record header does not match its payload");
  }

  get length(): number {
    return this.types.length;
  }

  /** The payload's first `end` bytes (at least), gathered from the overflow chain no further than needed. */
  private bytes(end: number): Buffer {
    if (end <= this.local.length) return this.local;
    if (this.payload === null || this.payload.length < end) this.payload = this.file.gather(this.local, end, this.overflow);
    return this.payload;
  }

  /** Gather the payload through column `i` at once (before reading several large columns up to it). */
  upTo(i: number): this {
    const last = Math.min(i, this.types.length - 1);
    if (last >= 0) this.bytes(this.offsets[last]! + serialSize(this.types[last]!));
    return this;
  }

  /** Column `i` (a missing trailing column reads as NULL, as in SQLite). */
  get(i: number): SqliteValue {
    const t = this.types[i];
    if (t === undefined) return null;
    const start = this.offsets[i]!;
    const len = serialSize(t);
    const b = this.bytes(start + len);
    switch (t) {
      case 0:
        return null;
      case 8:
        return 0;
      case 9:
        return 1;
      case 7:
        return b.readDoubleBE(start);
      case 1:
      case 2:
      case 3:
      case 4:
      case 5:
        return b.readIntBE(start, len);
      case 6: {
        const big = b.readBigInt64BE(start);
        return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      }
      default:
        if (t < 12) throw new SqliteFormatError(`reserved serial type ${t}`);
        if (t % 2 === 0) return b.subarray(start, start + len);
        return b.toString("utf8", start, start + len);
    }
  }
}

function serialSize(t: number): number {
  if (t < 12) return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0][t]!;
  return Math.floor((t - 12) / 2);
}

/** A big-endian SQLite varint at `at`: [value, bytes used]. */
function readVarint(b: Buffer, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    if (at + i >= b.length) throw new SqliteFormatError("truncated varint");
    const byte = b[at + i]!;
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [v, i + 1];
  }
  if (at + 8 >= b.length) throw new SqliteFormatError("truncated varint");
  return [v * 256 + b[at + 8]!, 9];
}

/** Where the file's bytes come from: a buffer, or a file read page by page on demand. */
export interface PageSource {
  readonly size: number;
  /** `length` bytes at `offset` (a view, valid while the source lives). */
  read(offset: number, length: number): Buffer;
}

export function bufferSource(bytes: Buffer): PageSource {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

/**
 * A file read on demand, in blocks of 256 KiB kept for the source's life:
 * the warm path touches the schema, a few b-tree pages and the overflow chains
 * of one spec's chunks, a small part of a large cache, and never reads the rest
 * (docs/perf/reconcile.md).
 */
export function fileSource(fd: number, size: number): PageSource {
  const BLOCK = 256 * 1024;
  const blocks = new Map<number, Buffer>();
  const block = (i: number): Buffer => {
    let b = blocks.get(i);
    if (b === undefined) {
      const start = i * BLOCK;
      const want = Math.min(BLOCK, size - start);
      b = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const n = readSync(fd, b, got, want - got, start + got);
        if (n === 0) throw new SqliteFormatError("file shorter than it was");
        got += n;
      }
      blocks.set(i, b);
    }
    return b;
  };
  return {
    size,
    read(offset, length) {
      if (offset < 0 || offset + length > size) throw new SqliteFormatError("read past the end of the file");
      const first = Math.floor(offset / BLOCK);
      const last = Math.floor((offset + length - 1) / BLOCK);
      if (first === last) return block(first).subarray(offset - first * BLOCK, offset - first * BLOCK + length);
      const out = Buffer.allocUnsafe(length);
      for (let i = first, at = 0; i <= last; i++) {
        const b = block(i);
        const from = i === first ? offset - first * BLOCK : 0;
        const to = Math.min(b.length, offset + length - i * BLOCK);
        at += b.copy(out, at, from, to);
      }
      return out;
    },
  };
}

export class SqliteFile {
  readonly pageSize: number;
  /** Page size less the reserved bytes at the end of each page. */
  readonly usable: number;
  readonly pageCount: number;
  readonly schema: Map<string, SchemaEntry>;

  private constructor(private readonly source: PageSource) {
    if (source.size < 100) throw new SqliteFormatError("not an SQLite 3 file");
    const bytes = source.read(0, 100);
    if (bytes.toString("latin1", 0, 16) !== MAGIC) throw new SqliteFormatError("not an SQLite 3 file");
    const raw = bytes.readUInt16BE(16);
    this.pageSize = raw === 1 ? 65536 : raw;
    if (this.pageSize < 512 || (this.pageSize & (this.pageSize - 1)) !== 0) throw new SqliteFormatError(`page size ${raw}`);
    if (bytes[18]! > 2 || bytes[19]! > 2) throw new SqliteFormatError("file format version");
    if (bytes.readUInt32BE(56) !== 1) throw new SqliteFormatError("text encoding is not UTF-8");
    this.usable = this.pageSize - bytes[20]!;
    if (this.usable < 480) throw new SqliteFormatError("reserved space");
    if (source.size % this.pageSize !== 0) throw new SqliteFormatError("file size is not a whole number of pages");
    this.pageCount = source.size / this.pageSize;
    this.schema = new Map();
    for (const row of this.rowsOf(1, false)) {
      const [type, name, , rootPage, sql] = [row.get(0), row.get(1), row.get(2), row.get(3), row.get(4)];
      if (typeof type !== "string" || typeof name !== "string") throw new SqliteFormatError("schema row");
      this.schema.set(name, { type, name, rootPage: typeof rootPage === "number" ? rootPage : 0, sql: typeof sql === "string" ? sql : "" });
    }
  }

  /** Parse the header and the schema; throws SqliteFormatError for anything unexpected. */
  static open(from: Uint8Array | PageSource): SqliteFile {
    if (from instanceof Uint8Array)
      return new SqliteFile(bufferSource(Buffer.isBuffer(from) ? from : Buffer.from(from.buffer, from.byteOffset, from.byteLength)));
    return new SqliteFile(from);
  }

  private page(n: number): Buffer {
    if (!Number.isInteger(n) || n < 1 || n > this.pageCount) throw new SqliteFormatError(`page ${n} out of range`);
    return this.source.read((n - 1) * this.pageSize, this.pageSize);
  }

  /** The first `size` bytes of a cell's payload: its local bytes, then the overflow chain's, copied into one buffer. */
  gather(local: Buffer, size: number, first: number): Buffer {
    const out = Buffer.allocUnsafe(size);
    let have = local.copy(out, 0, 0, Math.min(local.length, size));
    let next = first;
    let hops = 0;
    const step = this.usable - 4;
    while (have < size) {
      if (next < 1 || next > this.pageCount || ++hops > this.pageCount) throw new SqliteFormatError("overflow chain ends early, loops or leaves the file");
      const p = this.page(next);
      next = p.readUInt32BE(0);
      have += p.copy(out, have, 4, 4 + Math.min(step, size - have));
    }
    return out;
  }

  private cellPayload(p: Buffer, at: number, index: boolean): SqliteRow {
    const [size, n] = readVarint(p, at);
    at += n;
    if (!index) at += readVarint(p, at)[1]; // rowid
    const u = this.usable;
    const x = index ? Math.floor(((u - 12) * 64) / 255) - 23 : u - 35;
    let local = size;
    if (size > x) {
      const m = Math.floor(((u - 12) * 32) / 255) - 23;
      const k = m + ((size - m) % (u - 4));
      local = k <= x ? k : m;
    }
    if (at + local + (local < size ? 4 : 0) > u) throw new SqliteFormatError("cell runs past its page");
    const overflow = local < size ? p.readUInt32BE(at + local) : 0;
    return new SqliteRow(this, p.subarray(at, at + local), size, overflow);
  }

  private rowsOf(root: number, index: boolean): SqliteRow[] {
    const out: SqliteRow[] = [];
    const seen = new Set<number>();
    const visit = (n: number, depth: number): void => {
      if (depth > MAX_DEPTH || seen.has(n)) throw new SqliteFormatError("b-tree loops");
      seen.add(n);
      const p = this.page(n);
      const h = n === 1 ? 100 : 0;
      const type = p[h]!;
      const cells = p.readUInt16BE(h + 3);
      const leaf = type === LEAF_TABLE || type === LEAF_INDEX;
      if (type !== (index ? LEAF_INDEX : LEAF_TABLE) && type !== (index ? INTERIOR_INDEX : INTERIOR_TABLE))
        throw new SqliteFormatError(`page ${n} has type ${type}`);
      const pointers = h + (leaf ? 8 : 12);
      if (pointers + 2 * cells > this.usable) throw new SqliteFormatError(`page ${n} has too many cells`);
      for (let i = 0; i < cells; i++) {
        const at = p.readUInt16BE(pointers + 2 * i);
        if (at < pointers + 2 * cells || at >= this.usable) throw new SqliteFormatError(`cell pointer out of page ${n}`);
        if (leaf) out.push(this.cellPayload(p, at, index));
        else {
          visit(p.readUInt32BE(at), depth + 1);
          if (index) out.push(this.cellPayload(p, at + 4, true));
        }
      }
      if (!leaf) visit(p.readUInt32BE(h + 8), depth + 1);
    };
    visit(root, 0);
    return out;
  }

  /** Every row of a table (rowid or WITHOUT ROWID, told apart by its root page), in key order. */
  rows(table: string): SqliteRow[] {
    const e = this.schema.get(table);
    if (e === undefined || e.type !== "table") throw new SqliteFormatError(`no table ${table}`);
    const root = this.page(e.rootPage);
    const type = root[e.rootPage === 1 ? 100 : 0];
    return this.rowsOf(e.rootPage, type === LEAF_INDEX || type === INTERIOR_INDEX);
  }
}
