/**
 * Concurrency: the O_EXCL lock (mutual exclusion across real processes, stale
 * locks of dead processes and old locks broken, timeouts, release on throw),
 * and real CLI processes marking files at the same time without losing rows.
 */
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readCache } from "../../src/cache/read-cache.js";
import { acquireFileLockSync, LockTimeoutError, withFileLock, withFileLockSync } from "../../src/fsx/with-file-lock.js";
import { getChangedArtifacts } from "../../src/reconcile/get-changed-artifacts.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { runCliAsync } from "./helpers/repo-ops.js";

const DIST_INDEX = fileURLToPath(new URL("../../dist/internal.js", import.meta.url));

describe("withFileLock", () => {
  it("excludes real processes from each other: no lost increments", async () => {
    const dir = tempDir();
    const counter = join(dir, "counter");
    writeFileSync(counter, "0");
    const script = `
      import { withFileLockSync } from ${JSON.stringify(DIST_INDEX)};
      import { readFileSync, writeFileSync } from "node:fs";
      for (let i = 0; i < 40; i++) {
        withFileLockSync(${JSON.stringify(join(dir, "counter.lock"))}, () => {
          const n = Number(readFileSync(${JSON.stringify(counter)}, "utf8"));
          writeFileSync(${JSON.stringify(counter)}, String(n + 1));
        });
      }`;
    const procs = Array.from(
      { length: 4 },
      () =>
        new Promise<number>((resolve, reject) => {
          const c = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "inherit"] });
          c.on("error", reject);
          c.on("close", (code) => resolve(code ?? -1));
        }),
    );
    expect(await Promise.all(procs)).toEqual([0, 0, 0, 0]);
    expect(readFileSync(counter, "utf8")).toBe("160");
    expect(existsSync(join(dir, "counter.lock"))).toBe(false);
  });

  it("breaks the lock of a dead process, and a lock from another host not refreshed for staleMs", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    writeFileSync(lock, JSON.stringify({ pid: dead, host: hostname(), token: "t", created: Date.now() }));
    expect(withFileLockSync(lock, () => "ran", { timeoutMs: 2_000 })).toBe("ran");
    // An owner on another host that stopped refreshing its lock (its mtime) two minutes ago.
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: "elsewhere", token: "t", created: Date.now() - 120_000 }));
    utimesSync(lock, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(withFileLockSync(lock, () => "ran again", { timeoutMs: 2_000 })).toBe("ran again");
    writeFileSync(lock, "garbage");
    utimesSync(lock, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    expect(withFileLockSync(lock, () => "unreadable owner, old file", { timeoutMs: 2_000 })).toBe("unreadable owner, old file");
  });

  it("times out on a live holder, naming it", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const release = acquireFileLockSync(lock);
    try {
      expect(() => withFileLockSync(lock, () => 1, { timeoutMs: 150, staleMs: 60_000 })).toThrow(LockTimeoutError);
      expect(() => withFileLockSync(lock, () => 1, { timeoutMs: 50 })).toThrow(new RegExp(`pid ${process.pid}`));
    } finally {
      release();
    }
    expect(withFileLockSync(lock, () => "free")).toBe("free");
  });

  it("releases on throw (sync and async)", async () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    expect(() =>
      withFileLockSync(lock, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(existsSync(lock)).toBe(false);
    await expect(
      withFileLock(lock, async () => {
        throw new Error("async boom");
      }),
    ).rejects.toThrow("async boom");
    expect(existsSync(lock)).toBe(false);
    expect(await withFileLock(lock, async () => 42)).toBe(42);
  });
});

describe("two processes marking at once", () => {
  it("never lose each other's rows", async () => {
    const tree: Record<string, string> = {
      ".notarai/a.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
      ".notarai/b.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
    };
    for (let i = 0; i < 24; i++) tree[`src/f${String(i).padStart(2, "0")}.ts`] = `file ${i}\n`;
    const root = tempRepo(tree);
    const files = Object.keys(tree).filter((p) => p.startsWith("src/"));
    // Two writers, each running several CLI processes that overlap in time.
    const jobs = files.map((f, i) => runCliAsync(["mark-reconciled", f, ...(i % 2 === 0 ? ["--spec", ".notarai/a.spec.yaml"] : [])], root));
    const results = await Promise.all(jobs);
    for (const r of results) {
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
    }
    const cache = await readCache(root);
    const a = cache.reconciled.get(".notarai/a.spec.yaml")!;
    const b = cache.reconciled.get(".notarai/b.spec.yaml")!;
    expect([...a.keys()].sort()).toEqual(files);
    expect([...b.keys()].sort()).toEqual(files.filter((_, i) => i % 2 === 1));
    expect((await getChangedArtifacts(root, { specPath: ".notarai/a.spec.yaml" })).changed_artifacts).toEqual([]);
    expect(existsSync(join(root, ".notarai/.cache/notarai.db.lock"))).toBe(false);
  });

  it("never lose rows when markers and readers that learn hashes (and prune) write the same chunks at once", async () => {
    const tree: Record<string, string> = { ".notarai/a.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }) };
    for (let i = 0; i < 30; i++) tree[`src/f${String(i).padStart(2, "0")}.ts`] = `file ${i}\n`;
    const root = tempRepo(tree);
    const files = Object.keys(tree)
      .filter((p) => p.startsWith("src/"))
      .sort();
    // Every `changed` hashes what it finds unreconciled and writes the blob ids it learnt (and prunes), while the markers write records.
    for (let i = 0; i < 6; i++) writeFileSync(join(root, `src/u${i}.ts`), `untracked ${i}\n`);
    const marks = [0, 1, 2].map((k) => runCliAsync(["mark-reconciled", ...files.filter((_, i) => i % 3 === k)], root));
    const reads = [0, 1, 2].map(() => runCliAsync(["changed", "--spec", ".notarai/a.spec.yaml"], root));
    for (const r of await Promise.all([...marks, ...reads])) {
      expect(r.stderr.replace(/^\d+ changed artifacts? for .*\n$/m, "")).toBe("");
      expect(r.code).toBe(0);
    }
    const cache = await readCache(root);
    expect([...cache.reconciled.get(".notarai/a.spec.yaml")!.keys()].sort()).toEqual(files);
    const left = (await getChangedArtifacts(root, { specPath: ".notarai/a.spec.yaml" })).changed_artifacts;
    expect(left).toEqual(Array.from({ length: 6 }, (_, i) => `src/u${i}.ts`));
  });

  it("two baselines of different specs at once: both specs' records kept, and the snapshot written last holds both", async () => {
    const tree: Record<string, string> = {
      ".notarai/a.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
      ".notarai/b.spec.yaml": specYaml({ artifacts: { docs: ["docs/**"] } }),
    };
    for (let i = 0; i < 20; i++) {
      tree[`src/f${String(i).padStart(2, "0")}.ts`] = `file ${i}\n`;
      tree[`docs/d${String(i).padStart(2, "0")}.md`] = `doc ${i}\n`;
    }
    const root = tempRepo(tree);
    const runs = await Promise.all(
      [".notarai/a.spec.yaml", ".notarai/b.spec.yaml"].map((spec) => runCliAsync(["mark-reconciled", "--all", "--spec", spec], root)),
    );
    for (const r of runs) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    const snap = JSON.parse(readFileSync(join(root, ".notarai/reconciliation_state.json"), "utf8")) as {
      file_fingerprints: Record<string, unknown>;
      spec_fingerprints: Record<string, string>;
    };
    expect(Object.keys(snap.spec_fingerprints)).toEqual([".notarai/a.spec.yaml", ".notarai/b.spec.yaml"]);
    expect(Object.keys(snap.file_fingerprints)).toEqual(
      Object.keys(tree)
        .filter((p) => !p.startsWith(".notarai/"))
        .sort(),
    );
    for (const spec of [".notarai/a.spec.yaml", ".notarai/b.spec.yaml"])
      expect((await getChangedArtifacts(root, { specPath: spec })).changed_artifacts).toEqual([]);
    expect(existsSync(join(root, ".notarai/.cache/reconciliation_state.json.lock"))).toBe(false);
  });
});
