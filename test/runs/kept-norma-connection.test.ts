/**
 * The fast path of `.norma/norma.db` transactions (src/runs/kept-norma-connection.ts): the connection a
 * transaction exported from stays open, and the next transaction of the process takes it when the file
 * holds exactly the bytes it exported. Equivalence with the slow path (every transaction opens the file's
 * bytes and checks their schema): the same transactions give the same answers (errors included), the same
 * state and the same database on disk (schema, rows, size); and a file changed behind our back — another writer's row, an older
 * copy put back — is opened afresh, its content seen, never the kept connection's.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import initSqlJs, { type SqlJsStatic } from "sql.js";
import { describe, expect, it } from "vitest";
import { readNormaState } from "../../src/runs/norma-db.js";
import { keepConnection, takeConnection } from "../../src/runs/kept-norma-connection.js";
import { forgetSchemaChecked } from "../../src/runs/schema-checked-bytes.js";
import { tempDir } from "../helpers/temp-repo.js";
import { runRow as run } from "./helpers/run-row.js";
import { applyNormaOp, type NormaOp, normaOpArb, plainNormaState, rid } from "./helpers/norma-ops.js";

const opArb = normaOpArb({ fail: true });
const apply = (root: string, op: NormaOp): Promise<string> => applyNormaOp(root, op, { readBack: true });
const plain = plainNormaState;

const dbOf = (root: string): string => join(root, ".norma/norma.db");

/** Whether the next transaction on `root` would take a kept connection (asked without taking it). */
function connectionKept(root: string): boolean {
  const file = dbOf(root);
  const bytes = readFileSync(file);
  const db = takeConnection(file, bytes);
  if (db === null) return false;
  keepConnection(file, bytes, db);
  return true;
}

/** Everything SQLite holds in the file: its schema, each table's rows (in a set order), its page count and its integrity check. */
function dump(SQL: SqlJsStatic, file: string): unknown {
  const db = new SQL.Database(readFileSync(file));
  try {
    const all = (sql: string) => db.exec(sql)[0]?.values ?? [];
    const schema = all("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name");
    const tables = schema.filter((r) => r[0] === "table").map((r) => String(r[1]));
    return {
      schema,
      // schema_migrations: the version (applied_at is when each repository's file was created).
      rows: tables.map((t) => [
        t,
        all(t === "schema_migrations" ? "SELECT version FROM schema_migrations" : `SELECT * FROM "${t}"`)
          .map((r) => JSON.stringify(r))
          .sort(),
      ]),
      pages: all("PRAGMA page_count"),
      integrity: all("PRAGMA integrity_check"),
    };
  } finally {
    db.close();
  }
}

describe("norma.db: the connection kept between the transactions of a process", () => {
  it("gives the same answers, state and database as opening the file every time (property)", async () => {
    const SQL = await initSqlJs();
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        const fast = tempDir("nr-kept-");
        const slow = tempDir("nr-open-");
        // Both files exist from the start (a transaction that fails writes nothing).
        expect(await apply(fast, { kind: "run", id: 0 })).toMatch(/^ok /);
        expect(await apply(slow, { kind: "run", id: 0 })).toMatch(/^ok /);
        let wrote = true;
        for (const op of ops) {
          // After a transaction that wrote, the file holds what its connection exported: the next one takes it. A failed
          // transaction closed its connection (and wrote nothing): the next one opens the file.
          expect(connectionKept(fast)).toBe(wrote);
          const a = await apply(fast, op);
          wrote = a.startsWith("ok ");
          // The other repository opens its bytes and checks their schema every time: nothing kept for it.
          forgetSchemaChecked(dbOf(slow));
          expect(connectionKept(slow)).toBe(false);
          const b = await apply(slow, op);
          forgetSchemaChecked(dbOf(slow));
          expect(a).toBe(b);
          expect(plain(await readNormaState(fast))).toEqual(plain(await readNormaState(slow)));
          // The files hold the same database: schema, every row of every table, size and a sound structure (the bytes
          // of free space inside a page may differ: what SQLite leaves where a deleted row was).
          expect(dump(SQL, dbOf(fast))).toEqual(dump(SQL, dbOf(slow)));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("opens a file another writer changed after our transaction: its row is seen", async () => {
    const root = tempDir("nr-kept-other-");
    const file = dbOf(root);
    expect(await apply(root, { kind: "run", id: 1 })).toMatch(/^ok /);
    expect(connectionKept(root)).toBe(true);
    const SQL = await initSqlJs();
    const other = new SQL.Database(readFileSync(file));
    other.run("INSERT INTO kv_run (run_id, key, value_json) VALUES (?, 'a', '42')", [rid(1)]);
    writeFileSync(file, other.export());
    other.close();
    expect(connectionKept(root)).toBe(false);
    expect(await apply(root, { kind: "event", id: 1, message: "after" })).toBe(`ok ${JSON.stringify({ run: run(rid(1)), steps: 0, events: 1, kv: 42 })}`);
    // And the connection of that transaction is kept in turn.
    expect(connectionKept(root)).toBe(true);
  });

  it("opens an older copy of the file put back after our transaction: the later transaction's row is gone", async () => {
    const root = tempDir("nr-kept-older-");
    const file = dbOf(root);
    expect(await apply(root, { kind: "run", id: 1 })).toMatch(/^ok /);
    copyFileSync(file, `${file}.older`);
    expect(await apply(root, { kind: "kv", id: 1, key: "a", value: 7 })).toBe(`ok ${JSON.stringify({ run: run(rid(1)), steps: 0, events: 0, kv: 7 })}`);
    copyFileSync(`${file}.older`, file);
    expect(connectionKept(root)).toBe(false);
    expect(await apply(root, { kind: "event", id: 1, message: "x" })).toBe(`ok ${JSON.stringify({ run: run(rid(1)), steps: 0, events: 1, kv: null })}`);
  });
});
