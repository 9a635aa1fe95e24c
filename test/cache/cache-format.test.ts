/**
 * The cache's storage format (schema 2): UTF-8 order (git's, SQLite's), packed
 * chunks that round-trip every row, chunk updates equal to a plain map under
 * any sequence of writes, the warm path's record tables, and databases of the
 * previous schema (read as they are, migrated by the next write, never lost).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs from "sql.js";
import { BLOB_HASH_CHUNKS, RECONCILED_CHUNKS, SCHEMA_DDL, STAT_HASH_CHUNKS, type ReconciledRow, type StatRow } from "../../src/cache/cache-tables.js";
import { CACHE_DB_PATH } from "../../src/cache/cache-db-path.js";
import { cacheStats } from "../../src/cache/cache-stats.js";
import { readCache, readRecords } from "../../src/cache/read-cache.js";
import { writeCache } from "../../src/cache/write-cache.js";
import { CHUNK_ROWS, decodeChunks, readChunks, updateChunks } from "../../src/cache/chunk-table.js";
import { RecordTable } from "../../src/cache/record-table.js";
import { compareUtf8, sortUtf8 } from "../../src/git/compare-utf8.js";
import { blake3Hex, getChangedArtifacts, getSpecDiff, markReconciled } from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";
import { branch, commitAll, write } from "../reconcile/helpers/repo-ops.js";

const SPEC = ".notarai/app.spec.yaml";

// Characters that sort differently by UTF-16 unit and by UTF-8 byte: BMP above the surrogates, and astral ones.
const unit = fc.constantFrom("a", "b", "/", ".", " ", "é", "日", "\uE000", "\uFFFD", "\uFF5E", "😀", "𝒜", "\u{10FFFF}", "\t", "\n");
const pathArb = fc.array(unit, { minLength: 1, maxLength: 10 }).map((u) => u.join(""));
const hexArb = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString("hex"));

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

describe("UTF-8 order", () => {
  it("compareUtf8 orders like the strings' UTF-8 bytes, and sortUtf8 sorts that way", () => {
    fc.assert(
      fc.property(pathArb, pathArb, (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(byBytes(a, b)));
      }),
    );
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 30 }), (list) => {
        expect(sortUtf8([...list])).toEqual([...list].sort(byBytes));
      }),
    );
    // The case `<` gets wrong: U+E000 is below U+1F600 by code point, above its surrogates by unit.
    expect("\uE000" < "😀").toBe(false);
    expect(compareUtf8("\uE000", "😀")).toBeLessThan(0);
  });
});

describe("packed chunks", () => {
  const reconciledRow = (width: 20 | 32) =>
    fc.record({
      hash: hexArb(32),
      blob: fc.option(hexArb(width), { nil: null }),
      updatedAt: fc.integer({ min: 0, max: 0xffffffff }),
      mode: fc.constantFrom("100644", "100755", null),
    });

  it("round-trip reconciliation rows (SHA-1 and SHA-256 ids, no id, any path) through git's line format", () => {
    for (const width of [20, 32] as const) {
      fc.assert(
        fc.property(fc.uniqueArray(fc.tuple(pathArb, reconciledRow(width)), { selector: ([p]) => p, minLength: 1, maxLength: 40 }), (entries) => {
          const sorted = [...entries].sort(([a], [b]) => byBytes(a, b));
          const keys = sorted.map(([k]) => k);
          const rows = sorted.map(([, r]) => r);
          const cols = RECONCILED_CHUNKS.encode(keys, rows);
          expect(RECONCILED_CHUNKS.decodeKeys(cols[0]!, keys.length)).toEqual(keys);
          // A recorded blob keeps its mode (100644 when none was given); no blob, no mode.
          expect(RECONCILED_CHUNKS.decode(cols, keys.length)).toEqual(rows.map((r) => ({ ...r, mode: r.blob === null ? null : (r.mode ?? "100644") })));
          // Each record is the line git's listing has for the file at that blob.
          const stored = rows.some((r) => r.blob !== null) ? width : 20;
          const first = rows[0]!;
          expect(Buffer.from(cols[0]!).toString("utf8").split("\0")[0]).toBe(
            `H ${first.blob === null ? "000000" : (first.mode ?? "100644")} ${first.blob ?? "0".repeat(stored * 2)} 0\t${keys[0]}`,
          );
          expect([cols[1]!.length, cols[2]!.length]).toEqual([keys.length * 32, keys.length * 4]);
        }),
      );
    }
  });

  it("round-trip blob-memo and stat-memo rows (64-bit sizes, inodes, times before 1970)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(hexArb(20), hexArb(32)), { selector: ([b]) => b, minLength: 1, maxLength: 30 }), (entries) => {
        const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : 1));
        const cols = BLOB_HASH_CHUNKS.encode(
          sorted.map(([b]) => b),
          sorted.map(([, h]) => h),
        );
        expect(BLOB_HASH_CHUNKS.decodeKeys(cols[0]!, sorted.length)).toEqual(sorted.map(([b]) => b));
        expect(BLOB_HASH_CHUNKS.decode(cols, sorted.length)).toEqual(sorted.map(([, h]) => h));
      }),
    );
    const stat = fc.record({
      size: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      mtimeNs: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
      ctimeNs: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
      ino: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
      hash: hexArb(32),
    });
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(pathArb, stat), { selector: ([p]) => p, minLength: 1, maxLength: 30 }), (entries) => {
        const sorted = [...entries].sort(([a], [b]) => byBytes(a, b));
        const cols = STAT_HASH_CHUNKS.encode(
          sorted.map(([p]) => p),
          sorted.map(([, s]) => s),
        );
        expect(STAT_HASH_CHUNKS.decode(cols, sorted.length)).toEqual(sorted.map(([, s]) => s));
      }),
    );
  });

  it("reject a chunk whose columns do not hold its row count", () => {
    const cols = RECONCILED_CHUNKS.encode(
      ["a", "b"],
      [
        { hash: "1".repeat(64), blob: null, updatedAt: 1 },
        { hash: "2".repeat(64), blob: null, updatedAt: 2 },
      ],
    );
    expect(() => RECONCILED_CHUNKS.decode(cols, 3)).toThrow();
    expect(() => RECONCILED_CHUNKS.decodeKeys(cols[0]!, 3)).toThrow();
    expect(() => RECONCILED_CHUNKS.decode([cols[0]!, cols[1]!.subarray(1), cols[2]!], 2)).toThrow();
    expect(() => RECONCILED_CHUNKS.decode([cols[0]!.subarray(3), cols[1]!, cols[2]!], 2)).toThrow();
  });
});

describe("chunk updates", () => {
  type Op = { kind: "upsert"; rows: Array<[string, string]>; onlyMissing: boolean } | { kind: "delete"; keys: string[] };
  const key = fc.array(fc.constantFrom("a", "b", "c", "é", "😀", "\uE000", "/"), { minLength: 1, maxLength: 4 }).map((u) => u.join(""));
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant("upsert" as const), rows: fc.array(fc.tuple(key, hexArb(32)), { maxLength: 25 }), onlyMissing: fc.boolean() }),
    fc.record({ kind: fc.constant("delete" as const), keys: fc.array(key, { maxLength: 10 }) }),
  );

  it("equal a plain map under any sequence of writes, chunks staying sorted, disjoint and small", async () => {
    const SQL = await initSqlJs();
    const stat = (hash: string): StatRow => ({ size: 0, mtimeNs: "0", ctimeNs: "0", ino: "0", hash });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const db = new SQL.Database();
        db.run(SCHEMA_DDL);
        const model = new Map<string, string>();
        for (const o of ops) {
          if (o.kind === "upsert") {
            const rows = new Map(o.rows.map(([k, h]) => [k, stat(h)]));
            updateChunks(db, STAT_HASH_CHUNKS, null, { upserts: rows, onlyMissing: o.onlyMissing, chunkRows: 4 });
            for (const [k, v] of rows) if (!o.onlyMissing || !model.has(k)) model.set(k, v.hash);
          } else {
            updateChunks(db, STAT_HASH_CHUNKS, null, { deletes: o.keys, chunkRows: 4 });
            for (const k of o.keys) model.delete(k);
          }
        }
        const chunks = readChunks(db, STAT_HASH_CHUNKS, null, 3);
        const stored = decodeChunks(STAT_HASH_CHUNKS, chunks);
        expect([...stored.keys()]).toEqual(sortUtf8([...model.keys()]));
        expect(new Map([...stored].map(([k, v]) => [k, v.hash]))).toEqual(model);
        for (const c of chunks) expect(c.n).toBeLessThanOrEqual(4);
        const firsts = chunks.map((c) => c.first);
        expect(firsts).toEqual(sortUtf8([...firsts]));
        db.close();
      }),
      { numRuns: 60 },
    );
  });

  it("split a chunk that grows past CHUNK_ROWS and rewrite only the chunks a write touches", async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(SCHEMA_DDL);
    const rows = new Map<string, ReconciledRow>();
    for (let i = 0; i < CHUNK_ROWS * 2 + 10; i++)
      rows.set(`src/f${String(i).padStart(6, "0")}.ts`, { hash: i.toString(16).padStart(64, "0"), blob: null, updatedAt: i });
    updateChunks(db, RECONCILED_CHUNKS, SPEC, { upserts: rows });
    const before = readChunks(db, RECONCILED_CHUNKS, SPEC, 4);
    expect(before.length).toBe(3);
    expect(before.every((c) => c.n <= CHUNK_ROWS)).toBe(true);
    updateChunks(db, RECONCILED_CHUNKS, SPEC, {
      upserts: new Map<string, ReconciledRow>([["src/f000001.ts", { hash: "f".repeat(64), blob: "a".repeat(40), updatedAt: 7 }]]),
    });
    const after = readChunks(db, RECONCILED_CHUNKS, SPEC, 4);
    // The first chunk changed; the others are byte for byte what they were.
    expect(after.slice(1).map((c) => [c.first, Buffer.concat(c.values).toString("hex")])).toEqual(
      before.slice(1).map((c) => [c.first, Buffer.concat(c.values).toString("hex")]),
    );
    expect(decodeChunks(RECONCILED_CHUNKS, after).get("src/f000001.ts")).toEqual({ hash: "f".repeat(64), blob: "a".repeat(40), updatedAt: 7, mode: "100644" });
    expect(decodeChunks(RECONCILED_CHUNKS, after).size).toBe(rows.size);
    db.close();
  });
});

describe("record tables (the warm path's read)", () => {
  it("agree with the rows they were written from: order, lookups, blob ids, hashes", async () => {
    const root = tempRepo({ "seed.txt": "s" });
    const rows = new Map<string, ReconciledRow>();
    const paths = ["src/z.ts", "src/é.ts", "src/😀.ts", "src/\uE000.ts", "a.ts", "src/a.ts"];
    paths.forEach((p, i) => rows.set(p, { hash: String(i).repeat(64), blob: i % 2 === 0 ? String(i + 1).repeat(40) : null, updatedAt: 1000 + i }));
    for (let i = 0; i < 5000; i++)
      rows.set(`bulk/${String(i).padStart(5, "0")}`, { hash: (i % 16).toString(16).repeat(64), blob: "c".repeat(40), updatedAt: i });
    await writeCache(root, { reconciled: [...rows].map(([path, r]) => ({ spec: SPEC, path, hash: r.hash, blob: r.blob })) });
    const read = await readRecords(root, [SPEC]);
    try {
      const table = read.tables.get(SPEC)!;
      const memory = RecordTable.fromRows(rows);
      expect(table.paths()).toEqual(sortUtf8([...rows.keys()]));
      expect(memory.paths()).toEqual(table.paths());
      expect(table.chunkCount).toBeGreaterThan(1);
      expect(table.ascii).toBe(false);
      for (const p of [...paths, "bulk/00000", "bulk/04999", "bulk/02500"]) {
        const i = table.indexOf(p);
        const r = rows.get(p)!;
        expect(i).toBe(memory.indexOf(p));
        expect(table.blobAt(i)).toBe(r.blob);
        expect(table.hashAt(i)).toBe(r.hash);
        expect(table.row(i)?.hash).toBe(r.hash);
        expect(table.pathAt(i)).toBe(p);
      }
      expect(table.indexOf("missing")).toBe(-1);
      // A few paths out of big chunks: found in place, the same rows as a full decode.
      const few = [...paths, "bulk/00007", "bulk/04321", "missing"];
      const some = (await readCache(root, { specs: [SPEC], paths: few })).reconciled.get(SPEC)!;
      const all = (await readCache(root, { specs: [SPEC] })).reconciled.get(SPEC)!;
      expect([...some.keys()].sort()).toEqual(few.filter((p) => p !== "missing").sort());
      for (const p of some.keys())
        expect(some.get(p)).toMatchObject({ hash: rows.get(p)!.hash, blob: rows.get(p)!.blob, mode: rows.get(p)!.blob === null ? null : "100644" });
      for (const p of some.keys()) expect(all.get(p)).toEqual(some.get(p));
      const memo = read.memo([], []);
      expect(memo.blobHashes.size + memo.statHashes.size).toBe(0);
    } finally {
      read.close();
    }
  });
});

/** The schema-1 layout, as the previous release wrote it. */
const V1_DDL = `
CREATE TABLE file_cache(path TEXT PRIMARY KEY, blake3_hash TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE nr_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE nr_reconciled(spec TEXT NOT NULL, path TEXT NOT NULL, blake3_hash TEXT NOT NULL, blob TEXT, updated_at INTEGER NOT NULL, PRIMARY KEY(spec, path)) WITHOUT ROWID;
CREATE TABLE nr_blob_hash(blob TEXT PRIMARY KEY, blake3_hash TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE nr_stat_hash(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns TEXT NOT NULL, ctime_ns TEXT NOT NULL, ino TEXT NOT NULL, blake3_hash TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO nr_meta VALUES ('schema_version', '1'), ('seeded', '1');
`;

describe("a schema-1 database", () => {
  async function v1Repo() {
    const root = tempRepo({ [SPEC]: specYaml(), ".notarai/other.spec.yaml": specYaml(), "src/a.ts": "a\n", "src/b.ts": "b\n", "src/c.ts": "c\n" });
    const blob = (p: string) => git(root, ["rev-parse", `HEAD:${p}`]).trim();
    const hash = async (s: string) => blake3Hex(Buffer.from(s));
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(V1_DDL);
    db.run("INSERT INTO nr_reconciled VALUES (?, 'src/a.ts', ?, ?, 1), (?, 'src/b.ts', ?, NULL, 1), (?, 'src/c.ts', ?, ?, 1)", [
      SPEC,
      await hash("a\n"),
      blob("src/a.ts"),
      SPEC,
      await hash("b\n"),
      ".notarai/other.spec.yaml",
      await hash("c\n"),
      blob("src/c.ts"),
    ]);
    db.run("INSERT INTO nr_blob_hash VALUES (?, ?)", [blob("src/c.ts"), await hash("c\n")]);
    db.run("INSERT INTO file_cache VALUES ('src/a.ts', ?, 1)", [await hash("a\n")]);
    mkdirSync(join(root, ".notarai/.cache"), { recursive: true });
    writeFileSync(join(root, CACHE_DB_PATH), db.export());
    return { root, blob, hash };
  }

  it("is read as it is (no crash, no cold start)", async () => {
    const { root } = await v1Repo();
    const cache = await readCache(root);
    expect(cache.status).toBe("ok");
    expect(cache.outdated).toBe(true);
    expect([...cache.reconciled.get(SPEC)!.keys()]).toEqual(["src/a.ts", "src/b.ts"]);
    const r = runCli(["changed", "--spec", SPEC], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("src/c.ts\n");
    expect((await cacheStats(root)).schema_version).toBe(3); // that run migrated it
  });

  it("is migrated by the next write: every row kept, the old tables dropped, NotarAI's table untouched", async () => {
    const { root, blob, hash } = await v1Repo();
    await markReconciled(root, { files: ["src/c.ts"], specPath: SPEC });
    const SQL = await initSqlJs();
    const db = new SQL.Database(readFileSync(join(root, CACHE_DB_PATH)));
    const tables = (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values ?? []).map((r) => r[0]);
    expect(tables).toEqual(["file_cache", "nr_blob_hash_chunk", "nr_meta", "nr_reconciled_chunk", "nr_stat_hash_chunk"]);
    expect(db.exec("SELECT value FROM nr_meta WHERE key = 'schema_version'")[0]?.values).toEqual([["3"]]);
    expect(db.exec("SELECT path FROM file_cache ORDER BY path")[0]?.values).toEqual([["src/a.ts"], ["src/c.ts"]]);
    const cache = await readCache(root, { blobs: "all" });
    expect(cache.outdated).toBe(false);
    expect(cache.reconciled.get(SPEC)?.get("src/a.ts")).toMatchObject({ hash: await hash("a\n"), blob: blob("src/a.ts") });
    expect(cache.reconciled.get(SPEC)?.get("src/b.ts")).toMatchObject({ hash: await hash("b\n"), blob: null });
    expect(cache.reconciled.get(".notarai/other.spec.yaml")?.get("src/c.ts")).toMatchObject({ hash: await hash("c\n"), blob: blob("src/c.ts") });
    expect(cache.blobHashes.get(blob("src/c.ts"))).toBe(await hash("c\n"));
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);
    expect((await getChangedArtifacts(root, { specPath: ".notarai/other.spec.yaml" })).changed_artifacts).toEqual(["src/a.ts", "src/b.ts"]);
  });

  it("a newer schema than ours is still refused (cold read, no write)", async () => {
    const root = tempRepo({ [SPEC]: specYaml(), "src/a.ts": "a\n" });
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(V1_DDL.replace("'schema_version', '1'", "'schema_version', '4'"));
    mkdirSync(join(root, ".notarai/.cache"), { recursive: true });
    writeFileSync(join(root, CACHE_DB_PATH), db.export());
    expect((await readCache(root)).status).toBe("newer");
    await expect(writeCache(root, { statHashes: new Map(), reconciled: [{ spec: SPEC, path: "src/a.ts", hash: "0".repeat(64), blob: null }] })).rejects.toThrow(
      /schema version 4/,
    );
  });
});

/** The schema-2 layout (chunks without checksums), as the previous release wrote it. */
const V2_DDL = `
CREATE TABLE file_cache(path TEXT PRIMARY KEY, blake3_hash TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE nr_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE nr_reconciled_chunk(spec TEXT NOT NULL, first_path TEXT NOT NULL, n INTEGER NOT NULL, lines BLOB NOT NULL, hashes BLOB NOT NULL, updated BLOB NOT NULL, PRIMARY KEY(spec, first_path));
CREATE TABLE nr_blob_hash_chunk(first_blob TEXT NOT NULL PRIMARY KEY, n INTEGER NOT NULL, blobs BLOB NOT NULL, hashes BLOB NOT NULL);
CREATE TABLE nr_stat_hash_chunk(first_path TEXT NOT NULL PRIMARY KEY, n INTEGER NOT NULL, paths BLOB NOT NULL, stats BLOB NOT NULL, hashes BLOB NOT NULL);
INSERT INTO nr_meta VALUES ('schema_version', '2'), ('seeded', '1');
`;

describe("a schema-2 database (chunks without checksums)", () => {
  it("is read as it is, then migrated by the next write: every row kept, every chunk checksummed", async () => {
    const root = tempRepo({ [SPEC]: specYaml(), "src/a.ts": "a\n", "src/b.ts": "b\n", "src/c.ts": "c\n" });
    const blob = (p: string) => git(root, ["rev-parse", `HEAD:${p}`]).trim();
    const hash = async (s: string) => blake3Hex(Buffer.from(s));
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run(V2_DDL);
    const keys = ["src/a.ts", "src/b.ts"];
    const recs: ReconciledRow[] = [
      { hash: await hash("a\n"), blob: blob("src/a.ts"), updatedAt: 5, mode: "100644" },
      { hash: await hash("b\n"), blob: null, updatedAt: 6 },
    ];
    db.run("INSERT INTO nr_reconciled_chunk VALUES (?, ?, ?, ?, ?, ?)", [SPEC, keys[0]!, 2, ...RECONCILED_CHUNKS.encode(keys, recs)]);
    db.run("INSERT INTO nr_blob_hash_chunk VALUES (?, ?, ?, ?)", [blob("src/c.ts"), 1, ...BLOB_HASH_CHUNKS.encode([blob("src/c.ts")], [await hash("c\n")])]);
    mkdirSync(join(root, ".notarai/.cache"), { recursive: true });
    writeFileSync(join(root, CACHE_DB_PATH), db.export());
    db.close();
    const read = await readCache(root, { blobs: "all" });
    expect(read).toMatchObject({ status: "ok", outdated: true, warning: null });
    expect(read.reconciled.get(SPEC)?.get("src/a.ts")).toMatchObject({ hash: await hash("a\n"), blob: blob("src/a.ts") });
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(["src/c.ts"]);
    // That run wrote (an outdated DB is migrated even when nothing was learnt): schema 3, rows kept.
    expect((await cacheStats(root)).schema_version).toBe(3);
    await markReconciled(root, { files: ["src/c.ts"], specPath: SPEC });
    const stats = await cacheStats(root);
    expect(stats).toMatchObject({ status: "ok", schema_version: 3, warning: null });
    const after = await readCache(root, { blobs: "all" });
    expect(after.outdated).toBe(false);
    expect(after.reconciled.get(SPEC)?.get("src/b.ts")).toMatchObject({ hash: await hash("b\n"), blob: null, updatedAt: 6 });
    expect(after.blobHashes.get(blob("src/c.ts"))).toBe(await hash("c\n"));
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);
  });
});

describe("the smaller database", () => {
  it("stores digests and memo ids as raw bytes, records as git's own lines", async () => {
    const tree: Record<string, string> = { [SPEC]: specYaml() };
    for (let i = 0; i < 600; i++) tree[`src/dir${i % 10}/file-${i}.ts`] = `export const v = ${i};\n`;
    const root = tempRepo(tree);
    const files = Object.keys(tree).filter((p) => p.startsWith("src/"));
    await markReconciled(root, { files });
    const stats = await cacheStats(root);
    expect(stats.rows).toEqual({ file_cache: 600, reconciled: 600, blob_hashes: 600, stat_hashes: 0 });
    const SQL = await initSqlJs();
    const db = new SQL.Database(readFileSync(join(root, CACHE_DB_PATH)));
    const one = (sql: string) => Number(db.exec(sql)[0]!.values[0]![0]);
    expect(one("SELECT sum(length(hashes)) FROM nr_reconciled_chunk")).toBe(600 * 32);
    expect(one("SELECT sum(length(blobs) + length(hashes)) FROM nr_blob_hash_chunk")).toBe(600 * 52);
    // The lines are exactly what git lists for these files.
    const lines = Buffer.concat(db.exec("SELECT lines FROM nr_reconciled_chunk ORDER BY first_path")[0]!.values.map((r) => Buffer.from(r[0] as Uint8Array)));
    expect(lines.toString("utf8")).toBe(git(root, ["ls-files", "-z", "-t", "-s", "-c", "--", "src"]));
  });
});

describe("the warm path over awkward paths", () => {
  it("finds reconciled files whatever their characters, and lists edits, deletions and new files", async () => {
    const names = ["src/a.ts", "src/é.ts", "src/日本.ts", "src/\uE000x.ts", "src/😀.ts", "src/𝒜/deep.ts", "src/z.ts", "src/with space.ts"];
    const tree: Record<string, string> = { [SPEC]: specYaml() };
    names.forEach((n, i) => (tree[n] = `content ${i}\n`));
    const root = tempRepo(tree);
    git(root, ["config", "core.quotePath", "false"]);
    await markReconciled(root, { files: names });
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);
    write(root, "src/😀.ts", "edited\n");
    git(root, ["rm", "-q", "src/\uE000x.ts"]);
    write(root, "src/new 😀.ts", "new\n");
    const r = await getChangedArtifacts(root, { specPath: SPEC });
    expect(r.changed_artifacts).toEqual(["src/new 😀.ts", "src/😀.ts"]);
    // The deleted file's record is pruned (the next read finds it gone).
    expect([...(await readCache(root)).reconciled.get(SPEC)!.keys()]).not.toContain("src/\uE000x.ts");
    // A file whose work tree differs with the same size and index entry is still re-hashed.
    write(root, "src/a.ts", "CONTENT 0\n");
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toContain("src/a.ts");
  });

  it("a commit that changes a reconciled file makes it changed until marked again, then the blob memo answers", async () => {
    const root = tempRepo({ [SPEC]: specYaml(), "src/a.ts": "a\n", "src/b.ts": "b\n" });
    await markReconciled(root, { files: ["src/a.ts", "src/b.ts"] });
    branch(root, "next");
    write(root, "src/a.ts", "a2\n");
    commitAll(root, "a2");
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(["src/a.ts"]);
    expect((await getSpecDiff(root, { specPath: SPEC, baseBranch: "main" })).files).toEqual(["src/a.ts"]);
    await markReconciled(root, { files: ["src/a.ts"] });
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);
    // Going back to main: a.ts has its old content again, whose record is gone (it was replaced), so it is changed again.
    git(root, ["checkout", "-q", "main"]);
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(["src/a.ts"]);
  });
});
