/**
 * A damaged cache DB is a cold cache with a warning — never an exit 2, never a
 * wrong "reconciled". Every chunk carries checksums of its key range and of
 * each column, so one flipped bit anywhere in a record (its lines, its
 * hashes, its times) is caught; damage elsewhere in the file (SQLite's own
 * structures) is caught by the file reader or SQLite. `mark-reconciled` then
 * writes a healthy DB. Real repositories, the real sql.js, the real CLI.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CACHE_DB_PATH } from "../../src/cache/cache-db-path.js";
import { cacheStats } from "../../src/cache/cache-stats.js";
import { readCache } from "../../src/cache/read-cache.js";
import { getChangedArtifacts } from "../../src/reconcile/get-changed-artifacts.js";
import { markReconciled } from "../../src/reconcile/mark-reconciled.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";
import { warnings, write } from "../reconcile/helpers/repo-ops.js";

const SPEC = ".notarai/app.spec.yaml";
const FILES = Array.from({ length: 12 }, (_, i) => `src/f${String(i).padStart(2, "0")}.ts`);
const CHANGED = ["src/f03.ts", "src/f07.ts"];

/** A repository with every file reconciled (a healthy DB), then two files edited. */
async function project(): Promise<{ root: string; healthy: Buffer }> {
  const root = tempRepo({ [SPEC]: specYaml({ artifacts: { code: ["src/**"] } }), ...Object.fromEntries(FILES.map((f) => [f, `export const x = "${f}";\n`])) });
  await markReconciled(root, { files: FILES, specPath: SPEC });

  for (const f of CHANGED) write(root, f, "edited\n");
  // Learn the memo once, so the healthy DB holds every table.
  await getChangedArtifacts(root, { specPath: SPEC });
  return { root, healthy: readFileSync(join(root, CACHE_DB_PATH)) };
}

/** Byte ranges of the spec's reconciled chunk in the file: its lines and its hashes. */
async function recordRanges(root: string, db: Buffer): Promise<Array<[number, number]>> {
  const lines = db.indexOf(Buffer.from(`H 100644 `));
  const endLines = db.indexOf(Buffer.from(`${FILES[FILES.length - 1]}\0`), lines) + FILES[FILES.length - 1]!.length + 1;
  const read = await readCache(root, { specs: [SPEC] });
  const first = read.reconciled.get(SPEC)!.get(FILES[0]!)!.hash;
  const hashes = db.indexOf(Buffer.from(first, "hex"));
  expect(lines).toBeGreaterThan(0);
  expect(hashes).toBeGreaterThan(0);
  return [
    [lines, endLines],
    [hashes, hashes + 32 * FILES.length + 4 * FILES.length], // the hashes, then the times
  ];
}

async function expectHealthyAfterMark(root: string): Promise<void> {
  const w = warnings();
  await markReconciled(root, { files: [FILES[0]!], specPath: SPEC }, { onWarning: w.onWarning });
  const stats = await cacheStats(root);
  expect(stats.status, JSON.stringify(stats)).toBe("ok");
  const after = warnings();
  const r = await getChangedArtifacts(root, { specPath: SPEC }, { onWarning: after.onWarning });
  expect(after.list).toEqual([]);
  expect(r.changed_artifacts).not.toContain(FILES[0]);
}

describe("a damaged cache DB", () => {
  it("one flipped bit anywhere in a record: changed treats the cache as cold, with a warning; mark-reconciled rewrites a healthy DB", async () => {
    const { root, healthy } = await project();
    const ranges = await recordRanges(root, healthy);
    const positions = fc.sample(
      fc.constantFrom(...ranges).chain(([a, b]) => fc.tuple(fc.integer({ min: a, max: b - 1 }), fc.integer({ min: 0, max: 7 }))),
      { numRuns: 24, seed: 15 },
    );
    for (const [at, bit] of positions) {
      const bytes = Buffer.from(healthy);
      bytes[at]! ^= 1 << bit;
      writeFileSync(join(root, CACHE_DB_PATH), bytes);
      const w = warnings();
      const r = await getChangedArtifacts(root, { specPath: SPEC, artifactType: "code" }, { onWarning: w.onWarning, readOnly: true });
      expect(w.list.join("\n"), `bit ${bit} of byte ${at}`).toMatch(/cache .*(checksum|not a readable|could not be read|corrupt)/i);
      expect(r.changed_artifacts, `bit ${bit} of byte ${at}`).toEqual(FILES);
    }
    await expectHealthyAfterMark(root);
  });

  it("random bit flips, byte changes and truncations: exit 0 with a warning, never a wrong 'reconciled', never 'unknown ls-files tag'", async () => {
    const { root, healthy } = await project();
    const damage = fc.oneof(
      fc.tuple(fc.constant("bit" as const), fc.integer({ min: 0, max: healthy.length * 8 - 1 })),
      fc.tuple(fc.constant("byte" as const), fc.integer({ min: 0, max: healthy.length - 1 }), fc.integer({ min: 0, max: 255 })),
      fc.tuple(fc.constant("truncate" as const), fc.integer({ min: 0, max: healthy.length - 1 })),
    );
    await fc.assert(
      fc.asyncProperty(damage, async (d) => {
        let bytes = Buffer.from(healthy);
        if (d[0] === "bit") bytes[d[1] >> 3]! ^= 1 << (d[1] & 7);
        else if (d[0] === "byte") bytes[d[1]] = d[2];
        else bytes = bytes.subarray(0, d[1]);
        writeFileSync(join(root, CACHE_DB_PATH), bytes);
        const w = warnings();
        const r = await getChangedArtifacts(root, { specPath: SPEC }, { onWarning: w.onWarning, readOnly: true });
        // Never a wrong "reconciled": every edited file is listed.
        for (const f of CHANGED) expect(r.changed_artifacts).toContain(f);
        // An answer other than the healthy one comes with a warning.
        if (r.changed_artifacts.join() !== CHANGED.join()) expect(w.list.length, JSON.stringify(d)).toBeGreaterThan(0);
      }),
      { numRuns: 60, seed: 1515 },
    );
    await expectHealthyAfterMark(root);
  });

  it("the CLI: changed and mark-reconciled exit 0 with a warning on a damaged record (the 'unknown ls-files tag' class)", async () => {
    const { root, healthy } = await project();
    const lines = (await recordRanges(root, healthy))[0]![0];
    const bytes = Buffer.from(healthy);
    bytes[lines]! ^= 0x01; // the tag "H" of the first record line
    writeFileSync(join(root, CACHE_DB_PATH), bytes);
    const changed = runCli(["changed", "--spec", SPEC], { cwd: root });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout.trim().split("\n")).toEqual(FILES);
    expect(changed.stderr).toMatch(/warning: .*cache/);
    expect(changed.stderr).not.toMatch(/ls-files|internal error/);
    writeFileSync(join(root, CACHE_DB_PATH), bytes);
    const mark = runCli(["mark-reconciled", FILES[1]!, "--spec", SPEC], { cwd: root });
    expect(mark.code, mark.stderr).toBe(0);
    expect(mark.stderr).toMatch(/warning: .*cache/);
    const status = runCli(["cache", "status", "--format", "json"], { cwd: root });
    expect(JSON.parse(status.stdout).result.status).toBe("ok");
  });
});
