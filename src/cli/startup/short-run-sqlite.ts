/**
 * For a command that may load SQLite for a few small transactions (the cache, norma.db): when
 * sql.js is about to load, and only then, BLAKE3 is compiled with V8's normal tiering and SQLite
 * with the baseline tier only (prepare-short-run-wasm.ts, imported at that moment). A run that
 * never needs SQLite loads neither.
 */
import { beforeSqlJsLoads } from "../../sqlite/load-sql-js.js";

export function shortRunSqlite(env: NodeJS.ProcessEnv): void {
  beforeSqlJsLoads(async () => (await import("./prepare-short-run-wasm.js")).prepareShortRunWasm({ hashing: true, env }));
}
