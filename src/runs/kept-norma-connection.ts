/**
 * A fast path of `.norma/norma.db` transactions (a named room; its equivalence test is
 * test/runs/kept-norma-connection.test.ts): a transaction opens the file's bytes in SQLite
 * (sql.js: the bytes handed to its in-memory file system, SQLite's open, the schema parsed on the
 * first statement, every page read again into SQLite's page cache), and a run makes a dozen, each
 * on the bytes the one before it wrote. sql.js exports a database through SQLite's backup API,
 * which leaves the connection open and holding exactly what it exported; so the connection is
 * kept after a transaction's export, with the exported bytes, and the next transaction of this
 * process on the same file takes it when the file's bytes (re-read under the lock, as always) are
 * those very bytes — the database they hold is the one the connection holds. Any other bytes
 * (another process wrote, a user replaced the file, our own write of them failed) close it, and
 * the transaction opens the file's bytes as before.
 *
 * Whoever takes the connection owns it: it is handed back (`keepConnection`) after a transaction
 * that exported, and closed on any failure, so no two transactions ever share it.
 */
import type { Database } from "sql.js";

/** Per database file (absolute path): the open connection and the bytes it holds (what it last exported). */
const kept = new Map<string, { bytes: Uint8Array; db: Database }>();

/** Keep `db`, which has just exported `bytes` for `file`, for the next transaction on `file` (a connection kept before for it is closed). */
export function keepConnection(file: string, bytes: Uint8Array, db: Database): void {
  const old = kept.get(file);
  if (old !== undefined && old.db !== db) old.db.close();
  kept.set(file, { bytes, db });
}

/**
 * The connection kept for `file` when `bytes` (the file as just read) are exactly the bytes it holds; else null
 * (a kept connection is then closed). Either way nothing stays kept for `file`: the caller owns what it got.
 */
export function takeConnection(file: string, bytes: Uint8Array | null): Database | null {
  const k = kept.get(file);
  if (k === undefined) return null;
  kept.delete(file);
  if (bytes !== null && k.bytes.length === bytes.length && Buffer.compare(k.bytes, bytes) === 0) return k.db;
  k.db.close();
  return null;
}

/** Close the connection kept for `file` (every file when none is given): its next transaction opens the file's bytes (the slow path). */
export function dropConnection(file?: string): void {
  for (const [f, k] of kept) {
    if (file !== undefined && f !== file) continue;
    k.db.close();
    kept.delete(f);
  }
}
