/**
 * The six tools as library functions, in real repositories: NotarAI's own
 * scenarios (two commits, excludes, cold cache, mark then diff, bypass, clear,
 * spec changes, system spec dedup, binary files) and the cases NotarAI gets
 * wrong (trailing **, base-branch commits after the fork, untracked, deleted
 * and renamed files, new binaries, a bad base ref, one file under two specs).
 */
import { describe, expect, it } from "vitest";
import { GitRefError } from "../../src/git/git-ref-error.js";
import { clearCache } from "../../src/reconcile/clear-cache.js";
import { getChangedArtifacts } from "../../src/reconcile/get-changed-artifacts.js";
import { getSpecDiff, type SpecDiffResult } from "../../src/reconcile/get-spec-diff.js";
import { listAffectedSpecs } from "../../src/reconcile/list-affected-specs.js";
import { markReconciled } from "../../src/reconcile/mark-reconciled.js";
import { ReconcileError } from "../../src/reconcile/reconcile-error.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { branch, checkout, commitAll, read, remove, warnings, write } from "./helpers/repo-ops.js";

const SYSTEM = ".notarai/system.spec.yaml";
const CLI = ".notarai/cli.spec.yaml";
const DOCS = ".notarai/docs.spec.yaml";

const templates = repoTemplates();

/** main: a system spec, a cli spec (src/**, docs/cli.md), a docs spec (docs/**); then branch `feature`. A copy of the one built once. */
function project(): string {
  return templates.copy("project", build);
}

function build(): string {
  const root = tempRepo({
    [SYSTEM]: specYaml({ subsystems: ["./cli.spec.yaml", "./docs.spec.yaml"], artifacts: { configs: ["package.json"] }, exclude: ["src/generated/**"] }),
    [CLI]: specYaml({
      behaviors: [{ name: "parse", given: "argv", then: "a command runs" }],
      constraints: ["no network"],
      invariants: ["exit codes are stable"],
      artifacts: { code: ["src/**"], docs: ["docs/cli.md"], assets: ["assets/**"] },
    }),
    [DOCS]: specYaml({ artifacts: { docs: ["docs/**"] } }),
    "src/main.ts": "export const main = 1;\n",
    "src/util/deep/helper.ts": "export const h = 1;\n",
    "src/generated/schema.ts": "generated\n",
    "docs/cli.md": "# CLI\n",
    "docs/other.md": "# Other\n",
    "assets/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    "package.json": "{}\n",
    "README.md": "readme\n",
  });
  branch(root, "feature");
  return root;
}

const KEYS = ["binary_changes", "diff", "excluded", "file_categories", "files", "skipped", "spec_changes", "system_spec"];

describe("list_affected_specs", () => {
  it("lists changed files (two commits, staged, untracked, deleted, both sides of renames) and the specs governing them", async () => {
    const root = project();
    write(root, "src/main.ts", "export const main = 2;\n");
    commitAll(root, "first");
    git(root, ["mv", "docs/other.md", "docs/renamed.md"]);
    commitAll(root, "second");
    remove(root, "package.json");
    write(root, "src/new-untracked.ts", "new\n");
    const r = await listAffectedSpecs(root, { baseBranch: "main" });
    expect(r.changed_files).toEqual(["docs/other.md", "docs/renamed.md", "package.json", "src/main.ts", "src/new-untracked.ts"]);
    expect(r.affected_specs.map((s) => s.spec_path)).toEqual([CLI, DOCS, SYSTEM]);
    expect(r.affected_specs[0]).toEqual({
      spec_path: CLI,
      matched_files: [
        { path: "src/main.ts", category: "code", glob: "src/**" },
        { path: "src/new-untracked.ts", category: "code", glob: "src/**" },
      ],
      behaviors: [{ name: "parse", given: "argv", then: "a command runs" }],
      constraints: ["no network"],
      invariants: ["exit codes are stable"],
    });
  });

  it("ignores commits made on the base branch after the fork point", async () => {
    const root = project();
    write(root, "docs/cli.md", "# CLI v2\n");
    commitAll(root, "feature");
    checkout(root, "main");
    write(root, "src/main.ts", "changed on main\n");
    write(root, "package.json", '{"v": 2}\n');
    commitAll(root, "main later");
    checkout(root, "feature");
    const r = await listAffectedSpecs(root, { baseBranch: "main" });
    expect(r.changed_files).toEqual(["docs/cli.md"]);
    expect(r.affected_specs.map((s) => s.spec_path)).toEqual([CLI, DOCS]);
  });

  it("counts an edited spec file as affecting that spec", async () => {
    const root = project();
    write(root, DOCS, read(root, DOCS).replace("test intent", "new intent"));
    const r = await listAffectedSpecs(root, { baseBranch: "main" });
    expect(r.affected_specs.map((s) => s.spec_path)).toEqual([DOCS]);
  });

  it("rejects a bad or unknown base ref (never an empty result)", async () => {
    const root = project();
    await expect(listAffectedSpecs(root, { baseBranch: "--output=x" })).rejects.toThrow(GitRefError);
    await expect(listAffectedSpecs(root, { baseBranch: "nope" })).rejects.toThrow(/unknown ref "nope"/);
  });

  it("a spec that is affected always has a non-empty diff (one glob semantics)", async () => {
    const root = project();
    write(root, "src/util/deep/helper.ts", "changed\n");
    write(root, "docs/cli.md", "changed\n");
    write(root, "src/.hidden.ts", "dot file\n");
    commitAll(root, "x");
    const r = await listAffectedSpecs(root, { baseBranch: "main" });
    // The two specs whose globs take these files (the dot file and the deep one through src/**), and only they.
    expect(r.affected_specs.map((s) => s.spec_path).sort()).toEqual([CLI, DOCS]);
    const diffs: Record<string, string[]> = {};
    for (const s of r.affected_specs) {
      const d = await getSpecDiff(root, { specPath: s.spec_path, baseBranch: "main", bypassCache: true });
      expect(d.spec_changes).toEqual([]);
      diffs[s.spec_path] = [...d.files].sort();
    }
    expect(diffs).toEqual({ [CLI]: ["docs/cli.md", "src/.hidden.ts", "src/util/deep/helper.ts"], [DOCS]: ["docs/cli.md"] });
  });
});

describe("get_spec_diff", () => {
  it("always returns all eight keys, even with nothing changed", async () => {
    const root = project();
    const d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(Object.keys(d).sort()).toEqual(KEYS);
    expect(d).toEqual({ diff: "", files: [], skipped: [], excluded: [], spec_changes: [], system_spec: null, binary_changes: [], file_categories: {} });
  });

  it("cold cache: every governed changed file (nested under src/**, the trailing-** case) is in the diff", async () => {
    const root = project();
    write(root, "src/main.ts", "export const main = 2;\n");
    write(root, "src/util/deep/helper.ts", "export const h = 2;\n");
    write(root, "src/generated/schema.ts", "regenerated\n");
    write(root, "README.md", "ungoverned\n");
    commitAll(root, "two files");
    const d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(d.files).toEqual(["src/main.ts", "src/util/deep/helper.ts"]);
    expect(d.skipped).toEqual([]);
    expect(d.file_categories).toEqual({ "src/main.ts": "code", "src/util/deep/helper.ts": "code" });
    expect(d.diff).toContain("+export const main = 2;");
    expect(d.diff).toContain("+export const h = 2;");
    expect(d.diff).not.toContain("regenerated");
    expect(d.diff).not.toContain("README");
  });

  it("mark then diff: reconciled files are skipped until they change again", async () => {
    const root = project();
    write(root, "src/main.ts", "v2\n");
    write(root, "docs/cli.md", "# CLI v2\n");
    commitAll(root, "c");
    expect((await markReconciled(root, { files: ["src/main.ts", "docs/cli.md"] })).updated).toBe(2);
    let d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(d.files).toEqual([]);
    expect(d.skipped).toEqual(["docs/cli.md", "src/main.ts"]);
    expect(d.diff).toBe("");
    write(root, "src/main.ts", "v3\n");
    d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(d.files).toEqual(["src/main.ts"]);
    expect(d.skipped).toEqual(["docs/cli.md"]);
    expect(d.diff).toContain("+v3");
  });

  it("bypass_cache diffs everything without destroying the cache", async () => {
    const root = project();
    write(root, "src/main.ts", "v2\n");
    commitAll(root, "c");
    await markReconciled(root, { files: ["src/main.ts"] });
    const bypass = await getSpecDiff(root, { specPath: CLI, baseBranch: "main", bypassCache: true });
    expect(bypass.files).toEqual(["src/main.ts"]);
    expect(bypass.skipped).toEqual([]);
    expect((await getSpecDiff(root, { specPath: CLI, baseBranch: "main" })).skipped).toEqual(["src/main.ts"]);
  });

  it("clear_cache makes every governed change count again", async () => {
    const root = project();
    expect(await clearCache(root)).toEqual({ cleared: false });
    write(root, "src/main.ts", "v2\n");
    await markReconciled(root, { files: ["src/main.ts"] });
    expect(await clearCache(root)).toEqual({ cleared: true });
    expect((await getSpecDiff(root, { specPath: CLI, baseBranch: "main" })).files).toEqual(["src/main.ts"]);
  });

  it("excludes patterns (file names at any depth) and echoes them in `excluded`", async () => {
    const root = project();
    write(root, "src/main.ts", "v2\n");
    write(root, "src/deps.lock", "lock\n");
    write(root, "src/util/deep/pkg.lock", "lock\n");
    const d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main", excludePatterns: ["*.lock"] });
    expect(d.files).toEqual(["src/main.ts"]);
    expect(d.excluded).toEqual(["*.lock"]);
    expect(d.diff).not.toContain(".lock");
  });

  it("includes untracked, deleted and renamed files, both sides, with a diff for each", async () => {
    const root = project();
    git(root, ["mv", "src/main.ts", "src/entry.ts"]);
    commitAll(root, "rename");
    remove(root, "src/util/deep/helper.ts");
    write(root, "src/brand-new.ts", "fresh\n");
    const d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(d.files).toEqual(["src/brand-new.ts", "src/entry.ts", "src/main.ts", "src/util/deep/helper.ts"]);
    expect(d.diff).toContain("rename from src/main.ts");
    expect(d.diff).toContain("deleted file mode 100644");
    expect(d.diff).toContain("+++ b/src/brand-new.ts\n@@ -0,0 +1 @@\n+fresh\n");
  });

  it("keeps binaries (tracked and new, detected by content) out of the text diff and lists them", async () => {
    const root = project();
    write(root, "assets/logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 4]));
    commitAll(root, "logo");
    write(root, "assets/new.pptx", Buffer.concat([Buffer.from("PK"), Buffer.alloc(20), Buffer.from("ppt")]));
    write(root, "assets/notes.txt", "text asset\n");
    const d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(d.files).toEqual(["assets/logo.png", "assets/new.pptx", "assets/notes.txt"]);
    expect(d.binary_changes).toEqual(["assets/logo.png", "assets/new.pptx"]);
    expect(d.file_categories["assets/new.pptx"]).toBe("assets");
    expect(d.diff).toContain("+text asset");
    expect(d.diff).not.toContain("logo.png");
    expect(d.diff).not.toContain("new.pptx");
  });

  it("spec changes carry full text; the system spec comes along (as {path} only when it changed itself)", async () => {
    const root = project();
    write(root, CLI, read(root, CLI).replace("test intent", "changed intent"));
    let d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(d.spec_changes).toEqual([{ path: CLI, content: read(root, CLI) }]);
    expect(d.system_spec).toEqual({ path: SYSTEM, content: read(root, SYSTEM) });
    expect(d.files).toEqual([]);
    write(root, SYSTEM, read(root, SYSTEM).replace("test intent", "system changed"));
    d = await getSpecDiff(root, { specPath: SYSTEM, baseBranch: "main" });
    expect(d.spec_changes).toEqual([{ path: SYSTEM, content: read(root, SYSTEM) }]);
    expect(d.system_spec).toEqual({ path: SYSTEM });
    await markReconciled(root, { files: [CLI] });
    d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(d.spec_changes).toEqual([]);
    expect(d.system_spec).toBeNull();
  });

  it("one file under two specs: reconciling it for one spec does not reconcile it for the other", async () => {
    const root = project();
    write(root, "docs/cli.md", "# CLI v2\n");
    await markReconciled(root, { files: ["docs/cli.md"], specPath: CLI });
    expect((await getSpecDiff(root, { specPath: CLI, baseBranch: "main" })).skipped).toEqual(["docs/cli.md"]);
    expect((await getSpecDiff(root, { specPath: DOCS, baseBranch: "main" })).files).toEqual(["docs/cli.md"]);
    await markReconciled(root, { files: ["docs/cli.md"] });
    expect((await getSpecDiff(root, { specPath: DOCS, baseBranch: "main" })).skipped).toEqual(["docs/cli.md"]);
  });

  it("errors the caller can fix: unknown spec, invalid spec, bad base", async () => {
    const root = project();
    await expect(getSpecDiff(root, { specPath: ".notarai/nope.spec.yaml", baseBranch: "main" })).rejects.toThrow(ReconcileError);
    await expect(getSpecDiff(root, { specPath: "../outside.spec.yaml", baseBranch: "main" })).rejects.toThrow(/outside the repository/);
    write(root, ".notarai/broken.spec.yaml", "schema_version: 0.7\n");
    await expect(getSpecDiff(root, { specPath: ".notarai/broken.spec.yaml", baseBranch: "main" })).rejects.toThrow(/invalid/);
    await expect(getSpecDiff(root, { specPath: CLI, baseBranch: "-rf" })).rejects.toThrow(GitRefError);
  });

  it("warns about invalid specs elsewhere but still answers", async () => {
    const root = project();
    write(root, ".notarai/broken.spec.yaml", "schema_version: 0.7\n");
    write(root, "src/main.ts", "v2\n");
    const w = warnings();
    const d = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" }, { onWarning: w.onWarning });
    expect(d.files).toEqual(["src/main.ts"]);
    expect(w.list.join("\n")).toContain(".notarai/broken.spec.yaml");
  });
});

describe("get_changed_artifacts", () => {
  it("lists governed artifacts whose content is not reconciled for the spec, optionally by category", async () => {
    const root = project();
    let r = await getChangedArtifacts(root, { specPath: CLI });
    expect(r.changed_artifacts).toEqual(["assets/logo.png", "docs/cli.md", "src/main.ts", "src/util/deep/helper.ts"]);
    await markReconciled(root, { files: r.changed_artifacts });
    expect((await getChangedArtifacts(root, { specPath: CLI })).changed_artifacts).toEqual([]);
    write(root, "docs/cli.md", "# changed\n");
    write(root, "src/added.ts", "new\n");
    r = await getChangedArtifacts(root, { specPath: CLI });
    expect(r.changed_artifacts).toEqual(["docs/cli.md", "src/added.ts"]);
    expect((await getChangedArtifacts(root, { specPath: CLI, artifactType: "docs" })).changed_artifacts).toEqual(["docs/cli.md"]);
    expect((await getChangedArtifacts(root, { specPath: CLI, artifactType: "code" })).changed_artifacts).toEqual(["src/added.ts"]);
    const w = warnings();
    expect(await getChangedArtifacts(root, { specPath: CLI, artifactType: "slides" }, { onWarning: w.onWarning })).toEqual({ changed_artifacts: [] });
    expect(w.list.join("\n")).toMatch(/no artifact category "slides"/);
  });

  it("a file changed back to its reconciled content is reconciled again", async () => {
    const root = project();
    await markReconciled(root, { files: ["src/main.ts"], specPath: CLI });
    const original = read(root, "src/main.ts");
    write(root, "src/main.ts", "other\n");
    expect((await getChangedArtifacts(root, { specPath: CLI, artifactType: "code" })).changed_artifacts).toContain("src/main.ts");
    write(root, "src/main.ts", original);
    expect((await getChangedArtifacts(root, { specPath: CLI, artifactType: "code" })).changed_artifacts).not.toContain("src/main.ts");
  });
});

describe("mark_reconciled", () => {
  it("marks only governed files inside the repository, saying why the others were not; a path git never knew is an error and nothing is marked", async () => {
    const root = project();
    const r = await markReconciled(root, { files: ["src/main.ts", "README.md"] });
    expect(r).toMatchObject({
      updated: 1,
      by_spec: [{ spec_path: CLI, files: ["src/main.ts"] }],
      not_marked: [{ path: "README.md", reason: "no spec governs it" }],
      deleted: [],
    });
    const typo = markReconciled(root, { files: ["src/main.ts", "src/does-not-exist.ts"] });
    await expect(typo).rejects.toThrow(ReconcileError);
    await expect(typo).rejects.toThrow(/^src\/does-not-exist\.ts: no such file or directory, and git has never known it/);
    await expect(markReconciled(root, { files: ["/etc/passwd"] })).rejects.toThrow(/outside the repository/);
    await expect(markReconciled(root, { files: ["../x"] })).rejects.toThrow(ReconcileError);
  });

  it("with a spec, only files that spec governs", async () => {
    const root = project();
    const r = await markReconciled(root, { files: ["docs/other.md", "docs/cli.md"], specPath: CLI });
    expect(r).toMatchObject({ updated: 1, not_marked: [{ path: "docs/other.md", reason: `${CLI} does not govern it` }] });
    await expect(markReconciled(root, { files: ["docs/cli.md"], specPath: ".notarai/missing.spec.yaml" })).rejects.toThrow(/not a spec file/);
  });
});

describe("results are plain JSON", () => {
  it("round-trips through JSON unchanged", async () => {
    const root = project();
    write(root, "src/main.ts", "v2\n");
    const d: SpecDiffResult = await getSpecDiff(root, { specPath: CLI, baseBranch: "main" });
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
  });
});
