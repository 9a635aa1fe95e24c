/**
 * Rows of databases written before schema version 2: NotarAI's own (only
 * `file_cache`, whose rows hold for every spec) and noma-reconcile's version 1
 * (one SQL row per record in `nr_reconciled`, `nr_blob_hash`,
 * `nr_stat_hash`). They are read as they are until the next write migrates them.
 */
import type { Database } from "sql.js";
import type { ReconciledRow, StatRow } from "./cache-tables.js";
import { selectRows } from "./select-rows.js";

/** Tables of schema version 1, dropped by the migration. */
export const V1_TABLES = ["nr_reconciled", "nr_blob_hash", "nr_stat_hash"] as const;

/** NotarAI's `file_cache` rows as records valid for every spec (hashes lowercased). */
export function readFileCacheRows(db: Database): Map<string, ReconciledRow> {
  const out = new Map<string, ReconciledRow>();
  for (const [path, hash, updated] of selectRows(db, ["path", "blake3_hash", "updated_at"], "file_cache") as [string, string, string][]) {
    out.set(path, { hash: hash.toLowerCase(), blob: null, updatedAt: Number(updated) });
  }
  return out;
}

/** Version-1 reconciliation rows (of `specs` only, when given): spec → path → row. */
export function readV1Reconciled(db: Database, specs: readonly string[] | null): Map<string, Map<string, ReconciledRow>> {
  const out = new Map<string, Map<string, ReconciledRow>>();
  const where = specs !== null ? ` WHERE spec IN (${specs.map(() => "?").join(",")})` : "";
  for (const [spec, path, hash, blob, updated] of selectRows(
    db,
    ["spec", "path", "blake3_hash", "blob", "updated_at"],
    `nr_reconciled${where}`,
    specs !== null ? [...specs] : [],
  ) as [string, string, string, string, string][]) {
    let m = out.get(spec);
    if (m === undefined) out.set(spec, (m = new Map()));
    m.set(path, { hash, blob: blob === "" ? null : blob, updatedAt: Number(updated) });
  }
  return out;
}

/** Version-1 blob memo: blob id → BLAKE3. */
export function readV1BlobHashes(db: Database): Map<string, string> {
  return new Map(selectRows(db, ["blob", "blake3_hash"], "nr_blob_hash") as [string, string][]);
}

/** Version-1 stat memo: path → signature and BLAKE3. */
export function readV1StatHashes(db: Database): Map<string, StatRow> {
  const out = new Map<string, StatRow>();
  for (const [path, size, mtimeNs, ctimeNs, ino, hash] of selectRows(db, ["path", "size", "mtime_ns", "ctime_ns", "ino", "blake3_hash"], "nr_stat_hash") as [
    string,
    string,
    string,
    string,
    string,
    string,
  ][]) {
    out.set(path, { size: Number(size), mtimeNs, ctimeNs, ino, hash });
  }
  return out;
}
