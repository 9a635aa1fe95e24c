/**
 * reconciliationDrift (the PR check's drift report): per affected spec, the
 * governed changed files the committed snapshot does not vouch for, with the
 * glob that made the spec govern each one; deletions; read-only.
 */
import { describe, expect, it } from "vitest";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { markReconciled, reconciliationDrift, snapshotState, CACHE_DB_PATH } from "../../src/internal.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { branch, commitAll, remove, write } from "./helpers/repo-ops.js";

const API = ".notarai/api.spec.yaml";
const DOCS = ".notarai/docs.spec.yaml";

function project(): string {
  const root = tempRepo({
    [API]: specYaml({ artifacts: { code: ["src/**"], docs: ["docs/api.md"] } }),
    [DOCS]: specYaml({ artifacts: { docs: ["docs/**"] } }),
    "src/a.ts": "a\n",
    "src/old.ts": "old\n",
    "src/later.ts": "later\n",
    "docs/api.md": "api\n",
  });
  branch(root, "feature");
  return root;
}

describe("reconciliationDrift", () => {
  it("reports unreconciled governed changes per affected spec, with the governing glob", async () => {
    const root = project();
    write(root, "src/a.ts", "a2\n");
    write(root, "docs/api.md", "api2\n");
    remove(root, "src/old.ts");
    commitAll(root, "work");
    await markReconciled(root, { files: ["src/a.ts", "docs/api.md"] });
    await snapshotState(root);
    commitAll(root, "reconciled");
    rmSync(join(root, ".notarai/.cache"), { recursive: true });
    write(root, "docs/api.md", "api3\n");
    write(root, "src/fresh.ts", "fresh\n");
    remove(root, "src/later.ts");
    commitAll(root, "more");

    const r = await reconciliationDrift(root, { baseBranch: "main" });
    expect(r.base.merge_base).toBe(git(root, ["rev-parse", "main"]).trim());
    expect(r.snapshot).toMatchObject({ present: true, ancestry: "ancestor", problem: null });
    expect(r.specs.map((s) => s.spec_path)).toEqual([API, DOCS]);
    const api = r.specs[0]!;
    expect(api.reconciled).toEqual(["src/a.ts", "src/old.ts"]); // old.ts was deleted before the snapshot
    expect(api.unreconciled.map((f) => [f.path, f.glob, f.category, f.reason])).toEqual([
      ["docs/api.md", "docs/api.md", "docs", "hash-differs"],
      ["src/fresh.ts", "src/**", "code", "not-in-snapshot"],
      ["src/later.ts", "src/**", "code", "deleted"],
    ]);
    expect(r.specs[1]!.unreconciled.map((f) => [f.path, f.glob])).toEqual([["docs/api.md", "docs/**"]]);
    expect(r.unreconciled).toBe(4);
    expect(r.changed_files).toContain(".notarai/reconciliation_state.json");
    expect(existsSync(join(root, CACHE_DB_PATH))).toBe(false); // read-only
  });

  it("with no snapshot, every governed change is drift", async () => {
    const root = project();
    write(root, "src/a.ts", "a2\n");
    const r = await reconciliationDrift(root, { baseBranch: "main", snapshot: null });
    expect(r.snapshot.present).toBe(false);
    expect(r.specs).toEqual([
      { spec_path: API, reconciled: [], unreconciled: [expect.objectContaining({ path: "src/a.ts", reason: "not-in-snapshot", change: "modified" })] },
    ]);
  });
});
