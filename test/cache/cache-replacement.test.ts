/**
 * Only damage replaces the hash cache (issue 32, item 8). A write that meets a damaged DB —
 * SQLite's own corruption errors (SQLITE_NOTADB, SQLITE_CORRUPT), a chunk that fails its
 * checksums, a failed integrity check — starts a new one and says so; any other failure (our
 * bug: a TypeError while pruning or encoding) is an error that leaves the file byte for byte
 * as it was, every mark in it. Real repositories, the real sql.js, the real CLI.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { CACHE_DB_PATH, CacheWriteError, cacheStats, getChangedArtifacts, markReconciled, readCache, writeCache } from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";

const SPEC = ".notarai/app.spec.yaml";
const FILES = ["src/a.ts", "src/b.ts", "src/c.ts"];

/** A repository with two of its three files reconciled: the cache holds marks, a memo row and NotarAI's rows. */
async function marked(): Promise<{ root: string; bytes: Buffer }> {
  const root = tempRepo({ [SPEC]: specYaml(), ...Object.fromEntries(FILES.map((f) => [f, `export const x = "${f}";\n`])) });
  await markReconciled(root, { files: ["src/a.ts", "src/b.ts"], specPath: SPEC });
  return { root, bytes: readFileSync(join(root, CACHE_DB_PATH)) };
}

async function changed(root: string): Promise<string[]> {
  return (await getChangedArtifacts(root, { specPath: SPEC }, { readOnly: true })).changed_artifacts;
}

/** A Set whose lookups throw (the first `times` of them), as a bug of ours would while pruning. */
function throwingSet(times = Number.POSITIVE_INFINITY): ReadonlySet<string> {
  const s = new Set<string>();
  let calls = 0;
  s.has = () => {
    if (calls++ < times) throw new TypeError("livePaths.has is broken");
    return false;
  };
  return s;
}

/** The root pages of the DB's schema objects, and its page size. */
async function layout(bytes: Buffer): Promise<{ pageSize: number; root: (name: string) => number }> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(bytes);
  const roots = new Map((db.exec("SELECT name, rootpage FROM sqlite_master")[0]?.values ?? []).map(([n, p]) => [String(n), Number(p)]));
  db.close();
  return {
    pageSize: bytes.readUInt16BE(16),
    root: (name) => {
      const p = roots.get(name);
      if (p === undefined) throw new Error(`no ${name} in the schema`);
      return p;
    },
  };
}

describe("a write that fails on a sound cache", () => {
  const bugs: Array<[string, () => Parameters<typeof writeCache>[1], RegExp]> = [
    [
      "a TypeError while pruning",
      () => ({
        reconciled: [{ spec: SPEC, path: "src/c.ts", hash: "c".repeat(64), blob: null }],
        prune: { livePaths: throwingSet(), liveSpecs: new Set([SPEC]) },
      }),
      /\(TypeError: livePaths\.has is broken\)/,
    ],
    [
      "a TypeError while encoding a memo row",
      () => ({
        statHashes: new Map([["src/c.ts", { size: Symbol("not a size") as unknown as number, mtimeNs: "1", ctimeNs: "1", ino: "1", hash: "c".repeat(64) }]]),
      }),
      /\(TypeError: Cannot convert Symbol\(not a size\) to a BigInt\)/,
    ],
  ];

  it.each(bugs)("%s: an error naming it, the file byte for byte as it was, every mark still there", async (_, write, message) => {
    const { root, bytes } = await marked();
    const before = statSync(join(root, CACHE_DB_PATH), { bigint: true });
    const err = await writeCache(root, write()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CacheWriteError);
    expect(err).toMatchObject({ code: "cache-write-failed", kind: "internal" });
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toMatch(/^could not update \.notarai\/\.cache\/notarai\.db \(TypeError: .*\); the file was left as it was$/);
    expect(readFileSync(join(root, CACHE_DB_PATH)).equals(bytes)).toBe(true);
    expect(statSync(join(root, CACHE_DB_PATH), { bigint: true }).ino).toBe(before.ino); // not even rewritten with the same bytes
    expect([...(await readCache(root, { specs: [SPEC] })).reconciled.get(SPEC)!.keys()]).toEqual(["src/a.ts", "src/b.ts"]);
    expect(await changed(root)).toEqual(["src/c.ts"]);
  });

  it("a file that cannot be read (a directory in its place) is an error, and is left as it was", async () => {
    const root = tempRepo({ [SPEC]: specYaml(), "src/a.ts": "a\n" });
    mkdirSync(join(root, CACHE_DB_PATH, "inside"), { recursive: true });
    const cli = runCli(["mark-reconciled", "src/a.ts", "--spec", SPEC], { cwd: root });
    expect(cli.code, cli.stderr).toBe(2);
    expect(cli.stderr.split("\n")).toEqual([
      `noma-reconcile: warning: cache ${CACHE_DB_PATH} is unreadable (EISDIR: is a directory); treating it as cold: every governed file counts as changed`,
      `noma-reconcile: cannot read ${CACHE_DB_PATH} (EISDIR: illegal operation on a directory, read); it was left as it was`,
      "",
    ]);
    expect(statSync(join(root, CACHE_DB_PATH, "inside")).isDirectory()).toBe(true);
  });
});

describe("a write that meets a damaged cache replaces it, saying why", () => {
  it("not a database (SQLITE_NOTADB): random bytes", async () => {
    const { root } = await marked();
    for (const junk of fc.sample(fc.uint8Array({ minLength: 512, maxLength: 8192 }), { numRuns: 5, seed: 3208 })) {
      writeFileSync(join(root, CACHE_DB_PATH), junk);
      const { warning } = await writeCache(root, { reconciled: [{ spec: SPEC, path: "src/c.ts", hash: "c".repeat(64), blob: null }] });
      expect(warning).toBe(`cache ${CACHE_DB_PATH} was corrupt (file is not a database); starting a new one`);
      expect((await cacheStats(root)).status).toBe("ok");
      expect([...(await readCache(root, { specs: [SPEC] })).reconciled.get(SPEC)!.keys()]).toEqual(["src/c.ts"]);
    }
  });

  it("SQLite's structures damaged (SQLITE_CORRUPT): a b-tree page of an unknown type", async () => {
    const { root, bytes } = await marked();
    const { pageSize, root: rootOf } = await layout(bytes);
    const damaged = Buffer.from(bytes);
    damaged[(rootOf("nr_meta") - 1) * pageSize] = 0xff; // the page type of nr_meta's root
    writeFileSync(join(root, CACHE_DB_PATH), damaged);
    const cli = runCli(["mark-reconciled", "src/c.ts", "--spec", SPEC], { cwd: root });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr.split("\n")).toEqual([
      // The command's read first (cold), then its write.
      `noma-reconcile: warning: cache ${CACHE_DB_PATH} is not a readable database (database disk image is malformed); treating it as cold: every governed file counts as changed (\`cache clear\` removes it)`,
      `noma-reconcile: warning: cache ${CACHE_DB_PATH} was corrupt (database disk image is malformed); starting a new one`,
      "",
    ]);
    expect((await cacheStats(root)).status).toBe("ok");
    expect(await changed(root)).toEqual(["src/a.ts", "src/b.ts"]);
  });

  it("a chunk that fails its checksum", async () => {
    const { root, bytes } = await marked();
    const read = await readCache(root, { specs: [SPEC] });
    const hash = Buffer.from(read.reconciled.get(SPEC)!.get("src/a.ts")!.hash, "hex");
    const damaged = Buffer.from(bytes);
    damaged[damaged.indexOf(hash) + 5]! ^= 0x10;
    writeFileSync(join(root, CACHE_DB_PATH), damaged);
    const { warning } = await writeCache(root, { reconciled: [{ spec: SPEC, path: "src/c.ts", hash: "c".repeat(64), blob: null }] });
    expect(warning).toBe(
      `cache ${CACHE_DB_PATH} was corrupt (nr_reconciled_chunk chunk "src/a.ts" of ${JSON.stringify(SPEC)} fails its checksum (hashes)); starting a new one`,
    );
    expect([...(await readCache(root, { specs: [SPEC] })).reconciled.get(SPEC)!.keys()]).toEqual(["src/c.ts"]);
  });

  it("any other error on a DB that fails SQLite's integrity check (an index that lost a row)", async () => {
    const { root, bytes } = await marked();
    const { pageSize, root: rootOf } = await layout(bytes);
    const damaged = Buffer.from(bytes);
    const page = damaged.subarray((rootOf("sqlite_autoindex_file_cache_1") - 1) * pageSize, rootOf("sqlite_autoindex_file_cache_1") * pageSize);
    const at = page.indexOf("src/a.ts");
    expect(at).toBeGreaterThan(0);
    page[at + 4] = "q".charCodeAt(0); // the index's key no longer matches its row (and sorts after the next one)
    writeFileSync(join(root, CACHE_DB_PATH), damaged);
    const { warning } = await writeCache(root, {
      reconciled: [{ spec: SPEC, path: "src/c.ts", hash: "c".repeat(64), blob: null }],
      prune: { livePaths: throwingSet(1), liveSpecs: new Set([SPEC]) },
    });
    expect(warning).toBe(
      `cache ${CACHE_DB_PATH} was corrupt (TypeError: livePaths.has is broken; integrity check: row 1 missing from index sqlite_autoindex_file_cache_1; row 2 missing from index sqlite_autoindex_file_cache_1); starting a new one`,
    );
    expect((await cacheStats(root)).status).toBe("ok");
  });
});
