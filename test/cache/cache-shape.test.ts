/**
 * A database file whose schema is not one we create (issue 33, item 5). The cache
 * `.notarai/.cache/notarai.db` is a file anyone can replace: with its tables turned into
 * recursive views, `changed` never finished and `mark-reconciled` grew past 2 GB. Only our
 * tables with our columns (and indexes on them) are accepted; anything else — a view, a
 * trigger, a table we do not create, other columns — reads as a cold cache with a warning
 * naming it, and the next write replaces the file. `.norma/norma.db` is checked the same way,
 * and refused (never replaced: it holds the run history).
 *
 * Every hostile file runs through the real CLI in a child process bounded by the test itself:
 * a time limit (the process is killed past it, and the test fails) and its peak resident set
 * (getrusage's ru_maxrss, written by a module preloaded into the CLI when it exits).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs from "sql.js";
import { describe, expect, it } from "vitest";
import { CACHE_DB_PATH } from "../../src/cache/cache-db-path.js";
import { markReconciled } from "../../src/reconcile/mark-reconciled.js";
import { normaTransaction } from "../../src/runs/norma-db.js";
import { CLI } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";

const SPEC = ".notarai/app.spec.yaml";
const FILES = ["src/a.ts", "src/b.ts", "src/c.ts"];
/** Seconds a command may take on a hostile file (a healthy run takes about one). */
const TIME_LIMIT_MS = 60_000;
/** Peak resident set a command may reach (a healthy run peaks near 100 MiB; the views grew past 2 GB). */
const MEMORY_LIMIT_MIB = 400;

const REPORTER = `process.on("exit", () => require("node:fs").writeFileSync(process.env.NOMA_TEST_MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`;

interface Bounded {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI in `cwd`, killed past TIME_LIMIT_MS; fails the test past either bound. */
function bounded(args: string[], cwd: string): Bounded {
  const dir = tempDir("nr-rss-");
  writeFileSync(join(dir, "reporter.cjs"), REPORTER);
  const rssFile = join(dir, "max-rss");
  const r = spawnSync(process.execPath, ["--require", join(dir, "reporter.cjs"), CLI, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", NOMA_TEST_MAX_RSS_FILE: rssFile },
    encoding: "utf8",
    timeout: TIME_LIMIT_MS,
    killSignal: "SIGKILL",
    maxBuffer: 1 << 26,
  });
  expect(r.signal, `${args.join(" ")}: killed after ${TIME_LIMIT_MS / 1000} s`).toBeNull();
  const rssMiB = Number(readFileSync(rssFile, "utf8")) / 1024;
  expect(rssMiB, `${args.join(" ")}: peak resident set in MiB`).toBeLessThan(MEMORY_LIMIT_MIB);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A repository whose cache holds marks for src/a.ts and src/b.ts (and NotarAI's rows, and a memo). */
async function marked(): Promise<{ root: string; db: Uint8Array }> {
  const root = tempRepo({ [SPEC]: specYaml(), ...Object.fromEntries(FILES.map((f) => [f, `export const x = "${f}";\n`])) });
  await markReconciled(root, { files: ["src/a.ts", "src/b.ts"], specPath: SPEC });
  return { root, db: readFileSync(join(root, CACHE_DB_PATH)) };
}

/** The healthy cache with `sql` run on it. */
async function altered(db: Uint8Array, sql: string): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const d = new SQL.Database(Uint8Array.from(db)); // a copy: sql.js may keep (and change) the array it is given
  try {
    d.run(sql);
    return d.export();
  } finally {
    d.close();
  }
}

const ENDLESS = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)";

/** Issue 33's input: every table of ours a recursive view of the same name and columns, rows without end. */
const RECURSIVE_VIEWS = `
DROP TABLE file_cache;
CREATE VIEW file_cache(path, blake3_hash, updated_at) AS ${ENDLESS} SELECT 'src/' || i, printf('%064d', i), i FROM r;
DROP TABLE nr_reconciled_chunk;
CREATE VIEW nr_reconciled_chunk(spec, first_path, n, sums, lines, hashes, updated) AS ${ENDLESS}
  SELECT '${SPEC}', 'src/' || i, 1, randomblob(32), randomblob(64), randomblob(32), randomblob(4) FROM r;
DROP TABLE nr_blob_hash_chunk;
CREATE VIEW nr_blob_hash_chunk(first_blob, n, sums, blobs, hashes) AS ${ENDLESS} SELECT printf('%040d', i), 1, randomblob(24), randomblob(20), randomblob(32) FROM r;
DROP TABLE nr_stat_hash_chunk;
CREATE VIEW nr_stat_hash_chunk(first_path, n, sums, paths, stats, hashes) AS ${ENDLESS}
  SELECT 'src/' || i, 1, randomblob(32), randomblob(8), randomblob(32), randomblob(32) FROM r;
`;

/** What a command that reads, then writes, the cache says of a file whose schema is not ours. */
function hostileWarnings(problem: string): string[] {
  return [
    `noma-reconcile: warning: cache ${CACHE_DB_PATH} is not a cache this tool writes (${problem}); treating it as cold (the next write replaces it)`,
    `noma-reconcile: warning: cache ${CACHE_DB_PATH} was corrupt (${problem}); starting a new one`,
  ];
}

describe("a cache whose tables are recursive views (the input of issue 33)", () => {
  it("changed answers from a cold cache, cache status says why, mark-reconciled starts a new cache: each bounded in time and memory", async () => {
    const { root, db } = await marked();
    const hostile = await altered(db, RECURSIVE_VIEWS);
    const problem = 'a view named "file_cache"';

    writeFileSync(join(root, CACHE_DB_PATH), hostile);
    const status = bounded(["cache", "status", "--format", "json"], root);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).result).toMatchObject({ status: "unreadable", warning: `${CACHE_DB_PATH} is not a cache this tool writes (${problem})` });

    // changed reads it as cold, then keeps its hash memo: in a new cache.
    const changed = bounded(["changed", "--spec", SPEC], root);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toBe(FILES.map((f) => `${f}\n`).join(""));
    expect(changed.stderr.split("\n")).toEqual([...hostileWarnings(problem), `${FILES.length} changed artifacts for ${SPEC}.`, ""]);

    writeFileSync(join(root, CACHE_DB_PATH), hostile);
    const mark = bounded(["mark-reconciled", "src/c.ts", "--spec", SPEC], root);
    expect(mark.code, mark.stderr).toBe(0);
    expect(mark.stderr.split("\n")).toEqual([...hostileWarnings(problem), ""]);
    expect(readFileSync(join(root, CACHE_DB_PATH)).length).toBeLessThan(64 * 1024);
    expect(bounded(["changed", "--spec", SPEC], root)).toEqual({ code: 0, stdout: "src/a.ts\nsrc/b.ts\n", stderr: `2 changed artifacts for ${SPEC}.\n` });
    expect(JSON.parse(bounded(["cache", "status", "--format", "json"], root).stdout).result.status).toBe("ok");
  });
});

describe("any other schema that is not ours", () => {
  const cases: Array<[string, string, string]> = [
    [
      "a trigger that multiplies every write",
      `CREATE TRIGGER grow AFTER INSERT ON nr_meta BEGIN INSERT INTO file_cache SELECT 'x/' || i, '', 0 FROM (${ENDLESS} SELECT i FROM r LIMIT 100000000); END;`,
      'a trigger named "grow"',
    ],
    ["a view under a name of its own", `CREATE VIEW forever AS ${ENDLESS} SELECT i FROM r;`, 'a view named "forever"'],
    ["a table we do not create", "CREATE TABLE notes(x);", 'a table "notes" this tool does not create'],
    [
      "one of our tables with other columns",
      "DROP TABLE nr_meta; CREATE TABLE nr_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL, extra TEXT); INSERT INTO nr_meta VALUES ('schema_version', '3', ''), ('seeded', '1', '');",
      'table "nr_meta" has the columns (key, value, extra), not (key, value)',
    ],
    [
      "a chunk table of schema 2 in a file that says schema 3",
      "DROP TABLE nr_stat_hash_chunk; CREATE TABLE nr_stat_hash_chunk(first_path TEXT NOT NULL PRIMARY KEY, n INTEGER NOT NULL, paths BLOB NOT NULL, stats BLOB NOT NULL, hashes BLOB NOT NULL);",
      "schema version 3 with schema 2's nr_stat_hash_chunk",
    ],
  ];

  it.each(cases)("%s: read as cold with a warning naming it, replaced by the next write", async (_, sql, problem) => {
    const { root, db } = await marked();
    const hostile = await altered(db, sql);
    writeFileSync(join(root, CACHE_DB_PATH), hostile);
    const changed = bounded(["changed", "--spec", SPEC], root);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toBe(FILES.map((f) => `${f}\n`).join(""));
    expect(changed.stderr.split("\n")).toEqual([...hostileWarnings(problem), `${FILES.length} changed artifacts for ${SPEC}.`, ""]);
    writeFileSync(join(root, CACHE_DB_PATH), hostile);
    const mark = bounded(["mark-reconciled", "src/c.ts", "--spec", SPEC], root);
    expect(mark.code, mark.stderr).toBe(0);
    expect(mark.stderr.split("\n")).toEqual([...hostileWarnings(problem), ""]);
    expect(readFileSync(join(root, CACHE_DB_PATH)).length).toBeLessThan(64 * 1024);
    expect(bounded(["changed", "--spec", SPEC], root)).toEqual({ code: 0, stdout: "src/a.ts\nsrc/b.ts\n", stderr: `2 changed artifacts for ${SPEC}.\n` });
  });

  it("a schema ours in all but the text of its CREATE statements is read, and kept, as it is", async () => {
    const { root, db } = await marked();
    // Other spacing and quoting: the file reader declines it (it compares the text), sql.js reads it.
    const respelled = await altered(
      db,
      `ALTER TABLE nr_meta RENAME TO old_meta; CREATE TABLE "nr_meta" ( key TEXT PRIMARY KEY, value TEXT NOT NULL ) WITHOUT ROWID;
       INSERT INTO nr_meta SELECT * FROM old_meta; DROP TABLE old_meta; CREATE INDEX by_time ON file_cache(updated_at);`,
    );
    writeFileSync(join(root, CACHE_DB_PATH), respelled);
    expect(bounded(["changed", "--spec", SPEC], root)).toEqual({ code: 0, stdout: "src/c.ts\n", stderr: `1 changed artifact for ${SPEC}.\n` });
    const mark = bounded(["mark-reconciled", "src/c.ts", "--spec", SPEC], root);
    expect(mark).toMatchObject({ code: 0, stderr: "" });
    expect(bounded(["changed", "--spec", SPEC], root)).toEqual({ code: 0, stdout: "", stderr: `0 changed artifacts for ${SPEC}.\n` });
  });
});

describe("the run database .norma/norma.db", () => {
  it("with a trigger or a recursive view in it, runs list refuses it naming what it found, and leaves it as it was", async () => {
    const root = tempRepo({ "README.md": "runs\n" });
    await normaTransaction(root, (tx) =>
      tx.insertRun({
        run_id: "20260105-100000-aaaaaa",
        created_at: "2026-01-05T10:00:00.000Z",
        goal: "a goal",
        status: "passed",
        iteration: 1,
        current_step_index: 0,
        verdict: "PASS",
        run_dir: ".norma/runs/20260105-100000-aaaaaa",
      }),
    );
    const file = join(root, ".norma/norma.db");
    const healthy = readFileSync(file);
    const listed = bounded(["runs", "list", "--format", "json"], root);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).result.runs.map((r: { run_id: string }) => r.run_id)).toEqual(["20260105-100000-aaaaaa"]);
    for (const [sql, problem] of [
      [
        `CREATE TRIGGER grow AFTER INSERT ON events BEGIN INSERT INTO kv_run SELECT NEW.run_id, 'k' || i, '1' FROM (${ENDLESS} SELECT i FROM r); END;`,
        'a trigger named "grow"',
      ],
      [`CREATE VIEW forever AS ${ENDLESS} SELECT i FROM r;`, 'a view named "forever"'],
    ] as const) {
      const hostile = await altered(healthy, sql);
      writeFileSync(file, hostile);
      const r = bounded(["runs", "list"], root);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `noma-reconcile: .norma/norma.db is not a run database norma or noma-reconcile writes (${problem}); move it aside to start a new one (the run records in .norma/runs stay)\n`,
      );
      expect(readFileSync(file).equals(Buffer.from(hostile))).toBe(true);
    }
  });
});
