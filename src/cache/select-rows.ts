/**
 * Rows of plain SQL tables read in bulk through sql.js: one `group_concat`
 * round trip instead of one statement step per row (JSON when a value holds a
 * separator character).
 */
import type { Database, SqlValue } from "sql.js";

const FS = "\x1f";
const RS = "\x1e";

/** `SELECT <cols> FROM <from>` as rows of strings (NULL as ""). */
export function selectRows(db: Database, cols: readonly string[], from: string, params: SqlValue[] = []): string[][] {
  const joined = cols.map((c) => `coalesce(${c}, '')`).join(` || char(31) || `);
  const res = db.exec(`SELECT count(*), group_concat(${joined}, char(30)) FROM ${from}`, params);
  const count = Number(res[0]?.values[0]?.[0] ?? 0);
  if (count === 0) return [];
  const text = String(res[0]!.values[0]![1]);
  const rows = text.split(RS).map((r) => r.split(FS));
  if (rows.length === count && rows.every((r) => r.length === cols.length)) return rows;
  const json = db.exec(`SELECT json_group_array(json_array(${cols.map((c) => `coalesce(${c}, '')`).join(", ")})) FROM ${from}`, params);
  return JSON.parse(String(json[0]!.values[0]![0])) as string[][];
}

/** Batches of at most `size` for IN (…) lists. */
export function batches<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Names of the tables in the database. */
export function tableNames(db: Database): Set<string> {
  const res = db.exec("SELECT name FROM sqlite_master WHERE type = 'table'");
  return new Set((res[0]?.values ?? []).map((r) => String(r[0])));
}

/** A value of `nr_meta`, or null. */
export function metaValue(db: Database, key: string): string | null {
  const res = db.exec("SELECT value FROM nr_meta WHERE key = ?", [key]);
  const v = res[0]?.values[0]?.[0];
  return v === undefined || v === null ? null : String(v);
}
