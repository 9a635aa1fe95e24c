/**
 * The warm path of `changed`: runs of git's listing equal to stored chunks are
 * skipped whole, everything else is looked at line by line, and the answers
 * are those of the plain definition (hash the file, compare with the records)
 * whatever git says about each file: edited, staged, chmod'ed, deleted,
 * intent-to-add, skip-worktree, conflicted, untracked, or recorded only for
 * every spec. Also: a file the page reader does not expect is read through
 * SQLite (the reader itself against SQLite: test/sqlite/sqlite-file.test.ts).
 */
import { describe, expect, it } from "vitest";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import initSqlJs from "sql.js";
import { CACHE_DB_PATH } from "../../src/cache/cache-db-path.js";
import { readCache } from "../../src/cache/read-cache.js";
import { writeCache } from "../../src/cache/write-cache.js";
import { blake3Hex, getChangedArtifacts, markReconciled } from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { commitAll, remove, warnings, write } from "./helpers/repo-ops.js";

const SPEC = ".notarai/app.spec.yaml";

/** `changed` by its definition: governed (src/**) files whose current bytes hash to no record of theirs. */
async function reference(root: string, records: Map<string, string>): Promise<string[]> {
  const listed = git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "src"])
    .split("\0")
    .filter((p) => p.length > 0);
  const out: string[] = [];
  for (const p of [...new Set(listed)].sort()) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, p));
    } catch {
      continue; // deleted: not an existing artifact
    }
    if (records.get(p) !== (await blake3Hex(bytes))) out.push(p);
  }
  return out;
}

function repo(n: number): { root: string; files: string[] } {
  const tree: Record<string, string> = { [SPEC]: specYaml() };
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = `src/d${i % 7}/f${String(i).padStart(4, "0")}.txt`;
    tree[p] = `file ${i}\n`;
    files.push(p);
  }
  return { root: tempRepo(tree), files };
}

describe("changed, warm", () => {
  it("agrees with the definition after every kind of change git can report", async () => {
    const { root, files } = repo(60);
    await markReconciled(root, { files });
    const records = new Map<string, string>();
    for (const f of files) records.set(f, await blake3Hex(readFileSync(join(root, f))));
    const check = async () => expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(await reference(root, records));
    await check();
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);

    write(root, files[3]!, "edited\n"); // work tree only
    await check();
    write(root, files[5]!, "staged\n");
    git(root, ["add", files[5]!]); // index differs from the record
    await check();
    chmodSync(join(root, files[7]!), 0o755);
    git(root, ["add", files[7]!]); // mode changes, content does not: still reconciled
    await check();
    remove(root, files[9]!); // deleted in the work tree
    await check();
    write(root, "src/new/added.txt", "new\n");
    git(root, ["add", "-N", "src/new/added.txt"]); // intent to add
    await check();
    write(root, "src/untracked.txt", "u\n");
    await check();
    git(root, ["update-index", "--skip-worktree", files[11]!]);
    write(root, files[11]!, "hidden edit\n");
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toContain(files[11]!);
    git(root, ["update-index", "--no-skip-worktree", files[11]!]);
    write(root, files[11]!, `file 11\n`);
    await check();
    // Reconciling the edits makes them reconciled again, and the untracked file's stat signature is trusted only once settled.
    await markReconciled(root, { files: [files[3]!, files[5]!, "src/untracked.txt"] });
    for (const f of [files[3]!, files[5]!, "src/untracked.txt"]) records.set(f, await blake3Hex(readFileSync(join(root, f))));
    await check();
  });

  it("a conflicted file is changed until resolved and reconciled", async () => {
    const { root, files } = repo(12);
    await markReconciled(root, { files });
    const target = files[4]!;
    git(root, ["checkout", "-qb", "left"]);
    write(root, target, "left\n");
    commitAll(root, "left");
    git(root, ["checkout", "-q", "main"]);
    write(root, target, "right\n");
    commitAll(root, "right");
    try {
      git(root, ["merge", "-q", "left"]);
    } catch {
      /* conflict expected */
    }
    expect(git(root, ["ls-files", "-u"]).length).toBeGreaterThan(0);
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([target]);
  });

  it("records for every spec inside a run of the spec's own are still seen (no bulk skip over them)", async () => {
    const { root, files } = repo(30);
    await markReconciled(root, { files: files.filter((_, i) => i !== 10) });
    // A row valid for every spec, in the middle of the spec's own records: file 10 is reconciled only through it.
    const hash = await blake3Hex(readFileSync(join(root, files[10]!)));
    await writeCache(root, { reconciled: [{ spec: "*", path: files[10]!, hash, blob: null }] });
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);
    write(root, files[10]!, "changed\n");
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([files[10]!]);
  });

  it("counts spec files git does not track yet: the spec itself, a system spec's exclude, an invalid one's warning (once)", async () => {
    const root = tempRepo({ "src/a.txt": "a\n", "src/gen/b.txt": "b\n", "README.md": "r\n" });
    write(root, SPEC, specYaml());
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual(["src/a.txt", "src/gen/b.txt"]);
    write(root, ".notarai/system.spec.yaml", specYaml({ subsystems: ["./app.spec.yaml"], exclude: ["src/gen/**"], artifacts: { docs: ["README.md"] } }));
    write(root, ".notarai/broken.spec.yaml", "schema_version: 0.7\n");
    const w = warnings();
    expect((await getChangedArtifacts(root, { specPath: SPEC }, { onWarning: w.onWarning })).changed_artifacts).toEqual(["src/a.txt"]);
    expect(w.list.filter((m) => m.includes("broken.spec.yaml"))).toHaveLength(1);
    await expect(getChangedArtifacts(root, { specPath: ".notarai/none.spec.yaml" })).rejects.toThrow(/not a spec file/);
  });

  it("the CLI gives the library's answer (the listing and the records started before the tool loads)", async () => {
    const { root, files } = repo(20);
    await markReconciled(root, { files });
    write(root, files[2]!, "x\n");
    write(root, "src/zz-new.txt", "n\n");
    const r = runCli(["changed", "--spec", SPEC, "--format", "json"], { cwd: root });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result.changed_artifacts).toEqual((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts);
    expect(JSON.parse(r.stdout).result.changed_artifacts).toEqual([files[2]!, "src/zz-new.txt"].sort());
  });
});

describe("reading the database file without SQLite", () => {
  it("declines a schema that is not exactly the cache's, and the cache then reads through SQLite", async () => {
    const { root, files } = repo(8);
    await markReconciled(root, { files });
    const bytes = readFileSync(join(root, CACHE_DB_PATH));
    // Our table created by other text (spacing, quotes): not read directly; SQLite reads the same records.
    const SQL = await initSqlJs();
    const db = new SQL.Database(bytes);
    db.run(
      `ALTER TABLE nr_meta RENAME TO old_meta; CREATE TABLE "nr_meta" ( key TEXT PRIMARY KEY, value TEXT NOT NULL ) WITHOUT ROWID;
       INSERT INTO nr_meta SELECT * FROM old_meta; DROP TABLE old_meta;`,
    );
    writeFileSync(join(root, CACHE_DB_PATH), db.export());
    const cache = await readCache(root);
    expect(cache.status).toBe("ok");
    expect([...cache.reconciled.get(SPEC)!.keys()]).toEqual([...files].sort());
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);
  });
});
