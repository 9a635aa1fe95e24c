/**
 * Governance: one picomatch semantics (dot: true) over repository-relative
 * paths; trailing `**`; the system spec's exclude and a spec's own exclude;
 * specs govern themselves; overlapping specs all reported; the snapshot and
 * cache never governed; ignored files governed by none; coverage policies.
 */
import { describe, expect, it } from "vitest";
import {
  buildGovernance,
  buildSpecSet,
  compileExcludePattern,
  compileGlob,
  coverageReport,
  governedFiles,
  validateSpecText,
  whichSpecsGovern,
} from "../../src/internal.js";
import { tempRepo, writeTree } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";

function governance(specs: Record<string, string>) {
  return buildGovernance(buildSpecSet(Object.entries(specs).map(([p, t]) => validateSpecText(p, t))));
}

describe("globs", () => {
  it("`src/**` governs every file under src at any depth, dot files included (NotarAI's trailing-** bug)", () => {
    const t = compileGlob("src/**");
    for (const p of ["src/a.ts", "src/deep/er/b.ts", "src/.hidden", "src/.config/x.json"]) expect(t(p)).toBe(true);
    for (const p of ["srcx/a.ts", "lib/src/a.ts", "SRC/a.ts"]) expect(t(p)).toBe(false);
  });

  it("normalises ./ and leading / and treats a trailing / as the whole directory", () => {
    expect(compileGlob("./docs/*.md")("docs/a.md")).toBe(true);
    expect(compileGlob("/docs/*.md")("docs/a.md")).toBe(true);
    expect(compileGlob("docs/")("docs/x/y.md")).toBe(true);
    expect(compileGlob("docs/*.md")("docs/x/y.md")).toBe(false);
    expect(compileGlob("**/*.{ts,tsx}")("a/b/c.tsx")).toBe(true);
  });

  it("exclude patterns without / match file names at any depth", () => {
    expect(compileExcludePattern("*.lock")("deep/dir/Cargo.lock")).toBe(true);
    expect(compileExcludePattern("Cargo.lock")("Cargo.lock")).toBe(true);
    expect(compileExcludePattern("vendor/**")("vendor/a/b.js")).toBe(true);
    expect(compileExcludePattern("vendor/**")("src/vendor/b.js")).toBe(false);
  });
});

describe("buildGovernance", () => {
  const g = governance({
    ".notarai/system.spec.yaml": specYaml({
      subsystems: ["./api.spec.yaml", "./docs.spec.yaml"],
      artifacts: { docs: ["README.md"] },
      exclude: ["src/generated/**"],
    }),
    ".notarai/api.spec.yaml": specYaml({ artifacts: { code: ["src/**"], docs: ["docs/api/**", "docs/shared.md"] }, exclude: ["src/**/*.snap"] }),
    ".notarai/docs.spec.yaml": specYaml({ artifacts: { docs: ["docs/**"] } }),
  });

  it("reports every spec governing a file, with the glob and category that matched", () => {
    expect(g.governorsOf("docs/shared.md")).toEqual([
      { spec_path: ".notarai/api.spec.yaml", glob: "docs/shared.md", category: "docs" },
      { spec_path: ".notarai/docs.spec.yaml", glob: "docs/**", category: "docs" },
    ]);
    expect(g.governorsOf("src/x/y.ts")).toEqual([{ spec_path: ".notarai/api.spec.yaml", glob: "src/**", category: "code" }]);
    expect(g.governorsOf("other/file")).toEqual([]);
  });

  it("a spec governs its own file", () => {
    expect(g.governorsOf(".notarai/api.spec.yaml")).toEqual([{ spec_path: ".notarai/api.spec.yaml", glob: ".notarai/api.spec.yaml", category: "spec" }]);
  });

  it("the system spec's exclude removes files from every spec; a spec's own exclude only from itself", () => {
    expect(g.governorsOf("src/generated/x.ts")).toEqual([]);
    expect(g.isExcluded("src/generated/x.ts")).toBe(true);
    expect(g.governorsOf("src/a.snap")).toEqual([]);
    expect(g.isExcluded("src/a.snap")).toBe(false);
  });

  it("never governs the snapshot or the cache", () => {
    const all = governance({ ".notarai/all.spec.yaml": specYaml({ artifacts: { any: ["**"] } }) });
    expect(all.governorsOf(".notarai/reconciliation_state.json")).toEqual([]);
    expect(all.governorsOf(".notarai/.cache/notarai.db")).toEqual([]);
    expect(all.governorsOf(".notarai/other.md")).toHaveLength(1);
  });

  it("an invalid spec governs only its own file", () => {
    const bad = governance({ ".notarai/bad.spec.yaml": "schema_version: 0.7\nartifacts: {code: [{path: 'src/**'}]}\n" });
    expect(bad.governorsOf("src/a.ts")).toEqual([]);
    expect(bad.governorsOf(".notarai/bad.spec.yaml")).toHaveLength(1);
  });
});

describe("governedFiles, whichSpecsGovern, coverageReport (real repositories)", () => {
  const tree = {
    ".notarai/system.spec.yaml": specYaml({
      subsystems: ["./cli.spec.yaml"],
      artifacts: { docs: ["docs/**"] },
      exclude: ["vendor/**"],
      coverage: { policy: "strict", message: "Add a spec." },
    }),
    ".notarai/cli.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
    "src/a.ts": "a",
    "src/.env.example": "x",
    "docs/guide.md": "g",
    "vendor/lib.js": "v",
    "README.md": "r",
    ".gitignore": "*.log\n",
  };

  it("enumerates governed files over git's list (tracked + untracked, not ignored)", () => {
    const root = tempRepo(tree);
    writeTree(root, { "src/new.ts": "n", "src/debug.log": "ignored" });
    const files = governedFiles(root, { specPath: ".notarai/cli.spec.yaml" }).map((f) => f.path);
    expect(files).toEqual([".notarai/cli.spec.yaml", "src/.env.example", "src/a.ts", "src/new.ts"]);
  });

  it("answers governs per path: tracked, untracked, ignored, absent", () => {
    const root = tempRepo(tree);
    writeTree(root, { "src/new.ts": "n", "src/debug.log": "ignored" });
    const r = whichSpecsGovern(root, ["src/a.ts", "src/new.ts", "src/debug.log", "src/future.ts", "vendor/lib.js"]);
    expect(r.paths.map((p) => [p.path, p.state, p.governed_by.map((g) => g.spec_path)])).toEqual([
      ["src/a.ts", "tracked", [".notarai/cli.spec.yaml"]],
      ["src/new.ts", "untracked", [".notarai/cli.spec.yaml"]],
      ["src/debug.log", "ignored", []],
      ["src/future.ts", "absent", [".notarai/cli.spec.yaml"]],
      ["vendor/lib.js", "tracked", []],
    ]);
    expect(r.paths[4]!.excluded).toBe(true);
  });

  it("coverage lists tracked files no spec governs; excluded files are out of scope; the policy comes from the system spec", () => {
    const root = tempRepo(tree);
    const r = coverageReport(root);
    expect(r.uncovered).toEqual([".gitignore", "README.md"]);
    expect(r).toMatchObject({ policy: "strict", message: "Add a spec.", policy_source: ".notarai/system.spec.yaml", excluded: 1, failing: true });
    expect(r.governed).toBe(5);
  });

  it("coverage defaults to warn (not failing) without a system spec policy", () => {
    const root = tempRepo({ ".notarai/cli.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }), "src/a.ts": "a", "x.txt": "x" });
    const r = coverageReport(root);
    expect(r).toMatchObject({ policy: "warn", policy_source: null, uncovered: ["x.txt"], failing: false });
  });
});
