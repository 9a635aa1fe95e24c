/**
 * One write of an SQLite file through sql.js. sql.js keeps a database in memory and
 * writes whole files, so a write is one locked read-modify-write of the file:
 *
 *   take the lock → re-read the file → apply → export → write a temp file, fsync,
 *   rename over the file → release the lock.
 *
 * The lock makes writers take turns, so none loses another's rows; the rename makes
 * a write appear all at once or not at all (a process killed at any point leaves the
 * previous file whole), so readers need no lock: they read the last renamed file.
 * The hash cache (cache/write-cache.ts) and the run DB (runs/norma-db.ts) both write so.
 */
import { readFileSync } from "node:fs";
import type { SqlJsStatic } from "sql.js";
import { withFileLock } from "../fsx/with-file-lock.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { loadSqlJs } from "./load-sql-js.js";

export interface SqliteRewrite<T> {
  /** The database file. */
  file: string;
  /** The lock file writers of `file` take turns on (its directory must exist). */
  lock: string;
  /** Start from no file: the current one is not read (its bytes are replaced). */
  fresh?: boolean;
  /**
   * A read of the file that failed other than for a missing file: throw to give up (nothing is
   * written), or return to start from no file. Default: rethrow.
   */
  unreadable?: (e: unknown) => void;
  /**
   * From the file's bytes (null: no file, unreadable, or `fresh`) to the bytes to write and the
   * answer. Runs synchronously under the lock; when it throws, nothing is written. A database
   * opened on `bytes` writes into them (sql.js keeps a Buffer it is given): read the file again
   * for its bytes as they were.
   */
  apply: (SQL: SqlJsStatic, bytes: Uint8Array | null) => { bytes: Uint8Array; result: T };
  /** Called between the temp file's fsync and the rename (crash tests). */
  beforeRename?: () => void;
  /** The error thrown when the new file cannot be written. */
  writeError: (e: unknown) => Error;
}

/** Read, apply and replace `w.file` under `w.lock`; the answer of `w.apply`. */
export async function rewriteSqliteFile<T>(w: SqliteRewrite<T>): Promise<T> {
  const SQL = await loadSqlJs();
  return withFileLock(w.lock, () => {
    let bytes: Uint8Array | null = null;
    if (w.fresh !== true) {
      try {
        bytes = readFileSync(w.file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") {
          if (w.unreadable === undefined) throw e;
          w.unreadable(e);
        }
      }
    }
    const out = w.apply(SQL, bytes);
    try {
      writeFileAtomic(w.file, out.bytes, w.beforeRename !== undefined ? { beforeRename: w.beforeRename } : {});
    } catch (e) {
      throw w.writeError(e);
    }
    return out.result;
  });
}
