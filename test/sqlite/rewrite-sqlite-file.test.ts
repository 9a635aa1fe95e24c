/**
 * The locked whole-file write of an SQLite file (src/sqlite/rewrite-sqlite-file.ts), with the
 * real sql.js and real files: a failed apply writes nothing, a read that fails goes to
 * `unreadable`, `fresh` ignores the file. Writers in several processes at once are tested
 * through its two users (test/runs/norma-db.test.ts, test/reconcile/concurrency.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database, SqlJsStatic } from "sql.js";
import { afterAll, describe, expect, it } from "vitest";
import { rewriteSqliteFile } from "../../src/sqlite/rewrite-sqlite-file.js";

const base = mkdtempSync(join(tmpdir(), "nr-rewrite-sqlite-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const place = (): { file: string; lock: string } => {
  const dir = join(base, `d${n++}`);
  mkdirSync(dir);
  return { file: join(dir, "x.db"), lock: join(dir, "x.db.lock") };
};

/** Open `bytes` (or a new database) with table t, run `fn`, export. */
function edit<T>(SQL: SqlJsStatic, bytes: Uint8Array | null, fn: (db: Database) => T): { bytes: Uint8Array; result: T } {
  const db = bytes !== null && bytes.length > 0 ? new SQL.Database(bytes) : new SQL.Database();
  try {
    db.run("CREATE TABLE IF NOT EXISTS t(v INTEGER)");
    const result = fn(db);
    return { bytes: db.export(), result };
  } finally {
    db.close();
  }
}

const values = (db: Database): number[] => (db.exec("SELECT v FROM t ORDER BY v")[0]?.values ?? []).map((r) => Number(r[0]));

describe("rewriteSqliteFile", () => {
  it("writes nothing when the apply step throws, and frees the lock", async () => {
    const p = place();
    const writeError = (e: unknown) => e as Error;
    await rewriteSqliteFile({ ...p, apply: (SQL, bytes) => edit(SQL, bytes, (db) => db.run("INSERT INTO t VALUES (1)")), writeError });
    const before = readFileSync(p.file);
    await expect(
      rewriteSqliteFile({
        ...p,
        apply: (SQL, bytes) =>
          edit(SQL, bytes, (db) => {
            db.run("INSERT INTO t VALUES (2)");
            throw new Error("no");
          }),
        writeError,
      }),
    ).rejects.toThrow("no");
    expect(readFileSync(p.file).equals(before)).toBe(true);
    expect(await rewriteSqliteFile({ ...p, apply: (SQL, bytes) => edit(SQL, bytes, values), writeError })).toEqual([1]);
  });

  it("hands a failed read to `unreadable` (which may throw), ignores the file when `fresh`, and wraps a failed write", async () => {
    const p = place();
    mkdirSync(p.file); // a directory where the file should be: reading it fails (EISDIR), so does writing
    const writeError = (e: unknown) => new Error(`cannot write: ${(e as NodeJS.ErrnoException).code}`);
    let seen: unknown;
    await expect(
      rewriteSqliteFile({
        ...p,
        unreadable: (e) => {
          seen = e;
        },
        apply: (SQL, bytes) => edit(SQL, bytes, () => bytes),
        writeError,
      }),
    ).rejects.toThrow(/^cannot write: /);
    expect((seen as NodeJS.ErrnoException).code).toBe("EISDIR");
    await expect(rewriteSqliteFile({ ...p, apply: (SQL, bytes) => edit(SQL, bytes, () => 0), writeError })).rejects.toMatchObject({ code: "EISDIR" });
    await expect(
      rewriteSqliteFile({
        ...p,
        unreadable: () => {
          throw new Error("unreadable");
        },
        apply: (SQL, bytes) => edit(SQL, bytes, () => 0),
        writeError,
      }),
    ).rejects.toThrow("unreadable");
    const q = place();
    await rewriteSqliteFile({ ...q, apply: (SQL, bytes) => edit(SQL, bytes, (db) => db.run("INSERT INTO t VALUES (5)")), writeError });
    let given: Uint8Array | null | undefined;
    await rewriteSqliteFile({
      ...q,
      fresh: true,
      apply: (SQL, bytes) => {
        given = bytes;
        return edit(SQL, bytes, () => undefined);
      },
      writeError,
    });
    expect(given).toBeNull();
    expect(await rewriteSqliteFile({ ...q, apply: (SQL, bytes) => edit(SQL, bytes, values), writeError })).toEqual([]);
  });
});
