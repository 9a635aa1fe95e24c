/**
 * The hash cache: lowercase hex BLAKE3 of file bytes (one-shot and streamed
 * agree); NotarAI's file_cache table kept beside our versioned tables; git as
 * the change oracle (clean tracked files need no read once their blob is
 * memoised); stat signatures for other files, never recorded while racy;
 * corrupt, unreadable, newer and NotarAI-written databases; dead rows pruned.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { join } from "node:path";
import initSqlJs from "sql.js";
import {
  blake3Hex,
  cacheStats,
  CACHE_DB_PATH,
  currentHashes,
  getChangedArtifacts,
  getSpecDiff,
  hashFile,
  loadBlake3,
  markReconciled,
  readCache,
  readWorktreeStatus,
  writeCache,
} from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";
import { branch, commitAll, remove, warnings, write } from "../reconcile/helpers/repo-ops.js";

const SPEC = ".notarai/app.spec.yaml";

async function openDb(root: string) {
  const SQL = await initSqlJs();
  return new SQL.Database(readFileSync(join(root, CACHE_DB_PATH)));
}

function rows(db: { exec(sql: string): Array<{ values: unknown[][] }> }, sql: string): unknown[][] {
  return db.exec(sql)[0]?.values ?? [];
}

describe("BLAKE3", () => {
  it("is lowercase hex of the bytes, matching the reference vectors", async () => {
    expect(await blake3Hex(new Uint8Array())).toBe("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
    expect(await blake3Hex(Buffer.from("abc"))).toBe("6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
  });

  it("streams large files to the same digest (and git's blob id)", async () => {
    const root = tempRepo();
    const big = Buffer.alloc(40 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) % 251;
    writeFileSync(join(root, "big.bin"), big);
    const b3 = await loadBlake3();
    const h = hashFile(join(root, "big.bin"), b3, { blobAlgorithm: "sha1", keepHead: true });
    expect(h?.blake3).toBe(b3.hashHex(big));
    expect(h?.blobId).toBe(git(root, ["hash-object", "big.bin"]).trim());
    expect(h?.head?.length).toBe(8000);
    expect(hashFile(join(root, "missing"), b3)).toBeNull();
    expect(hashFile(root, b3)).toBeNull();
  });
});

describe("hashing a file: open → fstat → read, digests in one call", () => {
  it("gives the public blake3-wasm digest and git's blob id at every size around the buffer's edge", async () => {
    const root = tempRepo();
    const b3 = await loadBlake3();
    const pub = createRequire(import.meta.url)("blake3-wasm") as { hash(b: Uint8Array): Buffer };
    const MiB = 1024 * 1024;
    for (const size of [0, 1, 23, 24, 1000, MiB - 1, MiB, MiB + 1]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 131 + size) % 256;
      writeFileSync(join(root, "f.bin"), bytes);
      const h = hashFile(join(root, "f.bin"), b3, { blobAlgorithm: "sha1", stat: true })!;
      expect(h.blake3, `size ${size}`).toBe(pub.hash(bytes).toString("hex"));
      expect(h.blobId, `size ${size}`).toBe(git(root, ["hash-object", "f.bin"]).trim());
      expect(hashFile(join(root, "f.bin"), b3, { blobAlgorithm: "sha256" })!.blobId).toBe(
        createHash("sha256").update(`blob ${size}\0`).update(bytes).digest("hex"),
      );
      expect(Number(h.stat!.size)).toBe(size);
    }
  });

  it("matches the public digest on random inputs (the module's exports are called directly)", async () => {
    const b3 = await loadBlake3();
    const pub = createRequire(import.meta.url)("blake3-wasm") as { hash(b: Uint8Array): Buffer };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => b3.hashHex(bytes) === pub.hash(bytes).toString("hex")));
    // Inputs that make the module's memory grow between calls (the hex is read from the new memory).
    for (const size of [1 << 20, 3 << 20, 7 << 20, 10]) {
      const bytes = Buffer.alloc(size, size % 251);
      expect(b3.hashHex(bytes), `size ${size}`).toBe(pub.hash(bytes).toString("hex"));
    }
  });

  it("leaves nothing allocated in the module per hash (its memory stays flat over 100k hashes)", async () => {
    const b3 = await loadBlake3();
    const binding = createRequire(import.meta.url)("blake3-wasm/dist/wasm/nodejs/blake3_js.js") as { __wasm: { memory: { buffer: ArrayBuffer } } };
    const bytes = Buffer.alloc(1000, 1);
    b3.hashHex(bytes);
    const before = binding.__wasm.memory.buffer.byteLength;
    for (let i = 0; i < 100_000; i++) {
      bytes[0] = i & 255;
      b3.hashHex(bytes);
    }
    // A leak of the input would grow it by ~100 MB.
    expect(binding.__wasm.memory.buffer.byteLength - before).toBeLessThan(1 << 20);
  });

  it.skipIf(process.platform === "win32")("never blocks on a FIFO or reads what is not a regular file", async () => {
    const root = tempRepo({ "seed.txt": "s" });
    execFileSync("mkfifo", [join(root, "pipe")]);
    mkdirSync(join(root, "dir"));
    symlinkSync("seed.txt", join(root, "link"));
    const b3 = await loadBlake3();
    expect(hashFile(join(root, "pipe"), b3, { stat: true })).toBeNull();
    // Unchecked (the path for files git vouches for as regular): it returns (no writer: empty) rather than hang.
    expect(hashFile(join(root, "pipe"), b3)?.size).toBe(0);
    const r = await currentHashes(root, ["pipe", "dir", "link", "gone"], new Map(), { blobHashes: new Map(), statHashes: new Map() });
    expect(Object.fromEntries(r.hashes)).toEqual({ pipe: null, dir: null, link: await blake3Hex(Buffer.from("s")), gone: null });
  });
});

describe("the database", () => {
  it("keeps NotarAI's file_cache table, a schema version, and per-(spec, path) rows", async () => {
    const root = tempRepo({ [SPEC]: specYaml({ artifacts: { code: ["src/**"] } }), "src/a.ts": "a\n" });
    await markReconciled(root, { files: ["src/a.ts"] });
    const db = await openDb(root);
    expect(rows(db, "PRAGMA table_info(file_cache)").map((r) => [r[1], r[2], r[3], r[5]])).toEqual([
      ["path", "TEXT", 0, 1],
      ["blake3_hash", "TEXT", 1, 0],
      ["updated_at", "INTEGER", 1, 0],
    ]);
    const hash = await blake3Hex(Buffer.from("a\n"));
    expect(rows(db, "SELECT path, blake3_hash FROM file_cache")).toEqual([["src/a.ts", hash]]);
    expect(rows(db, "SELECT value FROM nr_meta WHERE key = 'schema_version'")).toEqual([["3"]]);
    // Our records: one chunk per spec here, its rows packed (see the cache-format tests).
    expect(rows(db, "SELECT spec, first_path, n FROM nr_reconciled_chunk")).toEqual([[SPEC, "src/a.ts", 1]]);
    const blob = git(root, ["rev-parse", "HEAD:src/a.ts"]).trim();
    expect((await readCache(root)).reconciled.get(SPEC)?.get("src/a.ts")).toMatchObject({ hash, blob });
    const updated = Number(rows(db, "SELECT updated_at FROM file_cache")[0]![0]);
    expect(Math.abs(updated - Date.now() / 1000)).toBeLessThan(3600);
    // The cache directory ignores itself.
    expect(git(root, ["status", "--porcelain"])).toBe("");
  });

  it("reads in bulk and returns only what was asked", async () => {
    const root = tempRepo({ [SPEC]: specYaml(), "src/a.ts": "a", "src/b.ts": "b", "src/c.ts": "c" });
    await markReconciled(root, { files: ["src/a.ts", "src/b.ts", "src/c.ts"] });
    const all = await readCache(root, {});
    expect([...all.reconciled.get(SPEC)!.keys()]).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
    const some = await readCache(root, { specs: [SPEC], paths: ["src/b.ts"], blobs: "all" });
    expect([...some.reconciled.get(SPEC)!.keys()]).toEqual(["src/b.ts"]);
    expect(some.blobHashes.size).toBe(3);
  });
});

describe("git as the change oracle", () => {
  it("clean tracked files need no read once their blob is memoised; modified ones are re-hashed", async () => {
    const tree: Record<string, string> = { [SPEC]: specYaml() };
    for (let i = 0; i < 20; i++) tree[`src/f${i}.ts`] = `content ${i}\n`;
    const root = tempRepo(tree);
    const paths = Object.keys(tree).filter((p) => p.startsWith("src/"));
    let status = readWorktreeStatus(root);
    const first = await currentHashes(root, paths, status, { blobHashes: new Map(), statHashes: new Map() });
    expect(first.filesRead).toBe(20);
    expect(first.newBlobHashes.size).toBe(20);
    expect(first.hashes.get("src/f3.ts")).toBe(await blake3Hex(Buffer.from("content 3\n")));
    const second = await currentHashes(root, paths, status, { blobHashes: first.newBlobHashes, statHashes: new Map() });
    expect(second.filesRead).toBe(0);
    expect(second.hashes).toEqual(first.hashes);
    write(root, "src/f3.ts", "changed\n");
    status = readWorktreeStatus(root);
    const third = await currentHashes(root, paths, status, { blobHashes: first.newBlobHashes, statHashes: new Map() });
    expect(third.filesRead).toBe(1);
    expect(third.hashes.get("src/f3.ts")).toBe(await blake3Hex(Buffer.from("changed\n")));
  });

  it("never memoises a blob whose work-tree bytes differ from it (clean/smudge filters)", async () => {
    const root = tempRepo({ ".gitattributes": "*.txt text eol=crlf\n", "a.txt": "line\n" });
    remove(root, "a.txt");
    git(root, ["checkout", "--", "a.txt"]);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("line\r\n");
    const status = readWorktreeStatus(root);
    const r = await currentHashes(root, ["a.txt"], status, { blobHashes: new Map(), statHashes: new Map() });
    expect(r.hashes.get("a.txt")).toBe(await blake3Hex(Buffer.from("line\r\n")));
    expect(r.newBlobHashes.size).toBe(0);
  });

  it("uses stat signatures for untracked files, but never records a racy one", async () => {
    const root = tempRepo({ "seed.txt": "s" });
    write(root, "new.txt", "fresh\n");
    const status = readWorktreeStatus(root);
    const fresh = await currentHashes(root, ["new.txt"], status, { blobHashes: new Map(), statHashes: new Map() });
    expect(fresh.newStatHashes.size).toBe(0); // just written: inside the racy window
    const settled = await currentHashes(root, ["new.txt"], status, { blobHashes: new Map(), statHashes: new Map() }, { racyWindowMs: -60_000 });
    const row = settled.newStatHashes.get("new.txt")!;
    expect(row).toMatchObject({ size: 6, hash: await blake3Hex(Buffer.from("fresh\n")), ino: String(statSync(join(root, "new.txt"), { bigint: true }).ino) });
    const reuse = await currentHashes(root, ["new.txt"], status, { blobHashes: new Map(), statHashes: settled.newStatHashes }, { racyWindowMs: -60_000 });
    expect(reuse.filesRead).toBe(0);
    write(root, "new.txt", "FRESH\n"); // same size
    const after = await currentHashes(root, ["new.txt"], status, { blobHashes: new Map(), statHashes: settled.newStatHashes }, { racyWindowMs: -60_000 });
    expect(after.filesRead).toBe(1);
    expect(after.hashes.get("new.txt")).toBe(await blake3Hex(Buffer.from("FRESH\n")));
  });
});

describe("bad databases", () => {
  function repo() {
    return tempRepo({ [SPEC]: specYaml(), "src/a.ts": "a\n", "src/b.ts": "b\n" });
  }

  it("a corrupt DB reads as a cold cache with a warning, never a crash or a wrong 'reconciled'; the next write replaces it", async () => {
    const root = repo();
    await markReconciled(root, { files: ["src/a.ts", "src/b.ts"] });
    const bytes = readFileSync(join(root, CACHE_DB_PATH));
    bytes.fill(0x5a, 0, 200);
    writeFileSync(join(root, CACHE_DB_PATH), bytes);
    const w = warnings();
    const r = await getChangedArtifacts(root, { specPath: SPEC }, { onWarning: w.onWarning });
    expect(r.changed_artifacts).toEqual(["src/a.ts", "src/b.ts"]);
    expect(w.list.some((m) => m.includes("not a readable database") && m.includes("cold"))).toBe(true);
    const cli = runCli(["changed", "--spec", SPEC], { cwd: root });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe("src/a.ts\nsrc/b.ts\n");
    const w2 = warnings();
    await markReconciled(root, { files: ["src/a.ts"] }, { onWarning: w2.onWarning });
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(["src/b.ts"]);
  });

  it("a truncated or empty DB is cold too", async () => {
    const root = repo();
    await markReconciled(root, { files: ["src/a.ts"] });
    const bytes = readFileSync(join(root, CACHE_DB_PATH));
    writeFileSync(join(root, CACHE_DB_PATH), bytes.subarray(0, 1000));
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(["src/a.ts", "src/b.ts"]);
    writeFileSync(join(root, CACHE_DB_PATH), "");
    const w = warnings();
    expect((await getChangedArtifacts(root, { specPath: SPEC }, { onWarning: w.onWarning })).changed_artifacts).toEqual(["src/a.ts", "src/b.ts"]);
    expect(w.list.join()).toContain("empty");
  });

  it("an unreadable DB (a directory in its place) never crashes reads; writes fail with exit 2", async () => {
    const root = repo();
    mkdirSync(join(root, CACHE_DB_PATH), { recursive: true });
    const w = warnings();
    expect((await getChangedArtifacts(root, { specPath: SPEC }, { onWarning: w.onWarning })).changed_artifacts).toEqual(["src/a.ts", "src/b.ts"]);
    expect(w.list.join()).toContain("unreadable");
    const cli = runCli(["mark-reconciled", "src/a.ts"], { cwd: root });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("notarai.db");
  });

  it("a DB from a newer schema reads cold and refuses writes", async () => {
    const root = repo();
    await markReconciled(root, { files: ["src/a.ts"] });
    const db = await openDb(root);
    db.run("UPDATE nr_meta SET value = '99' WHERE key = 'schema_version'");
    writeFileSync(join(root, CACHE_DB_PATH), db.export());
    const w = warnings();
    expect((await getChangedArtifacts(root, { specPath: SPEC }, { onWarning: w.onWarning })).changed_artifacts).toEqual(["src/a.ts", "src/b.ts"]);
    expect(w.list.join()).toContain("newer");
    const cli = runCli(["mark-reconciled", "src/a.ts"], { cwd: root });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain("schema version 99");
  });

  it("honours a NotarAI-written DB (file_cache only): its rows count for every spec, and survive migration", async () => {
    const root = tempRepo({ ".notarai/one.spec.yaml": specYaml(), ".notarai/two.spec.yaml": specYaml(), "src/a.ts": "a\n", "src/b.ts": "b\n" });
    branch(root, "feature");
    write(root, "src/a.ts", "a2\n");
    write(root, "src/b.ts", "b2\n");
    commitAll(root, "change");
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.run("CREATE TABLE file_cache(path TEXT PRIMARY KEY, blake3_hash TEXT NOT NULL, updated_at INTEGER NOT NULL)");
    db.run("INSERT INTO file_cache VALUES (?, ?, 1700000000)", ["src/a.ts", (await blake3Hex(Buffer.from("a2\n"))).toUpperCase()]);
    mkdirSync(join(root, ".notarai/.cache"), { recursive: true });
    writeFileSync(join(root, CACHE_DB_PATH), db.export());
    expect((await cacheStats(root)).status).toBe("legacy");
    for (const spec of [".notarai/one.spec.yaml", ".notarai/two.spec.yaml"]) {
      const d = await getSpecDiff(root, { specPath: spec, baseBranch: "main" });
      expect(d.skipped).toEqual(["src/a.ts"]);
      expect(d.files).toEqual(["src/b.ts"]);
    }
    await markReconciled(root, { files: ["src/b.ts"], specPath: ".notarai/one.spec.yaml" });
    expect((await cacheStats(root)).status).toBe("ok");
    expect((await getSpecDiff(root, { specPath: ".notarai/two.spec.yaml", baseBranch: "main" })).skipped).toEqual(["src/a.ts"]);
    expect((await getSpecDiff(root, { specPath: ".notarai/one.spec.yaml", baseBranch: "main" })).skipped).toEqual(["src/a.ts", "src/b.ts"]);
    const after = await openDb(root);
    expect(rows(after, "SELECT count(*) FROM file_cache")).toEqual([[2]]);
  });
});

describe("dead rows", () => {
  it("are pruned for files that no longer exist and specs that were deleted", async () => {
    const root = tempRepo({ [SPEC]: specYaml(), ".notarai/old.spec.yaml": specYaml(), "src/a.ts": "a", "src/b.ts": "b" });
    await markReconciled(root, { files: ["src/a.ts", "src/b.ts"] });
    remove(root, "src/b.ts");
    remove(root, ".notarai/old.spec.yaml");
    write(root, "src/c.ts", "c");
    await getChangedArtifacts(root, { specPath: SPEC });
    const cache = await readCache(root);
    expect([...cache.reconciled.keys()]).toEqual([SPEC]);
    expect([...cache.reconciled.get(SPEC)!.keys()]).toEqual(["src/a.ts"]);
    const db = await openDb(root);
    expect(rows(db, "SELECT path FROM file_cache")).toEqual([["src/a.ts"]]);
  });

  it("a concurrent writer's fresh rows are not pruned (existence is checked under the lock)", async () => {
    const root = tempRepo({ [SPEC]: specYaml(), "src/a.ts": "a" });
    // A row for a file this process has not listed, but which exists on disk.
    write(root, "src/late.ts", "late");
    await writeCache(root, {
      reconciled: [{ spec: SPEC, path: "src/late.ts", hash: "0".repeat(64), blob: null }],
      prune: { livePaths: new Set(["src/a.ts"]), liveSpecs: new Set([SPEC]) },
    });
    expect([...(await readCache(root)).reconciled.get(SPEC)!.keys()]).toEqual(["src/late.ts"]);
  });
});
