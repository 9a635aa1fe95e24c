/**
 * The warm path's remembered spec context: the same specs, problems, system
 * spec and governance as validating afresh; any change to a spec file (or the
 * cache file) makes it validate again; read-only calls leave no file behind.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSpecContext } from "../../src/reconcile/load-spec-context.js";
import { loadSpecContextCached, SPEC_CACHE_PATH } from "../../src/reconcile/load-spec-context-cached.js";
import { getChangedArtifacts } from "../../src/internal.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { warnings, write } from "./helpers/repo-ops.js";

function repo() {
  return tempRepo({
    ".notarai/system.spec.yaml": specYaml({ subsystems: ["./api.spec.yaml"], exclude: ["src/gen/**"], artifacts: { docs: ["docs/**"] } }),
    ".notarai/api.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
    ".notarai/bad.spec.yaml": 'schema_version: 0.7\nintent: x\nartifacts: {}\napplies: [{$ref: "./missing.spec.yaml"}]\n',
    "src/a.ts": "a\n",
    "src/gen/b.ts": "b\n",
    "docs/x.md": "x\n",
  });
}

function known(root: string): string[] {
  return git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    .split("\0")
    .filter((p) => p.length > 0);
}

async function same(root: string): Promise<void> {
  const w1 = warnings();
  const w2 = warnings();
  const fresh = loadSpecContext(root, { onWarning: w1.onWarning }, known(root));
  const cached = await loadSpecContextCached(root, { onWarning: w2.onWarning }, known(root));
  expect(cached.specs.files).toEqual(fresh.specs.files);
  expect(cached.specs.problems).toEqual(fresh.specs.problems);
  expect(cached.specs.system?.path).toBe(fresh.specs.system?.path);
  expect([...cached.specs.byPath.keys()]).toEqual([...fresh.specs.byPath.keys()]);
  expect(w2.list).toEqual(w1.list);
  for (const p of ["src/a.ts", "src/gen/b.ts", "docs/x.md", ".notarai/api.spec.yaml"])
    expect(cached.governance.governorsOf(p)).toEqual(fresh.governance.governorsOf(p));
}

describe("the remembered spec context", () => {
  it("equals validating afresh, on the first call (which remembers) and on the next (which reads)", async () => {
    const root = repo();
    await same(root);
    expect(existsSync(join(root, SPEC_CACHE_PATH))).toBe(true);
    await same(root);
    // The second call read the file: a mark left in it comes back (the validator did not run).
    const stored = JSON.parse(readFileSync(join(root, SPEC_CACHE_PATH), "utf8")) as { files: Array<Record<string, unknown>> };
    stored.files[0]!["marked"] = true;
    writeFileSync(join(root, SPEC_CACHE_PATH), JSON.stringify(stored));
    expect((await loadSpecContextCached(root, {}, known(root))).specs.files[0]).toMatchObject({ marked: true });
  });

  it("validates again when a spec changes, appears or disappears, or the cache file is damaged", async () => {
    const root = repo();
    await same(root);
    write(root, ".notarai/api.spec.yaml", specYaml({ artifacts: { code: ["src/a.ts"] } }));
    await same(root);
    write(root, ".notarai/new.spec.yaml", specYaml({ artifacts: { code: ["docs/**"] } }));
    await same(root);
    git(root, ["rm", "-q", "-f", ".notarai/bad.spec.yaml"]);
    await same(root);
    writeFileSync(join(root, SPEC_CACHE_PATH), "{ not json");
    await same(root);
    // A cache file whose key matches but whose texts do not is not believed.
    await loadSpecContextCached(root, {}, known(root));
    const stored = JSON.parse(readFileSync(join(root, SPEC_CACHE_PATH), "utf8")) as { files: Array<{ text: string; data: unknown }> };
    stored.files[0]!.text = "tampered";
    stored.files[0]!.data = null;
    writeFileSync(join(root, SPEC_CACHE_PATH), JSON.stringify(stored));
    await same(root);
  });

  it("writes nothing for a read-only call, and the warm tool still warns about invalid specs", async () => {
    const root = repo();
    await loadSpecContextCached(root, { readOnly: true }, known(root));
    expect(existsSync(join(root, SPEC_CACHE_PATH))).toBe(false);
    for (let i = 0; i < 2; i++) {
      const w = warnings();
      await getChangedArtifacts(root, { specPath: ".notarai/api.spec.yaml" }, { onWarning: w.onWarning });
      expect(w.list.some((m) => m.startsWith("invalid spec .notarai/bad.spec.yaml"))).toBe(true);
    }
  });
});
