/**
 * sql.js (SQLite compiled to WebAssembly: no native build), loaded once per process
 * and only when a command first needs SQLite.
 */
import type { SqlJsStatic } from "sql.js";
import { requireVendored } from "../vendored.js";

let sqlPromise: Promise<SqlJsStatic> | undefined;
let beforeLoad: (() => Promise<unknown>) | undefined;

/**
 * A step to run once, just before sql.js is first loaded in this process (the CLI's
 * short-run WebAssembly tiering, prepare-short-run-wasm.ts): a run that never needs SQLite
 * never pays for it.
 */
export function beforeSqlJsLoads(step: () => Promise<unknown>): void {
  beforeLoad = step;
}

/**
 * Load sql.js (once per process, lazily; through require, which skips the ESM
 * loader's CommonJS export scan). SQLite's first statement has a cost of its own
 * whatever the database; it is paid here, on an empty one, so that it overlaps
 * reading the database file rather than following it.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
  sqlPromise ??= (async () => {
    await beforeLoad?.();
    // sql.js's WebAssembly build (dist/vendor/sql-wasm.cjs finds sql-wasm.wasm beside it).
    const init = requireVendored("sql-wasm.cjs", (require) => require("sql.js")) as (cfg?: object) => Promise<SqlJsStatic>;
    const SQL = await init();
    const warm = new SQL.Database();
    try {
      warm.exec("SELECT 1");
    } finally {
      warm.close();
    }
    return SQL;
  })();
  return sqlPromise;
}
