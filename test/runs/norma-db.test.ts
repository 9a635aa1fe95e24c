/**
 * `.norma/norma.db` with the real sql.js: the spec's tables, columns, keys and
 * cascades (norma §3), CHECK constraints, the fast reader agreeing with
 * sql.js, clear errors for damaged or newer files, and writers in several
 * processes at once losing nothing (each transaction is one locked
 * read-modify-write of the file).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { normaTransaction, readNormaState, NormaDbError } from "../../src/runs/norma-db.js";
import type { RunRow, StepRow } from "../../src/runs/norma-schema.js";
import { tempDir } from "../helpers/temp-repo.js";
import { runRow as run } from "./helpers/run-row.js";

const DIST_INDEX = fileURLToPath(new URL("../../dist/internal.js", import.meta.url));

/** schema_migrations re-created with other spacing: the same table, another text (no foreign key names it). */
const RESPELL = `ALTER TABLE schema_migrations RENAME TO old_migrations;
CREATE TABLE "schema_migrations" ( version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL );
INSERT INTO schema_migrations SELECT * FROM old_migrations; DROP TABLE old_migrations;`;

async function open(root: string) {
  const SQL = await initSqlJs();
  return new SQL.Database(readFileSync(join(root, ".norma/norma.db")));
}

describe(".norma/norma.db", () => {
  it("has exactly the spec's tables, columns, primary keys and ON DELETE CASCADE foreign keys", async () => {
    const root = tempDir();
    await normaTransaction(root, (tx) => tx.insertRun(run("20260105-100000-aaaaaa")));
    const db = await open(root);
    const cols = (t: string) =>
      db
        .exec(`PRAGMA table_info(${t})`)[0]!
        .values.map(
          ([, name, type, notnull, dflt, pk]) =>
            `${name} ${type}${notnull ? " NOT NULL" : ""}${dflt !== null ? ` DEFAULT ${dflt}` : ""}${pk ? ` PK${pk}` : ""}`,
        );
    expect(db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]!.values.flat()).toEqual([
      "events",
      "kv_run",
      "runs",
      "schema_migrations",
      "steps",
    ]);
    expect(cols("schema_migrations")).toEqual(["version INTEGER PK1", "applied_at TEXT NOT NULL"]);
    expect(cols("runs")).toEqual([
      "run_id TEXT PK1",
      "created_at TEXT NOT NULL",
      "goal TEXT NOT NULL",
      "status TEXT NOT NULL",
      "iteration INTEGER NOT NULL DEFAULT 0",
      "current_step_index INTEGER NOT NULL DEFAULT 0",
      "verdict TEXT",
      "run_dir TEXT NOT NULL",
    ]);
    expect(cols("steps")).toEqual([
      "run_id TEXT NOT NULL PK1",
      "step_index INTEGER NOT NULL PK2",
      "role TEXT NOT NULL",
      "iteration INTEGER NOT NULL",
      "status TEXT NOT NULL",
      "step_dir TEXT NOT NULL",
      "started_at TEXT NOT NULL",
      "ended_at TEXT",
      "summary TEXT",
    ]);
    expect(cols("events")).toEqual([
      "run_id TEXT NOT NULL PK1",
      "seq INTEGER NOT NULL PK2",
      "ts TEXT NOT NULL",
      "type TEXT NOT NULL",
      "message TEXT NOT NULL",
      "data_json TEXT",
    ]);
    expect(cols("kv_run")).toEqual(["run_id TEXT NOT NULL PK1", "key TEXT NOT NULL PK2", "value_json TEXT NOT NULL"]);
    for (const t of ["steps", "events", "kv_run"]) {
      const fk = db.exec(`PRAGMA foreign_key_list(${t})`)[0]!;
      const row = Object.fromEntries(fk.columns.map((c, i) => [c, fk.values[0]![i]]));
      expect(row, t).toMatchObject({ table: "runs", from: "run_id", to: "run_id", on_delete: "CASCADE" });
    }
    expect(db.exec("SELECT version FROM schema_migrations")[0]!.values).toEqual([[1]]);
    db.close();
  });

  it("deleting a run cascades to its steps, events and kv rows (foreign_keys is on for every transaction)", async () => {
    const root = tempDir();
    await normaTransaction(root, (tx) => {
      for (const id of ["20260105-100000-aaaaaa", "20260105-100001-bbbbbb"]) {
        tx.insertRun(run(id));
        tx.insertStep({
          run_id: id,
          step_index: 1,
          role: "plan",
          iteration: 1,
          status: "ok",
          step_dir: `.norma/runs/${id}/steps/001-plan`,
          started_at: "t",
          ended_at: null,
          summary: null,
        });
        tx.event(id, "run_started", "x", { a: 1 });
        tx.setKv(id, "criteria", [{ id: "AC1", text: "t" }]);
      }
    });
    await normaTransaction(root, (tx) => tx.deleteRun("20260105-100000-aaaaaa"));
    const s = (await readNormaState(root))!;
    expect(s.runs.map((r) => r.run_id)).toEqual(["20260105-100001-bbbbbb"]);
    const db = await open(root);
    for (const t of ["steps", "events", "kv_run"]) expect(db.exec(`SELECT DISTINCT run_id FROM ${t}`)[0]!.values.flat(), t).toEqual(["20260105-100001-bbbbbb"]);
    db.close();
    // A step of a run that does not exist is refused, and the failed transaction writes nothing.
    const before = readFileSync(join(root, ".norma/norma.db"));
    await expect(
      normaTransaction(root, (tx) =>
        tx.insertStep({ run_id: "nope", step_index: 1, role: "do", iteration: 1, status: "ok", step_dir: "x", started_at: "t", ended_at: null, summary: null }),
      ),
    ).rejects.toThrow(/FOREIGN KEY/);
    await expect(normaTransaction(root, (tx) => tx.updateRun("20260105-100001-bbbbbb", { status: "finished" as never }))).rejects.toThrow(/CHECK/);
    expect(readFileSync(join(root, ".norma/norma.db")).equals(before)).toBe(true);
  });

  it("the fast reader and sql.js read the same state", async () => {
    const root = tempDir();
    await normaTransaction(root, (tx) => {
      for (let i = 0; i < 30; i++) {
        const id = `20260105-1000${String(i).padStart(2, "0")}-${String(i).padStart(6, "0")}`;
        tx.insertRun({
          ...run(id, `2026-01-05T10:00:${String(i).padStart(2, "0")}.000Z`),
          status: i % 2 === 0 ? "passed" : "stopped",
          verdict: i % 2 === 0 ? "PASS" : "FAIL",
        });
        for (let k = 1; k <= 5; k++)
          tx.insertStep({
            run_id: id,
            step_index: k,
            role: (["plan", "do", "check", "act"] as const)[(k - 1) % 4]!,
            iteration: 1 + Math.floor((k - 1) / 4),
            status: "ok",
            step_dir: `d${k}`,
            started_at: "t",
            ended_at: k % 2 ? "e" : null,
            summary: k % 3 ? `s ${"x".repeat(k * 300)}` : null,
          });
        tx.event(id, "run_started", `m ${i}`, { big: "y".repeat(2000) });
        tx.setKv(id, "specs", [".notarai/a.spec.yaml"]);
      }
    });
    const fast = (await readNormaState(root))!;
    // Our schema spelled otherwise: not exactly our DDL, so the reader falls back to sql.js (an extra index would not: only tables are compared).
    const db = await open(root);
    db.run(RESPELL);
    mkdirSync(join(root, "copy/.norma"), { recursive: true });
    writeFileSync(join(root, "copy/.norma/norma.db"), db.export());
    db.close();
    const slow = (await readNormaState(join(root, "copy")))!;
    expect(fast.runs).toEqual(slow.runs);
    expect(fast.runs).toHaveLength(30);
    expect([...fast.stepCounts()].sort()).toEqual([...slow.stepCounts()].sort());
    for (const r of fast.runs) {
      expect(fast.steps(r.run_id)).toEqual(slow.steps(r.run_id));
      expect(fast.events(r.run_id)).toEqual(slow.events(r.run_id));
      expect([...fast.kv(r.run_id)]).toEqual([...slow.kv(r.run_id)]);
    }
    expect(fast.runs[0]!.created_at).toBe("2026-01-05T10:00:29.000Z");
  });

  it("the fast reader and sql.js read the same state, for any runs, steps, events and kv rows", async () => {
    const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 3000, size: "max" }));
    const stepArb = fc.record({
      role: fc.constantFrom("plan", "do", "check", "act") as fc.Arbitrary<StepRow["role"]>,
      iteration: fc.integer({ min: 1, max: 9 }),
      status: fc.constantFrom("ok", "fail", "skipped") as fc.Arbitrary<StepRow["status"]>,
      ended_at: fc.option(fc.constant("2026-01-05T11:00:00.000Z"), { nil: null }),
      summary: fc.option(text, { nil: null }),
    });
    const runArb = fc.record({
      // Few creation times: ties are ordered by run id.
      created: fc.constantFrom("2026-01-05T10:00:00.000Z", "2026-01-05T10:00:01.000Z", "2026-02-01T00:00:00.000Z"),
      status: fc.constantFrom("running", "passed", "failed", "stopped") as fc.Arbitrary<RunRow["status"]>,
      verdict: fc.constantFrom("PASS", "FAIL", null) as fc.Arbitrary<RunRow["verdict"]>,
      goal: text,
      steps: fc.array(stepArb, { maxLength: 6 }),
      events: fc.array(fc.tuple(fc.string({ maxLength: 8 }), text, fc.option(fc.jsonValue(), { nil: undefined })), { maxLength: 5 }),
      kv: fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue()), { selector: ([k]) => k, maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(runArb, { maxLength: 8 }), async (runs) => {
        const root = tempDir();
        await normaTransaction(root, (tx) => {
          runs.forEach((r, i) => {
            const id = `20260105-1000${String(i).padStart(2, "0")}-${String(runs.length - i).padStart(6, "0")}`;
            tx.insertRun({ ...run(id, r.created), status: r.status, verdict: r.verdict, goal: r.goal, current_step_index: r.steps.length });
            r.steps.forEach((st, k) => tx.insertStep({ run_id: id, step_index: k + 1, step_dir: `d${k}`, started_at: "t", ...st }));
            for (const [type, message, data] of r.events) tx.event(id, type, message, data, "2026-01-05T10:30:00.000Z");
            for (const [key, value] of r.kv) tx.setKv(id, key, value);
          });
        });
        const fast = (await readNormaState(root))!;
        // Our schema spelled otherwise: not exactly our DDL, so the reader falls back to sql.js (an extra index would not: only tables are compared).
        const db = await open(root);
        db.run(RESPELL);
        mkdirSync(join(root, "copy/.norma"), { recursive: true });
        writeFileSync(join(root, "copy/.norma/norma.db"), db.export());
        db.close();
        const slow = (await readNormaState(join(root, "copy")))!;
        expect(fast.runs).toEqual(slow.runs);
        expect(new Map(fast.stepCounts())).toEqual(new Map(slow.stepCounts()));
        for (const r of [...fast.runs, run("20260105-999999-nosuch")]) {
          expect(fast.steps(r.run_id)).toEqual(slow.steps(r.run_id));
          expect(fast.events(r.run_id)).toEqual(slow.events(r.run_id));
          expect(fast.kv(r.run_id)).toEqual(slow.kv(r.run_id));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("a damaged file, a foreign database or a newer schema is a clear error naming the file", async () => {
    const root = tempDir();
    mkdirSync(join(root, ".norma"), { recursive: true });
    writeFileSync(join(root, ".norma/norma.db"), "this is not sqlite at all, just text that happens to be here");
    await expect(normaTransaction(root, () => undefined)).rejects.toThrow(
      /^\.norma\/norma\.db is not a readable SQLite database \(.*\); move it aside to start a new one \(the run records in \.norma\/runs stay\)$/,
    );
    await expect(readNormaState(root)).rejects.toBeInstanceOf(NormaDbError);
    const SQL = await initSqlJs();
    const foreign = new SQL.Database();
    foreign.run("CREATE TABLE things (x)");
    writeFileSync(join(root, ".norma/norma.db"), foreign.export());
    await expect(normaTransaction(root, () => undefined)).rejects.toThrow(
      ".norma/norma.db is an SQLite database without a schema_migrations table (not written by norma or noma-reconcile); move it aside",
    );
    const newer = new SQL.Database();
    newer.run("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
    newer.run("INSERT INTO schema_migrations VALUES (7, 'now')");
    writeFileSync(join(root, ".norma/norma.db"), newer.export());
    await expect(normaTransaction(root, () => undefined)).rejects.toThrow(
      ".norma/norma.db has schema version 7, newer than this tool's 1; upgrade noma-reconcile",
    );
  });

  it("writers in three processes and in this one at once lose no row", async () => {
    const root = tempDir();
    await normaTransaction(root, (tx) => tx.insertRun(run("20260105-100000-aaaaaa")));
    const script = `const m = await import(${JSON.stringify(DIST_INDEX)}); for (let i = 0; i < 15; i++) await m.normaTransaction(process.argv[1], (tx) => tx.event("20260105-100000-aaaaaa", "w", process.argv[2] + ":" + i));`;
    const procs = ["a", "b", "c"].map(
      (w) =>
        new Promise<number | null>((resolve) => {
          const c = spawn(process.execPath, ["--input-type=module", "-e", script, root, w], { stdio: ["ignore", "ignore", "inherit"] });
          c.on("close", resolve);
        }),
    );
    const local = Promise.all(Array.from({ length: 15 }, (_, i) => normaTransaction(root, (tx) => tx.event("20260105-100000-aaaaaa", "w", `here:${i}`))));
    expect(await Promise.all(procs)).toEqual([0, 0, 0]);
    await local;
    const events = (await readNormaState(root))!.events("20260105-100000-aaaaaa");
    expect(events).toHaveLength(60);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    // Each process wrote in order; the fifteen concurrent transactions here may take the lock in any order.
    for (const w of ["a", "b", "c"])
      expect(events.filter((e) => e.message.startsWith(`${w}:`)).map((e) => e.message)).toEqual(Array.from({ length: 15 }, (_, i) => `${w}:${i}`));
    expect(
      events
        .filter((e) => e.message.startsWith("here:"))
        .map((e) => e.message)
        .sort(),
    ).toEqual(Array.from({ length: 15 }, (_, i) => `here:${i}`).sort());
  });
});
