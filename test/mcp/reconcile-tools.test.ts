/**
 * The six reconciliation tools through the real server, in real repositories:
 * NotarAI's shapes exactly, the semantics of the compatibility guide (a whole
 * reconciliation pass: affected → diff → mark → diff again → snapshot → clear),
 * and every caller-fixable failure as an `isError` result.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { McpClient, expectProtocolOnly } from "./helpers/mcp-client.js";

const SYSTEM = ".notarai/system.spec.yaml";
const CLI_SPEC = ".notarai/cli.spec.yaml";
const DOCS_SPEC = ".notarai/docs.spec.yaml";

const SYSTEM_YAML = `schema_version: "0.7"
intent: The whole tool.
behaviors:
  - name: works
    given: a repository
    then: it is reconciled
subsystems:
  - $ref: ./cli.spec.yaml
  - $ref: ./docs.spec.yaml
artifacts:
  configs:
    - path: package.json
`;
const CLI_YAML = `schema_version: "0.7"
intent: The command line.
behaviors:
  - name: parse
    given: argv
    then: a command runs
constraints:
  - no network
invariants:
  - exit codes are stable
artifacts:
  code:
    - path: "src/**"
  docs:
    - path: docs/cli.md
  assets:
    - path: "assets/**"
`;
const DOCS_YAML = `schema_version: "0.7"
intent: The documentation.
behaviors:
  - name: explain
    given: a reader
    then: they understand
artifacts:
  docs:
    - path: "docs/**"
`;

const DIFF_KEYS = ["binary_changes", "diff", "excluded", "file_categories", "files", "skipped", "spec_changes", "system_spec"];

/** main with three specs and their files; HEAD on branch `feature` with changes. */
function project(): string {
  const root = tempRepo({
    [SYSTEM]: SYSTEM_YAML,
    [CLI_SPEC]: CLI_YAML,
    [DOCS_SPEC]: DOCS_YAML,
    "src/main.ts": "export const main = 1;\n",
    "src/util.ts": "export const util = 1;\n",
    "docs/cli.md": "# CLI\n",
    "docs/other.md": "# Other\n",
    "assets/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3]),
    "package.json": "{}\n",
    "README.md": "readme\n",
  });
  git(root, ["checkout", "-q", "-b", "feature"]);
  writeFileSync(join(root, "src/main.ts"), "export const main = 2;\n");
  writeFileSync(join(root, "assets/logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 9, 9, 9]));
  git(root, ["add", "-A"]);
  git(root, ["commit", "-qm", "feature work"]);
  writeFileSync(join(root, "docs/cli.md"), "# CLI v2\n"); // unstaged
  writeFileSync(join(root, "src/new.ts"), "export const n = 1;\n"); // untracked
  rmSync(join(root, "docs/other.md")); // deleted
  return root;
}

describe("reconciliation tools over MCP", () => {
  it("runs a whole reconciliation pass: affected → diff → mark → diff → changed → snapshot → clear", async () => {
    const root = project();
    const c = new McpClient(root);
    await c.initialize();

    const affected = await c.ok<{ changed_files: string[]; affected_specs: Array<Record<string, unknown>> }>("list_affected_specs", { base_branch: "main" });
    expect(affected.changed_files).toEqual(["assets/logo.png", "docs/cli.md", "docs/other.md", "src/main.ts", "src/new.ts"]);
    expect(affected.affected_specs.map((s) => s["spec_path"])).toEqual([CLI_SPEC, DOCS_SPEC]);
    expect(affected.affected_specs[0]).toEqual({
      spec_path: CLI_SPEC,
      matched_files: [
        { path: "assets/logo.png", category: "assets", glob: "assets/**" },
        { path: "docs/cli.md", category: "docs", glob: "docs/cli.md" },
        { path: "src/main.ts", category: "code", glob: "src/**" },
        { path: "src/new.ts", category: "code", glob: "src/**" },
      ],
      behaviors: [{ name: "parse", given: "argv", then: "a command runs" }],
      constraints: ["no network"],
      invariants: ["exit codes are stable"],
    });

    const diff = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: CLI_SPEC, base_branch: "main" });
    expect(Object.keys(diff).sort()).toEqual(DIFF_KEYS);
    expect(diff["files"]).toEqual(["assets/logo.png", "docs/cli.md", "src/main.ts", "src/new.ts"]);
    expect(diff["skipped"]).toEqual([]);
    expect(diff["binary_changes"]).toEqual(["assets/logo.png"]);
    expect(diff["file_categories"]).toEqual({ "assets/logo.png": "assets", "docs/cli.md": "docs", "src/main.ts": "code", "src/new.ts": "code" });
    expect(diff["spec_changes"]).toEqual([]);
    expect(diff["system_spec"]).toBeNull();
    expect(diff["diff"]).toContain("+export const main = 2;");
    expect(diff["diff"]).toContain("+export const n = 1;");
    expect(diff["diff"]).not.toContain("logo.png\n+");

    const excluded = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: CLI_SPEC, base_branch: "main", exclude_patterns: ["*.png", "docs/**"] });
    expect(excluded["files"]).toEqual(["src/main.ts", "src/new.ts"]);
    expect(excluded["excluded"]).toEqual(["*.png", "docs/**"]);

    const changedBefore = await c.ok<{ changed_artifacts: string[] }>("get_changed_artifacts", { spec_path: CLI_SPEC, artifact_type: "code" });
    expect(changedBefore.changed_artifacts).toEqual(["src/main.ts", "src/new.ts", "src/util.ts"]);

    // A path git never knew is an error the model can read, and nothing is marked.
    expect(await c.fails("mark_reconciled", { files: ["src/main.ts", "does/not/exist.ts"] })).toContain("does/not/exist.ts: no such file or directory");
    const marked = await c.ok<{ updated: number }>("mark_reconciled", { files: ["src/main.ts", "src/new.ts", "src/util.ts", "docs/cli.md"] });
    expect(marked).toEqual({ updated: 4 });

    const after = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: CLI_SPEC, base_branch: "main" });
    expect(after["files"]).toEqual(["assets/logo.png"]);
    expect(after["skipped"]).toEqual(["docs/cli.md", "src/main.ts", "src/new.ts"]);
    const bypass = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: CLI_SPEC, base_branch: "main", bypass_cache: true });
    expect(bypass["skipped"]).toEqual([]);
    expect((await c.ok<{ changed_artifacts: string[] }>("get_changed_artifacts", { spec_path: CLI_SPEC, artifact_type: "code" })).changed_artifacts).toEqual(
      [],
    );
    // Marked for every governing spec: docs/cli.md is reconciled for the docs spec too.
    expect((await c.ok<{ changed_artifacts: string[] }>("get_changed_artifacts", { spec_path: DOCS_SPEC })).changed_artifacts).toEqual([]);

    const snap = await c.ok<{ state_path: string; files: number; specs: number; git_hash: string }>("snapshot_state");
    expect(snap.state_path).toBe(join(root, ".notarai/reconciliation_state.json"));
    expect(snap.files).toBe(4);
    expect(snap.specs).toBe(0);
    expect(snap.git_hash).toBe(git(root, ["rev-parse", "HEAD"]).trim());
    const state = JSON.parse(readFileSync(snap.state_path, "utf8")) as { file_fingerprints: Record<string, unknown> };
    expect(Object.keys(state.file_fingerprints).sort()).toEqual(["docs/cli.md", "src/main.ts", "src/new.ts", "src/util.ts"]);

    expect(await c.ok("clear_cache")).toEqual({ cleared: true });
    // Every reconciliation is forgotten (the committed snapshot does not re-seed it).
    const cleared = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: CLI_SPEC, base_branch: "main" });
    expect(cleared["skipped"]).toEqual([]);
    expect(cleared["files"]).toEqual(["assets/logo.png", "docs/cli.md", "src/main.ts", "src/new.ts"]);

    const closed = await c.close();
    expect(closed.code).toBe(0);
    expectProtocolOnly(closed.lines);
  });

  it("clear_cache without a cache answers cleared: false", async () => {
    const root = project();
    const c = new McpClient(root);
    expect(existsSync(join(root, ".notarai/.cache/notarai.db"))).toBe(false);
    expect(await c.ok("clear_cache")).toEqual({ cleared: false });
    await c.close();
  });

  it("mark_reconciled with spec_path marks for that spec only", async () => {
    const root = project();
    const c = new McpClient(root);
    expect(await c.ok("mark_reconciled", { files: ["docs/cli.md"], spec_path: CLI_SPEC })).toEqual({ updated: 1 });
    const docs = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: DOCS_SPEC, base_branch: "main" });
    expect(docs["files"]).toContain("docs/cli.md");
    const cli = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: CLI_SPEC, base_branch: "main" });
    expect(cli["skipped"]).toEqual(["docs/cli.md"]);
    await c.close();
  });

  it("returns changed spec files whole, with the system spec beside them", async () => {
    const root = project();
    writeFileSync(join(root, CLI_SPEC), `${CLI_YAML}notes: changed\n`);
    const c = new McpClient(root);
    const d = await c.ok<Record<string, unknown>>("get_spec_diff", { spec_path: CLI_SPEC, base_branch: "main" });
    expect(d["spec_changes"]).toEqual([{ path: CLI_SPEC, content: `${CLI_YAML}notes: changed\n` }]);
    expect(d["system_spec"]).toEqual({ path: SYSTEM, content: SYSTEM_YAML });
    await c.close();
  });

  it("caller-fixable failures are isError results naming the problem", async () => {
    const root = project();
    const c = new McpClient(root);
    expect(await c.fails("list_affected_specs", { base_branch: "no-such-branch" })).toMatch(/no-such-branch/);
    expect(await c.fails("list_affected_specs", { base_branch: "--output=/tmp/x" })).toMatch(/--output/);
    expect(await c.fails("get_spec_diff", { spec_path: ".notarai/nope.spec.yaml", base_branch: "main" })).toMatch(
      /nope\.spec\.yaml: not a spec file.*known specs/,
    );
    expect(await c.fails("get_spec_diff", { spec_path: "README.md", base_branch: "main" })).toMatch(/README\.md: not a spec file/);
    expect(await c.fails("mark_reconciled", { files: ["src/main.ts"], spec_path: ".notarai/nope.spec.yaml" })).toMatch(/not a spec file/);
    const closed = await c.close();
    expect(closed.code).toBe(0);
    expectProtocolOnly(closed.lines);
  });

  it("get_changed_artifacts with an artifact_type the spec does not have answers an empty list and a warning (NotarAI's reconcile skill asks every spec for docs)", async () => {
    const root = project();
    const c = new McpClient(root);
    const r = await c.ok<{ changed_artifacts: string[]; warnings?: string[] }>("get_changed_artifacts", { spec_path: CLI_SPEC, artifact_type: "slides" });
    expect(r.changed_artifacts).toEqual([]);
    expect(r.warnings?.join("\n")).toMatch(/no artifact category "slides".*its categories: code, docs, assets/);
    // A category it has still lists its files.
    expect((await c.ok<{ changed_artifacts: string[] }>("get_changed_artifacts", { spec_path: CLI_SPEC, artifact_type: "docs" })).changed_artifacts).toEqual([
      "docs/cli.md",
    ]);
    const closed = await c.close();
    expect(closed.stderr).toMatch(/warning: .*no artifact category "slides"/);
    expectProtocolOnly(closed.lines);
  });

  it("an invalid spec is reported, not a crash", async () => {
    const root = project();
    writeFileSync(join(root, DOCS_SPEC), "schema_version: 0.7\nintent: [unclosed\n");
    const c = new McpClient(root);
    expect(await c.fails("get_spec_diff", { spec_path: DOCS_SPEC, base_branch: "main" })).toMatch(/docs\.spec\.yaml is invalid/);
    const affected = await c.ok<{ affected_specs: Array<{ spec_path: string }> }>("list_affected_specs", { base_branch: "main" });
    expect(affected.affected_specs.map((s) => s.spec_path)).toContain(CLI_SPEC);
    const closed = await c.close();
    expect(closed.stderr).toMatch(/warning: invalid spec/);
  });

  it("outside a git repository the reconciliation tools are isError; the Noma tools still work", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "d.noma"), '::claim{id="c1"}\nx\n::\n');
    const c = new McpClient(dir);
    for (const [tool, args] of [
      ["list_affected_specs", { base_branch: "main" }],
      ["get_spec_diff", { spec_path: ".notarai/x.spec.yaml", base_branch: "main" }],
      ["get_changed_artifacts", { spec_path: ".notarai/x.spec.yaml" }],
      ["mark_reconciled", { files: ["a"] }],
      ["clear_cache", {}],
      ["snapshot_state", {}],
    ] as const) {
      expect(await c.fails(tool, args)).toMatch(/not inside a git repository/);
    }
    expect(await c.ok("list_ids", { file: "d.noma" })).toEqual({ ids: ["c1"], aliases: {} });
    await c.close();
  });

  it("works from a subdirectory of the repository (paths stay repository-relative)", async () => {
    const root = project();
    const c = new McpClient(join(root, "src"));
    const affected = await c.ok<{ changed_files: string[] }>("list_affected_specs", { base_branch: "main" });
    expect(affected.changed_files).toContain("src/main.ts");
    expect(await c.ok("mark_reconciled", { files: ["src/main.ts"] })).toEqual({ updated: 1 });
    await c.close();
  });
});
