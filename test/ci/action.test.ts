/**
 * The GitHub Action (action.yml) and the pre-commit framework manifest, run and read locally:
 * - action.yml declares the inputs and outputs the README documents, and every output is one
 *   `ci` writes to $GITHUB_OUTPUT; its npx fallback pins this package's version;
 * - its step, run the way the runner runs it (bash -eo pipefail, inputs substituted, a
 *   simulated GitHub environment: event file, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 *   GITHUB_WORKSPACE, working-directory), checks a pull request: annotations, summary, outputs,
 *   SARIF file, and fails the step per fail-on;
 * - .pre-commit-hooks.yaml's `files` regex selects exactly the paths check --staged judges (property);
 * - our own workflow runs npm ci, npm test and the Action with the full history.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parse } from "yaml";
import { checkedPathKind } from "../../src/index.js";
import { git, tempDir } from "../helpers/temp-repo.js";
import { BROKEN } from "../staged/fixtures.js";
import { ciRepo, commitAll, writeTree } from "./ci-repo.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface ActionYaml {
  inputs: Record<string, { default: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Array<{ id: string; shell: string; "working-directory": string; env: Record<string, string>; run: string }> };
}
const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYaml;

/** Run the Action's step the way the runner does, with `inputs` over the defaults. */
function runAction(workspace: string, inputs: Record<string, string>, env: Record<string, string>): { code: number; stdout: string; stderr: string } {
  const values: Record<string, string> = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ""]));
  Object.assign(values, inputs);
  const expand = (s: string): string => s.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, name: string) => values[name] ?? "");
  const step = action.runs.steps[0]!;
  const script = join(tempDir(), "step.sh");
  writeFileSync(script, step.run);
  const stepEnv = Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, expand(v)]));
  const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd: join(workspace, expand(step["working-directory"])),
    encoding: "utf8",
    env: { PATH: process.env["PATH"], HOME: process.env["HOME"], GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: ROOT, ...env, ...stepEnv },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("action.yml", () => {
  it("declares the inputs and outputs, as a composite action with one step and no logic of its own", () => {
    expect(Object.keys(action.inputs)).toEqual(["base-ref", "format", "fail-on", "working-directory", "sarif-file", "version"]);
    expect(action.inputs["version"]!.default).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
    expect(action.runs.using).toBe("composite");
    expect(action.runs.steps).toHaveLength(1);
    for (const [name, o] of Object.entries(action.outputs)) expect(o.value).toBe(`\${{ steps.check.outputs.${name} }}`);
    expect(action.runs.steps[0]!.run).not.toContain("${{"); // inputs reach the script only through env (no injection)
  });

  it("runs the PR check in a simulated GitHub environment: annotations, summary, outputs, SARIF, step result", async () => {
    const workspace = tempDir();
    const repo = await ciRepo();
    renameSync(repo, join(workspace, "project"));
    const project = join(workspace, "project");
    writeTree(project, { "docs/bad.noma": BROKEN, "src/a.ts": "a2\n" });
    const head = commitAll(project, "pr");
    const base = git(project, ["rev-parse", "main"]).trim();
    const dir = tempDir();
    const files = { event: join(dir, "event.json"), output: join(dir, "output"), summary: join(dir, "summary.md") };
    writeFileSync(files.event, JSON.stringify({ pull_request: { base: { sha: base }, head: { sha: head } } }));
    writeFileSync(files.output, "");
    const env = { GITHUB_EVENT_PATH: files.event, GITHUB_EVENT_NAME: "pull_request", GITHUB_OUTPUT: files.output, GITHUB_STEP_SUMMARY: files.summary };

    const r = runAction(workspace, { "working-directory": "project", "sarif-file": "out.sarif" }, env);
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe('::error file=docs/bad.noma,line=3,endLine=5,col=1,title=[broken-reference]::for="nope" on ::evidence points at an id that does not exist.');
    expect(r.stdout).toContain("::warning file=src/a.ts,title=[drift-unreconciled]::Governed by .notarai/api.spec.yaml");
    const outputs = Object.fromEntries(readFileSync(files.output, "utf8").trim().split("\n").map((l) => l.split(/=(.*)/s).slice(0, 2)));
    expect(Object.keys(outputs).sort()).toEqual(Object.keys(action.outputs).sort());
    expect(outputs).toMatchObject({ "affected-specs": '[".notarai/api.spec.yaml"]', errors: "1", drift: "2", result: "fail" });
    expect(readFileSync(files.summary, "utf8")).toContain(`Base \`${base}\` (pull_request)`);
    expect(JSON.parse(readFileSync(join(project, "out.sarif"), "utf8")).version).toBe("2.1.0");

    writeFileSync(files.output, "");
    const lenient = runAction(workspace, { "working-directory": "project", "fail-on": "never", format: "json", "base-ref": "main" }, env);
    expect(lenient.code).toBe(0);
    expect(JSON.parse(lenient.stdout)).toMatchObject({ schema: "noma-reconcile/ci@1", base: { ref: "main", source: "option" } });
    expect(readFileSync(files.output, "utf8")).toContain("result=pass\n");
  });

  it("prefers the project's own install (node_modules/.bin/noma-reconcile)", async () => {
    const workspace = await ciRepo();
    mkdirSync(join(workspace, "node_modules/.bin"), { recursive: true });
    writeFileSync(join(workspace, "node_modules/.bin/noma-reconcile"), "#!/bin/sh\necho \"local binary: $*\"\n", { mode: 0o755 });
    const r = runAction(workspace, { "base-ref": "main" }, {});
    expect(r).toMatchObject({ code: 0, stdout: "local binary: ci --format github --fail-on error --base main\n" });
  });
});

describe(".pre-commit-hooks.yaml", () => {
  const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as Array<Record<string, unknown>>;
  const hook = hooks[0]!;

  it("runs check --staged once, serially, without file names", () => {
    expect(hook).toMatchObject({ id: "noma-reconcile", entry: "noma-reconcile check --staged", language: "node", pass_filenames: false, require_serial: true });
  });

  it("its files regex selects exactly the paths check --staged judges", () => {
    const files = new RegExp(String(hook["files"]));
    const seg = fc.constantFrom("a", "docs", ".notarai", "x.noma", "spec", ".cache", "b.spec.yaml", "config.yaml");
    const ext = fc.constantFrom("", ".noma", ".noma.patches", ".noma.yml", ".noma.yaml", ".noma.capabilities.yml", ".spec.yaml", ".yaml", ".md", ".patches", ".NOMA");
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 3 }), ext, (parts, e) => {
        const path = `${parts.join("/")}${e}`;
        expect(files.test(path)).toBe(checkedPathKind(path) !== null && !/[A-Z]/.test(e));
      }),
    );
  });
});

describe(".github/workflows/ci.yml", () => {
  it("runs npm ci and npm test, and our own PR check through the Action with the full history", () => {
    const wf = parse(readFileSync(join(ROOT, ".github/workflows/ci.yml"), "utf8")) as { jobs: Record<string, { steps: Array<Record<string, unknown>> }> };
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
    expect(steps.map((s) => s["run"]).filter(Boolean)).toEqual(expect.arrayContaining(["npm ci", "npm test"]));
    const check = wf.jobs["noma-reconcile"]!.steps;
    expect(check[0]).toMatchObject({ uses: "actions/checkout@v4", with: { "fetch-depth": 0 } });
    expect(check.some((s) => s["uses"] === "./")).toBe(true);
    expect(existsSync(join(ROOT, "action.yml"))).toBe(true);
  });
});
