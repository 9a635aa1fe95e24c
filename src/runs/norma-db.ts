/**
 * `.norma/norma.db`: run, step and event state in SQLite, through sql.js
 * (WebAssembly: no native build), loaded lazily.
 *
 * sql.js keeps a database in memory and writes whole files, so every
 * transaction is one locked read-modify-write of the file
 * (src/sqlite/rewrite-sqlite-file.ts):
 *
 *   take `.norma/locks/norma.db.lock` (O_EXCL; stale when its owner died)
 *   → re-read norma.db → PRAGMA foreign_keys=ON → BEGIN IMMEDIATE → apply
 *   → COMMIT → export → write a temp file, fsync, rename over norma.db
 *   → release the lock.
 *
 * (When the bytes re-read are exactly those this process's last transaction exported, the
 * connection that exported them, kept open, is used instead of opening them again:
 * kept-norma-connection.ts.)
 *
 * This is our equivalent of the spec's `BEGIN IMMEDIATE … COMMIT` on a single
 * writer connection (§2, §4.1): the lock makes writers take turns, and the
 * rename makes a transaction's effect appear all at once or not at all — a
 * process killed at any point leaves the previous file intact. It also stands
 * in for `journal_mode=WAL` and `busy_timeout=5000`: readers never block (they
 * read the last renamed file, a consistent snapshot, without any lock) and a
 * writer waits for the lock up to 15 s (with backoff) before failing with a
 * message naming the holder. `foreign_keys=ON` is set on every open, so
 * deleting a run cascades to its steps, events and kv rows.
 *
 * Reads of a file with exactly our schema skip SQLite altogether: the
 * read-only SQLite file reader (`src/sqlite/sqlite-file.ts`) decodes the
 * tables from the bytes; anything unexpected goes through sql.js.
 */
import { describeError } from "../errors/describe-error.js";
import { NomaError } from "../errors/noma-error.js";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Database, SqlJsStatic, SqlValue } from "sql.js";
import { loadSqlJs } from "../sqlite/load-sql-js.js";
import { rewriteSqliteFile } from "../sqlite/rewrite-sqlite-file.js";
import { declaredColumns, schemaObjects, sqlJsSchemaShapeProblem, type TableShapes } from "../sqlite/schema-shape.js";
import { SqliteFile, SqliteFormatError } from "../sqlite/sqlite-file.js";
import { crashPoint } from "./crash-point.js";
import { keepConnection, takeConnection } from "./kept-norma-connection.js";
import { rememberSchemaChecked, schemaCheckedBefore } from "./schema-checked-bytes.js";
import { abs, DB_LOCK, NORMA_DB } from "../layout/norma-layout.js";
import { NORMA_SCHEMA_VERSION, NORMA_TABLES, type EventRow, type RunRow, type StepRow } from "./norma-schema.js";

export class NormaDbError extends NomaError {
  static override readonly errorName: string = "NormaDbError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("norma-db", message, options);
  }
}

function rowsOf(db: Database, sql: string, params: SqlValue[] = []): Array<Record<string, SqlValue>> {
  const stmt = db.prepare(sql);
  try {
    stmt.bind(params);
    const out: Array<Record<string, SqlValue>> = [];
    while (stmt.step()) out.push(stmt.getAsObject());
    return out;
  } finally {
    stmt.free();
  }
}

/** A transaction on the open database: typed reads and writes of the spec's tables. */
export class NormaTx {
  constructor(readonly db: Database) {}

  run(runId: string): RunRow | null {
    const [r] = rowsOf(this.db, "SELECT * FROM runs WHERE run_id = ?", [runId]);
    return r !== undefined ? (r as unknown as RunRow) : null;
  }

  runs(): RunRow[] {
    return rowsOf(this.db, "SELECT * FROM runs ORDER BY created_at DESC, run_id DESC") as unknown as RunRow[];
  }

  steps(runId: string): StepRow[] {
    return rowsOf(this.db, "SELECT * FROM steps WHERE run_id = ? ORDER BY step_index", [runId]) as unknown as StepRow[];
  }

  events(runId: string): EventRow[] {
    return rowsOf(this.db, "SELECT * FROM events WHERE run_id = ? ORDER BY seq", [runId]) as unknown as EventRow[];
  }

  insertRun(r: RunRow): void {
    this.db.run("INSERT INTO runs (run_id, created_at, goal, status, iteration, current_step_index, verdict, run_dir) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
      r.run_id,
      r.created_at,
      r.goal,
      r.status,
      r.iteration,
      r.current_step_index,
      r.verdict,
      r.run_dir,
    ]);
  }

  updateRun(runId: string, patch: Partial<Omit<RunRow, "run_id">>): void {
    const keys = Object.keys(patch) as Array<keyof typeof patch>;
    if (keys.length === 0) return;
    this.db.run(`UPDATE runs SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE run_id = ?`, [...keys.map((k) => (patch[k] ?? null) as SqlValue), runId]);
  }

  insertStep(s: StepRow): void {
    this.db.run("INSERT INTO steps (run_id, step_index, role, iteration, status, step_dir, started_at, ended_at, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
      s.run_id,
      s.step_index,
      s.role,
      s.iteration,
      s.status,
      s.step_dir,
      s.started_at,
      s.ended_at,
      s.summary,
    ]);
  }

  updateStep(runId: string, index: number, patch: Partial<Pick<StepRow, "status" | "summary" | "ended_at">>): void {
    const keys = Object.keys(patch) as Array<keyof typeof patch>;
    if (keys.length === 0) return;
    this.db.run(`UPDATE steps SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE run_id = ? AND step_index = ?`, [
      ...keys.map((k) => (patch[k] ?? null) as SqlValue),
      runId,
      index,
    ]);
  }

  /** Append an event (seq = the run's last + 1); returns its seq. */
  event(runId: string, type: string, message: string, data?: unknown, ts: string = new Date().toISOString()): number {
    const [row] = rowsOf(this.db, "SELECT coalesce(max(seq), 0) + 1 AS next FROM events WHERE run_id = ?", [runId]);
    const seq = Number(row!["next"]);
    this.db.run("INSERT INTO events (run_id, seq, ts, type, message, data_json) VALUES (?, ?, ?, ?, ?, ?)", [
      runId,
      seq,
      ts,
      type,
      message,
      data === undefined ? null : JSON.stringify(data),
    ]);
    return seq;
  }

  setKv(runId: string, key: string, value: unknown): void {
    this.db.run("INSERT OR REPLACE INTO kv_run (run_id, key, value_json) VALUES (?, ?, ?)", [runId, key, JSON.stringify(value)]);
  }

  kv(runId: string, key: string): unknown {
    const [row] = rowsOf(this.db, "SELECT value_json FROM kv_run WHERE run_id = ? AND key = ?", [runId, key]);
    return row === undefined ? undefined : JSON.parse(String(row["value_json"]));
  }

  deleteRun(runId: string): void {
    this.db.run("DELETE FROM runs WHERE run_id = ?", [runId]);
  }
}

/** Our tables' columns as SQLite declares them, from the DDL itself (a scratch database, once). */
let normaShapes: TableShapes | undefined;

function tableShapes(SQL: SqlJsStatic): TableShapes {
  if (normaShapes !== undefined) return normaShapes;
  const ref = new SQL.Database();
  try {
    for (const t of NORMA_TABLES) ref.run(t.sql);
    normaShapes = new Map(NORMA_TABLES.map((t) => [t.name, [declaredColumns(ref, t.name).map((c) => c.name)]]));
  } finally {
    ref.close();
  }
  return normaShapes;
}

/**
 * Create the tables in an empty database, or check an existing one: its schema is ours (no
 * view, trigger or table we do not create: a trigger would run on every write, a recursive
 * view never finishes — sqlite/schema-shape.ts) and its version one this tool reads.
 */
function ensureSchema(SQL: SqlJsStatic, db: Database): void {
  const objects = schemaObjects(db);
  const tables = new Set(objects.filter((o) => o.type === "table").map((o) => o.name));
  if (!tables.has("schema_migrations")) {
    if (objects.length > 0)
      throw new NormaDbError(`${NORMA_DB} is an SQLite database without a schema_migrations table (not written by norma or noma-reconcile); move it aside`);
    for (const t of NORMA_TABLES) db.run(t.sql);
    db.run("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [NORMA_SCHEMA_VERSION, new Date().toISOString()]);
    return;
  }
  // A real table (a view of that name would not be in `tables`): reading it runs nothing of the file's.
  const [row] = rowsOf(db, "SELECT max(version) AS v FROM schema_migrations");
  const version = Number(row?.["v"] ?? 0);
  if (version > NORMA_SCHEMA_VERSION)
    throw new NormaDbError(`${NORMA_DB} has schema version ${version}, newer than this tool's ${NORMA_SCHEMA_VERSION}; upgrade noma-reconcile`);
  const shape = sqlJsSchemaShapeProblem(db, tableShapes(SQL));
  if (shape !== null)
    throw new NormaDbError(
      `${NORMA_DB} is not a run database norma or noma-reconcile writes (${shape}); move it aside to start a new one (the run records in .norma/runs stay)`,
    );
  for (const t of NORMA_TABLES)
    if (!tables.has(t.name))
      throw new NormaDbError(`${NORMA_DB} lacks the table ${t.name}; move it aside to start a new one (the run records in .norma/runs stay)`);
}

/** Open the bytes and check their schema (`file`: skipped when they are the very bytes this process last wrote there, schema-checked-bytes.ts). */
function openBytes(SQL: Awaited<ReturnType<typeof loadSqlJs>>, bytes: Uint8Array | null, file?: string): Database {
  let db: Database;
  try {
    db = bytes !== null && bytes.length > 0 ? new SQL.Database(bytes) : new SQL.Database();
    db.run("PRAGMA foreign_keys = ON");
    if (file === undefined || !schemaCheckedBefore(file, bytes)) ensureSchema(SQL, db);
  } catch (e) {
    if (e instanceof NormaDbError) throw e;
    throw new NormaDbError(
      `${NORMA_DB} is not a readable SQLite database (${describeError(e)}); move it aside to start a new one (the run records in .norma/runs stay)`,
      { cause: e },
    );
  }
  return db;
}

function readBytes(file: string): Uint8Array | null {
  try {
    return readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new NormaDbError(`cannot read ${NORMA_DB} (${describeError(e)})`, { cause: e });
  }
}

/**
 * Run `fn` as one transaction on `.norma/norma.db` (created on first use):
 * lock, re-read, apply, commit, write atomically (rewriteSqliteFile). `fn` runs
 * synchronously inside the lock; if it throws, nothing is written.
 */
export async function normaTransaction<T>(root: string, fn: (tx: NormaTx) => T): Promise<T> {
  mkdirSync(dirname(abs(root, DB_LOCK)), { recursive: true });
  const file = abs(root, NORMA_DB);
  return rewriteSqliteFile({
    file,
    lock: abs(root, DB_LOCK),
    unreadable: (e) => {
      throw new NormaDbError(`cannot read ${NORMA_DB} (${describeError(e)})`, { cause: e });
    },
    apply: (SQL, bytes) => {
      // The connection the last transaction of this process left open on these very bytes (kept-norma-connection.ts), else a new one.
      const db = takeConnection(file, bytes) ?? openBytes(SQL, bytes, file);
      let kept = false;
      try {
        db.run("BEGIN IMMEDIATE");
        let out: T;
        try {
          out = fn(new NormaTx(db));
          db.run("COMMIT");
        } catch (e) {
          db.run("ROLLBACK");
          throw e;
        }
        const exported = db.export();
        rememberSchemaChecked(file, exported);
        keepConnection(file, exported, db);
        kept = true;
        return { bytes: exported, result: out };
      } finally {
        if (!kept) db.close();
      }
    },
    beforeRename: () => crashPoint("db-before-rename"),
    writeError: (e) => new NormaDbError(`cannot write ${NORMA_DB} (${describeError(e)})`, { cause: e }),
  });
}

/** A consistent read of the whole state (the last committed file). */
export interface NormaState {
  runs: RunRow[];
  steps(runId: string): StepRow[];
  /** Step counts per run (one pass over the steps table). Every accessor returns fresh copies. */
  stepCounts(): Map<string, number>;
  events(runId: string): EventRow[];
  kv(runId: string): Map<string, unknown>;
}

const str = (v: unknown): string => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : Number(v ?? 0));

function byCreatedDesc(a: RunRow, b: RunRow): number {
  return a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.run_id < b.run_id ? 1 : a.run_id > b.run_id ? -1 : 0;
}

/** The fast path: our exact schema, decoded from the file's bytes without SQLite. */
function fastState(bytes: Buffer): NormaState | null {
  let f: SqliteFile;
  try {
    f = SqliteFile.open(bytes);
    const tables = [...f.schema.values()].filter((e) => e.type === "table");
    if (tables.length !== NORMA_TABLES.length) return null;
    // A view or a trigger: not ours; sql.js's reading refuses it (ensureSchema).
    if ([...f.schema.values()].some((e) => e.type !== "table" && e.type !== "index")) return null;
    for (const t of NORMA_TABLES) if (f.schema.get(t.name)?.sql !== t.sql) return null;
  } catch (e) {
    if (e instanceof SqliteFormatError) return null;
    throw e;
  }
  const runs = f.rows("runs").map(
    (r): RunRow => ({
      run_id: str(r.get(0)),
      created_at: str(r.get(1)),
      goal: str(r.get(2)),
      status: str(r.get(3)) as RunRow["status"],
      iteration: num(r.get(4)),
      current_step_index: num(r.get(5)),
      verdict: strOrNull(r.get(6)) as RunRow["verdict"],
      run_dir: str(r.get(7)),
    }),
  );
  runs.sort(byCreatedDesc);
  // Each table is decoded once, on first use, and grouped by run: recovery and `runs list` ask per run.
  const grouped = <T>(table: string, map: (r: ReturnType<SqliteFile["rows"]>[number]) => T): (() => Map<string, T[]>) => {
    let m: Map<string, T[]> | null = null;
    return () => {
      if (m !== null) return m;
      m = new Map();
      for (const r of f.rows(table)) {
        const id = str(r.get(0));
        let list = m.get(id);
        if (list === undefined) m.set(id, (list = []));
        list.push(map(r));
      }
      return m;
    };
  };
  const steps = grouped(
    "steps",
    (r): StepRow => ({
      run_id: str(r.get(0)),
      step_index: num(r.get(1)),
      role: str(r.get(2)) as StepRow["role"],
      iteration: num(r.get(3)),
      status: str(r.get(4)) as StepRow["status"],
      step_dir: str(r.get(5)),
      started_at: str(r.get(6)),
      ended_at: strOrNull(r.get(7)),
      summary: strOrNull(r.get(8)),
    }),
  );
  // Events are asked for one run at a time (runs show, run_status): only that run's rows are decoded past their first column.
  const eventsOf = (runId: string): EventRow[] =>
    f
      .rows("events")
      .filter((r) => r.get(0) === runId)
      .map(
        (r): EventRow => ({
          run_id: runId,
          seq: num(r.get(1)),
          ts: str(r.get(2)),
          type: str(r.get(3)),
          message: str(r.get(4)),
          data_json: strOrNull(r.get(5)),
        }),
      );
  const kv = grouped("kv_run", (r): [string, unknown] => [str(r.get(1)), JSON.parse(str(r.get(2))) as unknown]);
  return {
    runs,
    steps: (runId) => (steps().get(runId) ?? []).map((r) => ({ ...r })).sort((a, b) => a.step_index - b.step_index),
    // Counting needs only the run id column: no need to decode the whole table for `runs list`.
    stepCounts: () => {
      const out = new Map<string, number>();
      for (const r of f.rows("steps")) {
        const id = str(r.get(0));
        out.set(id, (out.get(id) ?? 0) + 1);
      }
      return out;
    },
    events: (runId) => eventsOf(runId).sort((a, b) => a.seq - b.seq),
    kv: (runId) => new Map(kv().get(runId) ?? []),
  };
}

/** Through sql.js (any version this tool can read). */
async function sqlJsState(bytes: Buffer): Promise<NormaState> {
  const SQL = await loadSqlJs();
  const db = openBytes(SQL, bytes);
  const tx = new NormaTx(db);
  const runs = tx.runs();
  const counts = new Map(rowsOf(db, "SELECT run_id, count(*) AS n FROM steps GROUP BY run_id").map((r) => [String(r["run_id"]), Number(r["n"])]));
  const steps = new Map(runs.map((r) => [r.run_id, tx.steps(r.run_id)]));
  const events = new Map(runs.map((r) => [r.run_id, tx.events(r.run_id)]));
  const kv = new Map(
    runs.map((r) => [
      r.run_id,
      new Map(
        rowsOf(db, "SELECT key, value_json FROM kv_run WHERE run_id = ?", [r.run_id]).map((x) => [
          String(x["key"]),
          JSON.parse(String(x["value_json"])) as unknown,
        ]),
      ),
    ]),
  );
  db.close();
  // Copies out: callers may change what they get (the state is cached by readNormaState).
  return {
    runs,
    steps: (id) => (steps.get(id) ?? []).map((r) => ({ ...r })),
    stepCounts: () => new Map(counts),
    events: (id) => (events.get(id) ?? []).map((e) => ({ ...e })),
    kv: (id) => new Map(kv.get(id) ?? []),
  };
}

/** The last state read, by file identity: the file is only ever replaced whole (rename), so a new write is a new inode. */
let lastRead: { file: string; key: string; state: NormaState } | null = null;

/** Read the committed state; null when there is no database yet. */
export async function readNormaState(root: string): Promise<NormaState | null> {
  const file = abs(root, NORMA_DB);
  let key: string;
  try {
    const st = statSync(file);
    key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
  if (lastRead !== null && lastRead.file === file && lastRead.key === key) return lastRead.state;
  const bytes = readBytes(file);
  if (bytes === null || bytes.length === 0) return null;
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  const state = fastState(buf) ?? (await sqlJsState(buf));
  lastRead = { file, key, state };
  return state;
}
