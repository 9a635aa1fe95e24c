/**
 * A repository of several thousand governed files: cold and warm change
 * detection, marking thousands of files in one call (chunked pathspecs), a
 * branch touching a thousand files (chunked diffs), all exact.
 */
import { describe, expect, it } from "vitest";
import { getChangedArtifacts, getSpecDiff, listAffectedSpecs, markReconciled, readCache } from "../../src/internal.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { branch, commitAll, write } from "./helpers/repo-ops.js";

const SPEC = ".notarai/all.spec.yaml";
const N = 4000;

function path(i: number): string {
  return `src/m${i % 20}/p${Math.floor(i / 20) % 10}/deeply/nested/file-${String(i).padStart(5, "0")}.ts`;
}

describe("several thousand governed files", () => {
  it("cold, mark all, warm, a few edits, a wide branch", async () => {
    const tree: Record<string, string> = { [SPEC]: specYaml({ artifacts: { code: ["src/**"] } }) };
    for (let i = 0; i < N; i++) tree[path(i)] = `export const v${i} = ${i};\n`;
    const root = tempRepo(tree);
    const all = Object.keys(tree)
      .filter((p) => p.startsWith("src/"))
      .sort();

    const cold = await getChangedArtifacts(root, { specPath: SPEC });
    expect(cold.changed_artifacts).toEqual(all);

    expect(await markReconciled(root, { files: all })).toMatchObject({ updated: N, not_marked: [] });
    const cache = await readCache(root, { specs: [SPEC] });
    expect(cache.reconciled.get(SPEC)?.size).toBe(N);
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([]);

    const edited = [path(7), path(1234), path(3999)].sort();
    for (const p of edited) write(root, p, "edited\n");
    write(root, "src/extra/new-file.ts", "new\n");
    expect((await getChangedArtifacts(root, { specPath: SPEC })).changed_artifacts).toEqual([...edited, "src/extra/new-file.ts"].sort());

    branch(root, "wide");
    const wide: string[] = [];
    for (let i = 0; i < N; i += 4) {
      write(root, path(i), `export const v${i} = ${i + 1};\n`);
      wide.push(path(i));
    }
    commitAll(root, "wide change");
    const affected = await listAffectedSpecs(root, { baseBranch: "main" });
    expect(affected.changed_files.length).toBe(wide.length + edited.length + 1);
    expect(affected.affected_specs.map((s) => s.spec_path)).toEqual([SPEC]);
    const d = await getSpecDiff(root, { specPath: SPEC, baseBranch: "main" });
    expect(d.files).toEqual([...new Set([...wide, ...edited, "src/extra/new-file.ts"])].sort());
    expect(d.diff.match(/^diff --git /gm)?.length).toBe(d.files.length);
    expect(d.skipped).toEqual([]);
    expect(git(root, ["status", "--porcelain"])).toBe("");
  });
});
