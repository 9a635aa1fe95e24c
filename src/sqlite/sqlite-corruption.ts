/**
 * Telling a damaged database from any other failure. Only damage may ever replace a database
 * file we keep (the hash cache): SQLite's own corruption errors, or a failed integrity check.
 * Anything else — our bug included — is an error that leaves the file as it was.
 *
 * sql.js throws a plain Error carrying `sqlite3_errmsg` (it exports no error code), so the
 * two result codes are recognised by the messages SQLite gives them: SQLITE_CORRUPT
 * ("database disk image is malformed", "malformed database schema (…)") and SQLITE_NOTADB
 * ("file is not a database").
 */
import type { Database } from "sql.js";

const CORRUPTION = /^(?:database disk image is malformed|malformed database schema\b|file is not a database)/;

/** Whether `e` is SQLite saying the database is damaged (SQLITE_CORRUPT or SQLITE_NOTADB). */
export function isSqliteCorruption(e: unknown): boolean {
  return e instanceof Error && CORRUPTION.test(e.message);
}

/** SQLite's own integrity check of an open database: null when it passes, else what it found (its first lines). */
export function integrityProblem(db: Database): string | null {
  let lines: string[];
  try {
    lines = (db.exec("PRAGMA integrity_check(8)")[0]?.values ?? []).map((r) => String(r[0]));
  } catch (e) {
    if (isSqliteCorruption(e)) return (e as Error).message;
    throw e;
  }
  if (lines.length === 1 && lines[0] === "ok") return null;
  return lines.length === 0 ? "the integrity check gave no answer" : lines.slice(0, 3).join("; ");
}
