/**
 * The reconciliation commands as users run them (the built CLI, spawned):
 * exit codes (0 clean, 1 findings, 2 usage/config/runtime), the versioned
 * JSON envelope, text output, --help with examples, any subdirectory, and
 * results identical with and without the short-run WASM tiering.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { markReconciled } from "../../src/reconcile/mark-reconciled.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "./helpers/specs.js";
import { branch, commitAll, envelopeResult, read, write } from "./helpers/repo-ops.js";

const SYSTEM = ".notarai/system.spec.yaml";
const CLI_SPEC = ".notarai/cli.spec.yaml";

const templates = repoTemplates();

/** Each test's repository: a copy of the one built once per policy (test/helpers/repo-templates.ts). */
function project(policy: "warn" | "strict" = "warn"): string {
  return templates.copy(`project:${policy}`, () => {
    const root = tempRepo({
      [SYSTEM]: specYaml({ subsystems: ["./cli.spec.yaml"], artifacts: { docs: ["docs/**"] }, coverage: { policy, message: "Every file needs a spec." } }),
      [CLI_SPEC]: specYaml({ constraints: ["c1"], artifacts: { code: ["src/**"], docs: ["docs/cli.md"] } }),
      "src/a.ts": "a\n",
      "src/sub/b.ts": "b\n",
      "docs/cli.md": "# cli\n",
      "README.md": "r\n",
    });
    branch(root, "feature");
    return root;
  });
}

function json(stdout: string): {
  schema: string;
  tool: { name: string; version: string };
  command: string;
  ok: boolean;
  summary: Record<string, unknown>;
  result: Record<string, unknown>;
  warnings: string[];
} {
  return JSON.parse(stdout);
}

describe("specs", () => {
  it("validate: exit 0 when valid, 1 with problems (file:line:col: path: message), JSON envelope", () => {
    const root = project();
    let r = runCli(["specs", "validate"], { cwd: root });
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toContain("2 spec files checked");
    write(root, ".notarai/bad.spec.yaml", 'schema_version: "0.7"\nintent: x\nbehaviors: []\nartifacts: {}\nextra: 1\n');
    r = runCli(["specs", "validate"], { cwd: join(root, "src") });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      '.notarai/bad.spec.yaml:3:12: behaviors: expected a non-empty list of behaviors (required unless tier is registered or derived), found an empty list [out-of-range]\n.notarai/bad.spec.yaml:5:1: extra: unknown key "extra"; allowed here: schema_version, intent, behaviors, constraints, invariants, open_questions, decisions, subsystems, applies, dependencies, exclude, coverage, notes, tier, artifacts, output, content, states, audience, variants, domain, design, pipeline, feedback, variants_resolved, compliance [unknown-key]\n',
    );
    r = runCli(["specs", "validate", ".notarai/cli.spec.yaml", "--format", "json"], { cwd: root });
    expect(r.code).toBe(0);
    const env = json(r.stdout);
    expect(env).toMatchObject({ schema: "noma-reconcile/specs-validate@2", command: "specs validate", ok: true, tool: { name: "noma-reconcile" } });
    expect(env.result["files"]).toEqual([{ path: CLI_SPEC, schema_version: "0.7", valid: true, problems: [] }]);
    expect(runCli(["specs", "validate", "README.md"], { cwd: root }).code).toBe(2);
    expect(runCli(["specs", "validate", "../x.spec.yaml"], { cwd: root }).code).toBe(2);
    expect(runCli(["specs", "frobnicate"], { cwd: root }).code).toBe(2);
  });

  it("schema: prints the JSON Schema generated from zod", () => {
    const root = project();
    const r = runCli(["specs", "schema"], { cwd: root });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { $schema: string; anyOf: unknown[] };
    expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(s.anyOf).toHaveLength(3);
    expect(JSON.parse(runCli(["specs", "schema", "--schema-version", "0.5"], { cwd: root }).stdout).$ref).toBe("#/$defs/spec-0.5");
  });
});

describe("governs and coverage", () => {
  it("governs: one line per (path, spec) with category and glob; exit 1 when a path has none", () => {
    const root = project();
    let r = runCli(["governs", "a.ts", "sub/b.ts"], { cwd: join(root, "src") });
    expect(r).toMatchObject({ code: 0, stdout: `src/a.ts: ${CLI_SPEC} (code, via src/**)\nsrc/sub/b.ts: ${CLI_SPEC} (code, via src/**)\n` });
    r = runCli(["governs", "docs/cli.md", "README.md", "--format", "json"], { cwd: root });
    expect(r.code).toBe(1);
    const res = json(r.stdout).result as { paths: Array<{ path: string; governed_by: unknown[] }> };
    expect(res.paths.map((p) => [p.path, p.governed_by.length])).toEqual([
      ["docs/cli.md", 2],
      ["README.md", 0],
    ]);
    expect(runCli(["governs"], { cwd: root }).code).toBe(2);
  });

  it("governs a directory: the files git knows under it, grouped by spec; a path that does not exist still says so", () => {
    const root = project();
    write(root, "docs/new.md", "new\n");
    write(root, ".gitignore", "docs/*.log\n");
    write(root, "docs/debug.log", "ignored\n");
    let r = runCli(["governs", "docs", "src/a.ts", "docs/cli.md"], { cwd: root });
    expect(r).toMatchObject({
      code: 0,
      stdout: [
        "docs/: 2 files",
        `  ${CLI_SPEC} (docs, via docs/cli.md): 1 file`,
        "    docs/cli.md",
        `  ${SYSTEM} (docs, via docs/**): 2 files`,
        "    docs/cli.md",
        "    docs/new.md",
        `src/a.ts: ${CLI_SPEC} (code, via src/**)`,
        `docs/cli.md: ${CLI_SPEC} (docs, via docs/cli.md)`,
        `docs/cli.md: ${SYSTEM} (docs, via docs/**)`,
        "",
      ].join("\n"),
    });
    r = runCli(["governs", "."], { cwd: join(root, "src") });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`src/: 2 files\n  ${CLI_SPEC} (code, via src/**): 2 files\n    src/a.ts\n    src/sub/b.ts\n`);
    r = runCli(["governs", "."], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("  not governed (no spec's globs match): 2 files\n    .gitignore\n    README.md\n");
    r = runCli(["governs", "docs", "--format", "json"], { cwd: root });
    const res = json(r.stdout).result as { directories: unknown; paths: Array<{ path: string; state: string }> };
    expect(res.directories).toEqual([{ path: "docs", files: ["docs/cli.md", "docs/new.md"] }]);
    expect(res.paths.map((p) => [p.path, p.state])).toEqual([
      ["docs/cli.md", "tracked"],
      ["docs/new.md", "untracked"],
    ]);
    write(root, "empty/.keep", "");
    write(root, ".gitignore", "docs/*.log\nempty/\n");
    expect(runCli(["governs", "empty"], { cwd: root })).toMatchObject({ code: 0, stdout: "empty/: no files git knows under it\n" });
    expect(runCli(["governs", "docs/future.md", "nowhere/x"], { cwd: root })).toMatchObject({
      code: 1,
      stdout: `docs/future.md: ${SYSTEM} (docs, via docs/**) [does not exist yet]\nnowhere/x: not governed (no spec's globs match)\n`,
    });
  });

  it("coverage: lists uncovered tracked files; exit 1 only under a strict policy", () => {
    const warn = project("warn");
    let r = runCli(["coverage"], { cwd: warn });
    expect(r).toMatchObject({ code: 0, stdout: "README.md\n" });
    expect(r.stderr).toContain("Every file needs a spec.");
    const strict = project("strict");
    r = runCli(["coverage", "--format", "json"], { cwd: strict });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: "" });
    expect(json(r.stdout).result).toMatchObject({ policy: "strict", uncovered: ["README.md"], failing: true });
  });
});

describe("affected, diff, changed, mark-reconciled", () => {
  it("run from a subdirectory with repo-relative POSIX output, text and JSON", () => {
    const root = project();
    write(root, "src/a.ts", "a2\n");
    commitAll(root, "change");
    write(root, "src/sub/new.ts", "new\n");
    const sub = join(root, "src", "sub");
    let r = runCli(["affected", "--base", "main"], { cwd: sub });
    expect(r).toMatchObject({
      code: 0,
      stdout: `${CLI_SPEC}  (1 behavior, 1 constraint, 0 invariants)\n  src/a.ts  (code, via src/**)\n  src/sub/new.ts  (code, via src/**)\n`,
    });
    r = runCli(["affected", "--base", "main", "--format", "json"], { cwd: sub });
    expect(json(r.stdout)).toMatchObject({
      schema: "noma-reconcile/affected@2",
      command: "affected",
      ok: true,
      summary: { base: { ref: "main", source: "option" }, changed_files: 2, affected_specs: 1 },
      result: { changed_files: ["src/a.ts", "src/sub/new.ts"] },
    });

    r = runCli(["diff", "--spec", ".notarai/cli.spec.yaml", "--base", "main", "--format", "json"], { cwd: sub });
    expect(r.code).toBe(0);
    const d = envelopeResult<Record<string, unknown>>(r.stdout);
    expect(Object.keys(d).sort()).toEqual(["binary_changes", "diff", "excluded", "file_categories", "files", "skipped", "spec_changes", "system_spec"]);
    expect(d["files"]).toEqual(["src/a.ts", "src/sub/new.ts"]);
    r = runCli(["diff", "--spec", "../../.notarai/cli.spec.yaml", "--base", "main"], { cwd: sub });
    expect(r.stdout).toContain("+a2");
    expect(r.stderr).toContain("2 files to reconcile: src/a.ts, src/sub/new.ts");

    r = runCli(["mark-reconciled", "new.ts", "../a.ts"], { cwd: sub });
    expect(r).toMatchObject({ code: 0, stdout: `Marked 2 files as reconciled: 2 for ${CLI_SPEC}.\n` });
    r = runCli(["diff", "--spec", CLI_SPEC, "--base", "main", "--exclude", "*.md", "--format", "json"], { cwd: root });
    expect(envelopeResult(r.stdout)).toMatchObject({ files: [], skipped: ["src/a.ts", "src/sub/new.ts"], excluded: ["*.md"] });

    r = runCli(["changed", "--spec", CLI_SPEC], { cwd: root });
    expect(r).toMatchObject({ code: 0, stdout: "docs/cli.md\nsrc/sub/b.ts\n" });
    r = runCli(["changed", "--spec", CLI_SPEC, "--type", "docs", "--format", "json"], { cwd: root });
    expect(json(r.stdout)).toMatchObject({ schema: "noma-reconcile/changed@2", result: { changed_artifacts: ["docs/cli.md"] } });
    // A category the spec does not have lists nothing, with a warning (NotarAI's answer), not an error.
    const unknown = runCli(["changed", "--spec", CLI_SPEC, "--type", "slides", "--format", "json"], { cwd: root });
    expect(unknown.code).toBe(0);
    expect(json(unknown.stdout)).toMatchObject({ ok: true, result: { changed_artifacts: [] } });
    expect(unknown.stderr).toMatch(/no artifact category "slides"/);
  });

  it("affected names, for each spec, the changed files that made it affected and the glob behind each", () => {
    const root = project();
    write(root, "docs/cli.md", "# cli v2\n");
    write(root, "src/a.ts", "a2\n");
    write(root, CLI_SPEC, `${read(root, CLI_SPEC)}invariants: ["i1"]\n`);
    write(root, "README.md", "r2\n");
    let r = runCli(["affected", "--base", "main"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `${CLI_SPEC}  (1 behavior, 1 constraint, 1 invariant)`,
        `  ${CLI_SPEC}  (the spec's own file)`,
        "  docs/cli.md  (docs, via docs/cli.md)",
        "  src/a.ts  (code, via src/**)",
        `${SYSTEM}  (1 behavior, 0 constraints, 0 invariants)`,
        "  docs/cli.md  (docs, via docs/**)",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toContain("4 changed files since the merge-base with main; 2 affected specs.");
    r = runCli(["affected", "--base", "main", "--format", "json"], { cwd: root });
    const specs = (json(r.stdout).result["affected_specs"] as Array<{ spec_path: string; matched_files: unknown }>).map((s) => [s.spec_path, s.matched_files]);
    expect(specs).toEqual([
      [
        CLI_SPEC,
        [
          { path: CLI_SPEC, category: "spec", glob: CLI_SPEC },
          { path: "docs/cli.md", category: "docs", glob: "docs/cli.md" },
          { path: "src/a.ts", category: "code", glob: "src/**" },
        ],
      ],
      [SYSTEM, [{ path: "docs/cli.md", category: "docs", glob: "docs/**" }]],
    ]);
  });

  it("without --base, affected and diff find the base as ci does (the default branch here) and say which and why", () => {
    const root = project();
    write(root, "src/a.ts", "a2\n");
    commitAll(root, "change");
    let r = runCli(["affected"], { cwd: root });
    expect(r).toMatchObject({ code: 0, stdout: `${CLI_SPEC}  (1 behavior, 1 constraint, 0 invariants)\n  src/a.ts  (code, via src/**)\n` });
    expect(r.stderr).toContain("base: main (the default branch");
    r = runCli(["affected", "--format", "json"], { cwd: root });
    expect(json(r.stdout)).toMatchObject({ summary: { base: { ref: "main", source: "default-branch" } }, result: { changed_files: ["src/a.ts"] } });
    r = runCli(["diff", "--spec", CLI_SPEC, "--format", "json"], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ summary: { base: { ref: "main", source: "default-branch" }, files: 1 }, result: { files: ["src/a.ts"] } });
    // A GitHub pull_request event names the base, as it does for ci.
    const mainSha = git(root, ["rev-parse", "main"]).trim();
    const eventDir = tempDir();
    write(eventDir, "event.json", JSON.stringify({ pull_request: { number: 1, base: { sha: mainSha, ref: "main" } } }));
    const event = join(eventDir, "event.json");
    r = runCli(["affected", "--format", "json"], { cwd: root, env: { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: "pull_request" } });
    expect(json(r.stdout).summary).toMatchObject({ base: { ref: mainSha, source: "pull_request" } });
    // No base to find: exit 2, and the message says to pass --base.
    git(root, ["branch", "-m", "main", "trunk"]);
    r = runCli(["affected"], { cwd: root });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: "" });
    expect(r.stderr).toContain("pass --base <ref>");
  });

  it("usage and runtime errors exit 2 with a message on stderr and nothing on stdout", () => {
    const root = project();
    const usage = (command: string) => `\nRun \`noma-reconcile ${command} --help\` for usage.\n`;
    const specRequired = "noma-reconcile: --spec <path> is required (a .notarai/**/*.spec.yaml file)";
    const cases: Array<[string[], string]> = [
      [["affected", "--base", "-x"], `noma-reconcile: unknown option '-x' for affected.${usage("affected")}`],
      [["affected", "--base", ""], `noma-reconcile: --base needs a ref (the branch to compare with, e.g. main)${usage("affected")}`],
      [
        ["affected", "--base", "no-such-ref"],
        'noma-reconcile: unknown ref "no-such-ref": it does not name a commit in this repository (try `git fetch`, or check the branch name)\n',
      ],
      [["diff", "--base", "main"], `${specRequired}${usage("diff")}`],
      [
        ["diff", "--spec", ".notarai/none.spec.yaml", "--base", "main"],
        `noma-reconcile: .notarai/none.spec.yaml: not a spec file of this repository (known specs: ${CLI_SPEC}, ${SYSTEM})\n`,
      ],
      [["changed"], `${specRequired}${usage("changed")}`],
      [["mark-reconciled"], `noma-reconcile: give the files or directories to mark, or --all to baseline the whole repository${usage("mark-reconciled")}`],
      [["mark-reconciled", "/etc/passwd"], `noma-reconcile: /etc/passwd: path is outside the repository (${root})${usage("mark-reconciled")}`],
      [["affected", "--base", "main", "--format", "yaml"], `noma-reconcile: --format must be one of text, json; got "yaml"${usage("affected")}`],
      [["cache", "explode"], `noma-reconcile: unknown action 'explode' for cache; expected status or clear.${usage("cache")}`],
      [["state", "launch"], `noma-reconcile: unknown action 'launch' for state; expected snapshot, show or reset.${usage("state")}`],
    ];
    for (const [args, stderr] of cases) expect({ args, ...runCli(args, { cwd: root }) }).toEqual({ args, code: 2, stdout: "", stderr });
    const outside = tempDir();
    expect(runCli(["affected", "--base", "main"], { cwd: outside }).stderr).toContain("not inside a git repository");
  });
});

describe("cache and state", () => {
  it("cache status / clear, state snapshot / show / reset", async () => {
    const root = project();
    let r = runCli(["cache", "status", "--format", "json"], { cwd: root });
    expect(json(r.stdout).result).toMatchObject({ status: "absent", rows: { reconciled: 0 } });
    // The rows cache status then counts, written in process (what `mark-reconciled src/a.ts docs/cli.md` writes).
    await markReconciled(root, { files: ["src/a.ts", "docs/cli.md"] });
    r = runCli(["cache", "status"], { cwd: root });
    expect(r.stdout).toContain("status: ok");
    expect(r.stdout).toContain(`  ${CLI_SPEC}: 2`);
    r = runCli(["state", "snapshot", "--format", "json"], { cwd: join(root, "docs") });
    expect(json(r.stdout).result).toMatchObject({
      state_path: join(root, ".notarai/reconciliation_state.json"),
      files: 2,
      specs: 0,
      git_hash: git(root, ["rev-parse", "HEAD"]).trim(),
    });
    expect(read(root, ".notarai/reconciliation_state.json")).toContain('"src/a.ts"');
    r = runCli(["state", "show"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("fingerprints: 2 files, 0 specs");
    expect(r.stdout).toContain("(an ancestor of HEAD)");
    expect(runCli(["cache", "clear"], { cwd: root }).stdout).toContain("Cleared");
    expect(runCli(["changed", "--spec", CLI_SPEC], { cwd: root }).stdout).toBe("docs/cli.md\nsrc/a.ts\nsrc/sub/b.ts\n");
    expect(runCli(["state", "reset"], { cwd: root }).stdout).toBe("Removed .notarai/reconciliation_state.json.\n");
    expect(runCli(["state", "show", "--format", "json"], { cwd: root }).stdout).toContain('"exists": false');
  });

  it("gives the same answers with the short-run WASM tiering turned off", () => {
    const root = project();
    write(root, "src/a.ts", "a2\n");
    const plain = { NOMA_RECONCILE_WASM_TIERING: "default" };
    const a = runCli(["changed", "--spec", CLI_SPEC, "--format", "json"], { cwd: root });
    const b = runCli(["changed", "--spec", CLI_SPEC, "--format", "json"], { cwd: root, env: plain });
    expect(a.stdout).toBe(b.stdout);
    expect(runCli(["mark-reconciled", "src/a.ts"], { cwd: root, env: plain }).code).toBe(0);
    const c = runCli(["changed", "--spec", CLI_SPEC, "--format", "json"], { cwd: root });
    expect(envelopeResult<{ changed_artifacts: string[] }>(c.stdout).changed_artifacts).not.toContain("src/a.ts");
  });
});

describe("--help", () => {
  it("documents every reconciliation command with examples and exit codes", () => {
    const root = tempRepo();
    for (const cmd of ["specs", "governs", "coverage", "affected", "diff", "changed", "mark-reconciled", "cache", "state"]) {
      const r = runCli([cmd, "--help"], { cwd: root });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Examples:");
      expect(r.stdout).toContain(`noma-reconcile ${cmd}`);
      expect(r.stdout).toContain("Exit codes");
    }
  });
});
