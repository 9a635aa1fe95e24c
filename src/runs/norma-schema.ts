/**
 * The schema of `.norma/norma.db`, exactly the spec's tables, columns, keys and
 * cascades (norma-run-loop.md §3), plus CHECK constraints on the enumerated
 * columns. Version 1; `schema_migrations` records it.
 *
 * The DDL text is also what the fast reader compares the file's schema with:
 * a database whose tables were created by exactly these statements is read
 * without SQLite (sqlite/sqlite-file.ts); anything else goes through sql.js.
 */
export const NORMA_SCHEMA_VERSION = 1;

export const NORMA_TABLES: ReadonlyArray<{ name: string; sql: string }> = [
  {
    name: "schema_migrations",
    sql: "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
  },
  {
    name: "runs",
    sql:
      "CREATE TABLE runs (run_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, goal TEXT NOT NULL, " +
      "status TEXT NOT NULL CHECK (status IN ('running', 'passed', 'failed', 'stopped')), " +
      "iteration INTEGER NOT NULL DEFAULT 0, current_step_index INTEGER NOT NULL DEFAULT 0, " +
      "verdict TEXT NULL CHECK (verdict IS NULL OR verdict IN ('PASS', 'FAIL')), run_dir TEXT NOT NULL)",
  },
  {
    name: "steps",
    sql:
      "CREATE TABLE steps (run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE, step_index INTEGER NOT NULL, " +
      "role TEXT NOT NULL CHECK (role IN ('plan', 'do', 'check', 'act')), iteration INTEGER NOT NULL, " +
      "status TEXT NOT NULL CHECK (status IN ('ok', 'fail', 'skipped')), step_dir TEXT NOT NULL, " +
      "started_at TEXT NOT NULL, ended_at TEXT NULL, summary TEXT NULL, PRIMARY KEY (run_id, step_index))",
  },
  {
    name: "events",
    sql:
      "CREATE TABLE events (run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE, seq INTEGER NOT NULL, " +
      "ts TEXT NOT NULL, type TEXT NOT NULL, message TEXT NOT NULL, data_json TEXT NULL, PRIMARY KEY (run_id, seq))",
  },
  {
    name: "kv_run",
    sql:
      "CREATE TABLE kv_run (run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE, key TEXT NOT NULL, value_json TEXT NOT NULL, PRIMARY KEY " +
      "(run_id, key))",
  },
];

export type RunStatus = "running" | "passed" | "failed" | "stopped";
export type StepStatus = "ok" | "fail" | "skipped";
export type Verdict = "PASS" | "FAIL";

export interface RunRow {
  run_id: string;
  created_at: string;
  goal: string;
  status: RunStatus;
  iteration: number;
  current_step_index: number;
  verdict: Verdict | null;
  run_dir: string;
}

export interface StepRow {
  run_id: string;
  step_index: number;
  role: "plan" | "do" | "check" | "act";
  iteration: number;
  status: StepStatus;
  step_dir: string;
  started_at: string;
  ended_at: string | null;
  summary: string | null;
}

export interface EventRow {
  run_id: string;
  seq: number;
  ts: string;
  type: string;
  message: string;
  data_json: string | null;
}
