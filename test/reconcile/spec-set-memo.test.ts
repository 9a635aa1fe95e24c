/**
 * The spec set remembered in the process (src/reconcile/spec-set-memo.ts): loading the same spec texts
 * again — in the same repository or another one holding them — gives what validating afresh gives (files,
 * problems, the system spec, governance, warnings), as objects of the caller's own; a changed text
 * validates again; and the on-disk cache is written as before when the remembered set is taken.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listSpecPaths } from "../../src/governance/list-spec-paths.js";
import { loadSpecs } from "../../src/governance/load-specs.js";
import { loadSpecContext } from "../../src/reconcile/load-spec-context.js";
import { loadSpecContextCached, SPEC_CACHE_PATH } from "../../src/reconcile/load-spec-context-cached.js";
import { forgetSpecSets, recallSpecSet, specTexts } from "../../src/reconcile/spec-set-memo.js";
import type { SpecContext } from "../../src/reconcile/reconcile-context.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { warnings } from "./helpers/repo-ops.js";

/** Spec texts a repository may hold: valid ones, a system spec, an invalid one, a $ref to a missing file, broken YAML. */
const POOL: Record<string, string> = {
  ".notarai/system.spec.yaml": specYaml({ subsystems: ["./api.spec.yaml"], exclude: ["src/gen/**"], artifacts: { docs: ["docs/**"] } }),
  ".notarai/api.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
  ".notarai/web.spec.yaml": specYaml({ version: "0.6", artifacts: { code: ["web/**"], docs: ["docs/web/**"] } }),
  ".notarai/bad.spec.yaml": 'schema_version: 0.7\nintent: x\nartifacts: {}\napplies: [{$ref: "./missing.spec.yaml"}]\n',
  ".notarai/broken.spec.yaml": 'schema_version: "0.7"\nintent: [unclosed\n',
  ".notarai/nested/db.spec.yaml": specYaml({ artifacts: { code: ["db/**"] }, constraints: ["no raw SQL"] }),
};
const PATHS = Object.keys(POOL);
const PROBES = ["src/a.ts", "src/gen/b.ts", "docs/x.md", "docs/web/y.md", "web/z.ts", "db/q.sql", ...PATHS];

function known(root: string): string[] {
  return git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    .split("\0")
    .filter((p) => p.length > 0);
}

function shape(ctx: SpecContext, warned: string[]): unknown {
  return {
    files: ctx.specs.files,
    problems: ctx.specs.problems,
    system: ctx.specs.system?.path ?? null,
    byPath: [...ctx.specs.byPath.keys()],
    governors: PROBES.map((p) => ctx.governance.governorsOf(p)),
    warned,
  };
}

describe("the spec set remembered in the process", () => {
  it("equals validating afresh, in the repository that validated and in another holding the same texts (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(PATHS, { minLength: 1 }), fc.subarray(PATHS), async (first, second) => {
        forgetSpecSets();
        const tree = (paths: string[]) => ({ ...Object.fromEntries(paths.map((p) => [p, POOL[p]!])), "src/a.ts": "a\n" });
        const a = tempRepo(tree(first));
        const b = tempRepo(tree(first));
        const c = tempRepo(tree(second.length > 0 ? second : first));
        // Fresh: nothing remembered; the validator runs.
        const w0 = warnings();
        const fresh = shape(loadSpecContext(a, { onWarning: w0.onWarning }), w0.list);
        const texts = specTexts(a, listSpecPaths(a, known(a)))!;
        expect(recallSpecSet(texts)).not.toBeNull();
        // The same texts again, in the same repository and in another one: remembered.
        const w1 = warnings();
        expect(shape(loadSpecContext(a, { onWarning: w1.onWarning }), w1.list)).toEqual(fresh);
        const w2 = warnings();
        expect(shape(loadSpecContext(b, { onWarning: w2.onWarning }), w2.list)).toEqual(fresh);
        const w3 = warnings();
        expect(shape(await loadSpecContextCached(b, { onWarning: w3.onWarning, readOnly: true }, known(b)), w3.list)).toEqual(fresh);
        // Other texts (or the same): what validating them gives, with or without the memo.
        const w4 = warnings();
        const third = shape(loadSpecContext(c, { onWarning: w4.onWarning }), w4.list);
        forgetSpecSets();
        const w5 = warnings();
        expect(third).toEqual(shape(loadSpecContext(c, { onWarning: w5.onWarning }), w5.list));
        for (const r of [a, b, c]) rmSync(r, { recursive: true, force: true });
      }),
      { numRuns: 20 },
    );
  });

  it("gives each caller objects of its own", () => {
    forgetSpecSets();
    const root = tempRepo({ ".notarai/api.spec.yaml": POOL[".notarai/api.spec.yaml"]!, "src/a.ts": "a\n" });
    const one = loadSpecContext(root);
    const two = loadSpecContext(root);
    expect(two.specs.files).toEqual(one.specs.files);
    expect(two.specs.files[0]).not.toBe(one.specs.files[0]);
    (two.specs.files[0] as unknown as Record<string, unknown>)["marked"] = true;
    expect(loadSpecContext(root).specs.files[0]).not.toHaveProperty("marked");
    expect(loadSpecs(root).files).toEqual(one.specs.files);
  });

  it("validates again when a text changes, and the on-disk cache is written as when validating", async () => {
    forgetSpecSets();
    const root = tempRepo({ ".notarai/api.spec.yaml": POOL[".notarai/api.spec.yaml"]!, "src/a.ts": "a\n" });
    const other = tempRepo({ ".notarai/api.spec.yaml": POOL[".notarai/web.spec.yaml"]!, "src/a.ts": "a\n" });
    loadSpecContext(root);
    const changed = loadSpecContext(other);
    expect(changed.specs.files[0]!.text).toBe(POOL[".notarai/web.spec.yaml"]);
    expect(changed.specs.files).toEqual(loadSpecs(other).files);
    // Written by the cached load that took the remembered set: the same file validating would have written.
    await loadSpecContextCached(root, {}, known(root));
    const written = readFileSync(join(root, SPEC_CACHE_PATH), "utf8");
    rmSync(join(root, SPEC_CACHE_PATH));
    forgetSpecSets();
    await loadSpecContextCached(root, {}, known(root));
    expect(existsSync(join(root, SPEC_CACHE_PATH))).toBe(true);
    expect(readFileSync(join(root, SPEC_CACHE_PATH), "utf8")).toBe(written);
  });
});
