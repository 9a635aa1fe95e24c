/**
 * One spec's reconciliation records as the warm path needs them: chunks in key
 * order, each kept as its `lines` (git's index line per record, see
 * `cache-tables.ts`) and decoded only when a caller looks inside it; hashes and
 * times are read per chunk on first use. A chunk that matches a run of git's
 * listing byte for byte is never decoded at all.
 */
import { isAscii } from "node:buffer";
import { compareUtf8 } from "../git/compare-utf8.js";
import { listingBlob, parseIndexListing, type WorktreeListing } from "../git/worktree-listing.js";
import { blobWidth, recordLines, type ReconciledRow } from "./cache-tables.js";
import { asBuffer } from "./packed-paths.js";
import { CacheCorruptError } from "./chunk-table.js";

export interface RecordValues {
  /** n raw 32-byte digests. */
  hashes: Uint8Array;
  /** n uint32 LE unix seconds. */
  updated: Uint8Array;
}

export interface RecordChunk {
  /** The chunk's first path. */
  first: string;
  n: number;
  /** Its `lines` column. */
  lines: Buffer;
}

export class RecordTable {
  readonly size: number;
  private readonly chunks: readonly RecordChunk[];
  /** Global row of each chunk's first row. */
  private readonly starts: readonly number[];
  private readonly decoded: Array<WorktreeListing | undefined>;
  private readonly values: Array<{ hashes: Buffer; updated: Buffer } | null | undefined>;
  private readonly load: (first: string) => RecordValues;
  private all: string[] | null = null;

  private constructor(chunks: RecordChunk[], load: (first: string) => RecordValues) {
    this.chunks = chunks.filter((c) => c.n > 0);
    const starts: number[] = [];
    let rows = 0;
    for (const c of this.chunks) {
      starts.push(rows);
      rows += c.n;
    }
    this.starts = starts;
    this.size = rows;
    this.decoded = new Array(this.chunks.length);
    this.values = new Array(this.chunks.length);
    this.load = load;
  }

  /** From stored chunks (in key order); `load` reads a chunk's hashes and times by its first path. */
  static fromChunks(chunks: readonly RecordChunk[], load: (first: string) => RecordValues): RecordTable {
    return new RecordTable([...chunks], load);
  }

  /** From rows in memory (older schemas, tests): one chunk. */
  static fromRows(rows: ReadonlyMap<string, ReconciledRow>): RecordTable {
    const keys = [...rows.keys()].sort(compareUtf8);
    const list = keys.map((k) => rows.get(k)!);
    const hashes = Buffer.alloc(keys.length * 32);
    const updated = Buffer.alloc(keys.length * 4);
    list.forEach((r, i) => {
      hashes.write(r.hash, i * 32, 32, "hex");
      updated.writeUInt32LE(Math.min(Math.max(Math.floor(r.updatedAt), 0), 0xffffffff), i * 4);
    });
    const lines = recordLines(keys, list, blobWidth(list.map((r) => r.blob)));
    return new RecordTable([{ first: keys[0] ?? "", n: keys.length, lines }], () => ({ hashes, updated }));
  }

  get chunkCount(): number {
    return this.chunks.length;
  }

  chunk(c: number): RecordChunk {
    return this.chunks[c]!;
  }

  /** Global row of chunk `c`'s first row. */
  start(c: number): number {
    return this.starts[c]!;
  }

  /** Whether every path of the table is ASCII (then `<` is git's order). */
  get ascii(): boolean {
    return this.chunks.every((c) => isAscii(c.lines));
  }

  /** Chunk `c` decoded: its paths, blob ids and modes (as git's listing). */
  rows(c: number): WorktreeListing {
    let d = this.decoded[c];
    if (d === undefined) {
      try {
        d = parseIndexListing(this.chunks[c]!.lines);
      } catch (e) {
        throw new CacheCorruptError(`reconciled chunk ${JSON.stringify(this.chunks[c]!.first)} cannot be read (${(e as Error).message})`);
      }
      if (d.paths.length !== this.chunks[c]!.n)
        throw new CacheCorruptError(`reconciled chunk ${JSON.stringify(this.chunks[c]!.first)} holds ${d.paths.length} lines, expected ${this.chunks[c]!.n}`);
      this.decoded[c] = d;
    }
    return d;
  }

  /** Chunk `c`'s last path. */
  lastPath(c: number): string {
    const d = this.rows(c);
    return d.paths[d.paths.length - 1]!;
  }

  /** [chunk, row within it] of global row `i`. */
  private locate(i: number): [number, number] {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return [lo, i - this.starts[lo]!];
  }

  /** Every path, in order (decodes every chunk). */
  paths(): readonly string[] {
    if (this.all === null) {
      const out: string[] = [];
      for (let c = 0; c < this.chunks.length; c++) for (const p of this.rows(c).paths) out.push(p);
      this.all = out;
    }
    return this.all;
  }

  pathAt(i: number): string {
    const [c, r] = this.locate(i);
    return this.rows(c).paths[r]!;
  }

  /**
   * Global row of `path`, or -1: binary search over the chunks' first paths,
   * then, in a chunk not decoded yet, a byte search for its line (no decoding
   * of the thousands of others), else a binary search inside the chunk.
   */
  indexOf(path: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareUtf8(this.chunks[mid]!.first, path) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const c = lo - 1;
    if (c < 0) return -1;
    if (this.decoded[c] === undefined) return this.searchLines(c, path);
    const rows = this.rows(c).paths;
    let a = 0;
    let b = rows.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const cmp = compareUtf8(rows[mid]!, path);
      if (cmp === 0) return this.starts[c]! + mid;
      if (cmp < 0) a = mid + 1;
      else b = mid;
    }
    return -1;
  }

  /** `indexOf` inside chunk `c` by its bytes: the line ending in "\t<path>\0" that starts where a line starts. */
  private searchLines(c: number, path: string): number {
    const { lines } = this.chunks[c]!;
    const needle = Buffer.from(`\t${path}\0`, "utf8");
    // Every line is `H <mode> <id> 0\t<path>\0` with an id of one width: its tab sits at a fixed offset from the line's start.
    const tabAt = lines.indexOf(9);
    if (tabAt < 0) return -1;
    for (let at = lines.indexOf(needle); at >= 0; at = lines.indexOf(needle, at + 1)) {
      const start = at - tabAt;
      if (start !== 0 && (start < 0 || lines[start - 1] !== 0)) continue;
      let row = 0;
      for (let p = lines.indexOf(0); p >= 0 && p < start; p = lines.indexOf(0, p + 1)) row++;
      return this.starts[c]! + row;
    }
    return -1;
  }

  /** Blob id recorded with row `i`, or null. */
  blobAt(i: number): string | null {
    const [c, r] = this.locate(i);
    const d = this.rows(c);
    return d.modes[r] === 0 ? null : listingBlob(d, r);
  }

  /** The chunk values holding row `i`, read on first use; null when they cannot be read (the record then proves nothing). */
  private valuesOf(i: number): { buf: { hashes: Buffer; updated: Buffer }; at: number } | null {
    const [c, at] = this.locate(i);
    let buf = this.values[c];
    if (buf === undefined) {
      try {
        const v = this.load(this.chunks[c]!.first);
        const n = this.chunks[c]!.n;
        buf = v.hashes.length === n * 32 && v.updated.length === n * 4 ? { hashes: asBuffer(v.hashes), updated: asBuffer(v.updated) } : null;
      } catch {
        buf = null;
      }
      this.values[c] = buf;
    }
    return buf === null ? null : { buf, at };
  }

  /** BLAKE3 recorded with row `i` (null if its chunk is unreadable). */
  hashAt(i: number): string | null {
    const v = this.valuesOf(i);
    return v === null ? null : v.buf.hashes.toString("hex", v.at * 32, v.at * 32 + 32);
  }

  /** The full record of row `i` (null if its chunk is unreadable). */
  row(i: number): ReconciledRow | null {
    const v = this.valuesOf(i);
    if (v === null) return null;
    const [c, r] = this.locate(i);
    const mode = this.rows(c).modes[r]!;
    return {
      hash: v.buf.hashes.toString("hex", v.at * 32, v.at * 32 + 32),
      blob: this.blobAt(i),
      updatedAt: v.buf.updated.readUInt32LE(v.at * 4),
      mode: mode === 0 ? null : mode.toString(8),
    };
  }
}
