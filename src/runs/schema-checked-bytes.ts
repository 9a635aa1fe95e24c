/**
 * A fast path of `.norma/norma.db` transactions (a named room; its equivalence test is
 * test/runs/schema-checked-bytes.test.ts): the file's schema is checked on every open
 * (norma-db.ts `ensureSchema`: no view, trigger or table we do not create, a version this tool
 * reads) — about half the CPU of a transaction, and a run makes a dozen. The bytes a transaction
 * of this process wrote hold the schema that was just checked (a transaction runs only our own
 * INSERT / UPDATE / DELETE statements: `NormaTx`), so when the next transaction re-reads exactly
 * those bytes the check would find what it found then, and is skipped. Any other bytes (another
 * process wrote, a user replaced the file) are checked in full.
 */
import { dropConnection } from "./kept-norma-connection.js";

/** Per database file (absolute path): the bytes this process last wrote there. */
const written = new Map<string, Uint8Array>();

/** Remember the bytes a transaction exported from a database whose schema was checked (or created) when it was opened. */
export function rememberSchemaChecked(file: string, bytes: Uint8Array): void {
  written.set(file, bytes);
}

/** Whether `bytes` are exactly the bytes last remembered for `file` (their schema already checked). */
export function schemaCheckedBefore(file: string, bytes: Uint8Array | null): boolean {
  const known = written.get(file);
  return bytes !== null && known !== undefined && known.length === bytes.length && Buffer.compare(known, bytes) === 0;
}

/**
 * Forget what was remembered for `file` (every file when none is given): its next transaction opens the file's bytes
 * (the connection kept for it is closed, kept-norma-connection.ts) and checks the schema (the slow path).
 */
export function forgetSchemaChecked(file?: string): void {
  dropConnection(file);
  if (file === undefined) written.clear();
  else written.delete(file);
}
