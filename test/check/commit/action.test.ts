/**
 * The GitHub Action (action.yml) and the pre-commit framework manifest, run and read locally:
 * - action.yml declares the inputs and outputs the README documents, every output is one `ci`
 *   writes to $GITHUB_OUTPUT, and inputs reach its scripts only through env;
 * - its steps, run the way the runner runs a composite action referenced as
 *   `uses: <owner>/noma-reconcile@<ref>`: the action's directory is a fresh clone of this
 *   repository at HEAD (no dist/, no node_modules), each `run:` goes to `bash --noprofile --norc
 *   -eo pipefail` with `${{ inputs.* }}`, `${{ github.action_path }}` and `${{ steps.*.outputs.* }}`
 *   substituted, each step gets its own GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and the
 *   action's outputs are read from its steps' outputs. It builds its own CLI (npm ci with the
 *   lockfile, offline once the npm cache is filled) and checks a pull request: annotations,
 *   summary, outputs, SARIF file, the step failing per fail-on; it runs the CLI its ref built,
 *   never the project's node_modules/.bin, and needs no package.json in the project;
 * - .pre-commit-hooks.yaml runs the hook's question to git on every commit, then check --staged (deletions included);
 * - our own workflow runs npm ci, npm test, and the Action the way users run it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { HOOK_PROGRAM, NOTHING_STAGED, PRE_COMMIT_FRAMEWORK_PROGRAM } from "../../../src/hooks/hook-script.js";
import { CLI } from "../../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../../helpers/temp-repo.js";
import { cloneHead, INSTALL_TIMEOUT_MS, ROOT, userEnv } from "../../install/install-helpers.js";
import { BROKEN, CLAIM, patch, SPEC, VALID } from "../staged/fixtures.js";
import { ciRepo, commitAll, writeTree } from "./ci-repo.js";
import { execAgent, lineDiff, runRepoAsync, SPEC as RUN_SPEC } from "../../runs/helpers/run-repo.js";

interface ActionStep {
  id?: string;
  shell?: string;
  "working-directory"?: string;
  env?: Record<string, string>;
  run?: string;
  uses?: string;
  if?: string;
}
interface ActionYaml {
  inputs: Record<string, { default: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}
const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYaml;

/** A step's GITHUB_OUTPUT file as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length === 0) continue;
    const block = /^([^=]+?)<<(.+)$/.exec(line);
    if (block !== null) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== block[2]; i++) value.push(lines[i]!);
      out[block[1]!] = value.join("\n");
    } else {
      const eq = line.indexOf("=");
      out[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return out;
}

interface ActionRun {
  /** The failing step's exit status, or 0 when every step succeeded. */
  code: number;
  /** The steps' stdout, concatenated (annotations are stdout lines). */
  stdout: string;
  stderr: string;
  /** The action's outputs, resolved from its steps' outputs as the runner does. */
  outputs: Record<string, string>;
  /** The steps' step summaries, concatenated (the job summary). */
  summary: string;
}

/**
 * Run the action's steps the way the runner runs a composite action whose files are in
 * `actionPath`: `inputs` over the defaults, `env` the job's environment (event, …).
 */
function runAction(actionPath: string, workspace: string, inputs: Record<string, string>, env: Record<string, string>): ActionRun {
  const values: Record<string, string> = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ""]));
  Object.assign(values, inputs);
  const steps: Record<string, Record<string, string>> = {};
  const expand = (s: string): string =>
    s.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
      let m: RegExpExecArray | null;
      if ((m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(expr)) !== null) return values[m[1]!] ?? "";
      if (expr === "github.action_path") return actionPath;
      if (expr === "github.token") return env["GITHUB_TOKEN"] ?? "";
      if (expr === "github.workspace") return workspace;
      if ((m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(expr)) !== null) return steps[m[1]!]?.[m[2]!] ?? "";
      throw new Error(`action.yml uses \${{ ${expr} }}, which this test's runner does not provide`);
    });
  // A default may itself be an expression (github-token: ${{ github.token }}): the runner evaluates it.
  for (const k of Object.keys(values)) if (!(k in inputs)) values[k] = expand(values[k]!);
  const dir = tempDir("nr-runner-");
  const result: ActionRun = { code: 0, stdout: "", stderr: "", outputs: {}, summary: "" };
  action.runs.steps.forEach((step, n) => {
    if (result.code !== 0) return; // a failed step ends the action
    expect(step.uses, "a composite step this runner can run").toBeUndefined();
    if (step.if !== undefined && !condition(step.if, values)) return;
    expect(step.shell).toBe("bash");
    const script = join(dir, `step-${n}.sh`);
    const output = join(dir, `output-${n}`);
    const summary = join(dir, `summary-${n}.md`);
    writeFileSync(script, expand(step.run!));
    writeFileSync(output, "");
    writeFileSync(summary, "");
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)]));
    const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: resolve(workspace, expand(step["working-directory"] ?? ".")),
      encoding: "utf8",
      maxBuffer: 1 << 28,
      timeout: INSTALL_TIMEOUT_MS,
      // A step that runs npm (the build's `npm ci`) may reach the registry: NODE_EXTRA_CA_CERTS as the user's shell has it.
      env: userEnv(
        {
          CI: "true",
          GITHUB_ACTIONS: "true",
          GITHUB_WORKSPACE: workspace,
          GITHUB_ACTION_PATH: actionPath,
          RUNNER_TEMP: dir,
          ...env,
          GITHUB_OUTPUT: output,
          GITHUB_STEP_SUMMARY: summary,
          ...stepEnv,
        },
        /\bnpm\b/.test(step.run!),
      ),
    });
    if (r.error) throw r.error;
    result.stdout += r.stdout;
    result.stderr += r.stderr;
    result.summary += readFileSync(summary, "utf8");
    if (step.id !== undefined) steps[step.id] = parseOutputFile(readFileSync(output, "utf8"));
    result.code = r.status ?? -1;
  });
  result.outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, expand(o.value)]));
  return result;
}

/** A step's `if:` as this runner reads it: `\${{ inputs.NAME == 'v' }}` or `!=` (what action.yml uses). */
function condition(expr: string, inputs: Record<string, string>): boolean {
  const m = /^\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*(==|!=)\s*'([^']*)'\s*\}\}$/.exec(expr);
  if (m === null) throw new Error(`action.yml uses if: ${expr}, which this test's runner does not evaluate`);
  return (inputs[m[1]!] === m[3]) === (m[2] === "==");
}

/** A pull_request event naming `base` (and HEAD of `repo`), and the job environment that points at it. */
function pullRequestEvent(repo: string, base: string): Record<string, string> {
  const event = join(tempDir("nr-event-"), "event.json");
  writeFileSync(event, JSON.stringify({ pull_request: { base: { sha: base }, head: { sha: git(repo, ["rev-parse", "HEAD"]).trim() } } }));
  return { GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: "pull_request" };
}

/** What `uses: <owner>/noma-reconcile@<ref>` puts in the runner's action directory: this repository at the ref, without dist/ or node_modules. Built by the first run, reused by the next (as on one runner). */
let actionPath = "";
let actionParent = "";
beforeAll(() => {
  actionParent = tempDir("nr-action-");
  actionPath = join(actionParent, "noma-reconcile");
  cloneHead(actionPath);
});
afterAll(() => rmSync(actionParent, { recursive: true, force: true }));

describe("action.yml", () => {
  it("declares the inputs and outputs, as a composite action whose scripts read inputs only through env and never reach for npx", () => {
    expect(Object.keys(action.inputs)).toEqual([
      "mode",
      "base-ref",
      "format",
      "fail-on",
      "working-directory",
      "sarif-file",
      "reconcile-target",
      "specs",
      "github-token",
    ]);
    expect(action.runs.using).toBe("composite");
    const fromReconcile = ["run-id", "pull-request"];
    for (const [name, o] of Object.entries(action.outputs))
      expect(o.value).toBe(`\${{ steps.${fromReconcile.includes(name) ? "reconcile" : "check"}.outputs.${name} }}`);
    expect(action.runs.steps.map((st) => `${st.id}:${st.if ?? "always"}`)).toEqual([
      "build:always",
      "check:${{ inputs.mode != 'reconcile' }}",
      "reconcile:${{ inputs.mode == 'reconcile' }}",
    ]);
    for (const step of action.runs.steps) {
      expect(step.run).not.toContain("${{"); // no injection
      expect(step.run).not.toMatch(/\bnpx\b/); // nothing fetched at run time but the lockfile's packages
    }
  });

  it(
    "from a fresh clone without dist/: builds its CLI, checks a clean pull request of a project with no package.json (exit 0, outputs, summary)",
    () => {
      expect(existsSync(join(actionPath, "dist"))).toBe(false);
      expect(existsSync(join(actionPath, "node_modules"))).toBe(false);
      const workspace = nonNodeProject();
      const r = runAction(actionPath, workspace, {}, pullRequestEvent(workspace, git(workspace, ["rev-parse", "main"]).trim()));
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(existsSync(join(actionPath, "dist/cli.cjs"))).toBe(true);
      expect(r.outputs).toMatchObject({ errors: "0", result: "pass", "affected-specs": '[".notarai/api.spec.yaml"]', "affected-spec-count": "1" });
      expect(Object.entries(r.outputs).every(([k, v]) => v.length > 0 || k === "run-id" || k === "pull-request")).toBe(true);
      expect(r.stdout).not.toContain("::error");
      expect(r.summary).toContain(`Base \`${git(workspace, ["rev-parse", "main"]).trim()}\` (pull_request)`);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "checks a pull request with an invalid document: annotations, summary, outputs, SARIF, the step fails per fail-on",
    async () => {
      const workspace = tempDir();
      const repo = await ciRepo();
      renameSync(repo, join(workspace, "project"));
      const project = join(workspace, "project");
      writeTree(project, { "docs/bad.noma": BROKEN, "src/a.ts": "a2\n" });
      commitAll(project, "pr");
      const base = git(project, ["rev-parse", "main"]).trim();
      const env = pullRequestEvent(project, base);

      const r = runAction(actionPath, workspace, { "working-directory": "project", "sarif-file": "out.sarif" }, env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain(
        '::error file=docs/bad.noma,line=3,endLine=5,col=1,title=[broken-reference]::for="nope" on ::evidence points at an id that does not exist.',
      );
      expect(r.stdout).toContain("::warning file=src/a.ts,title=[drift-unreconciled]::Governed by .notarai/api.spec.yaml");
      expect(r.outputs).toMatchObject({ "affected-specs": '[".notarai/api.spec.yaml"]', errors: "1", drift: "2", result: "fail" });
      expect(r.summary).toContain(`Base \`${base}\` (pull_request)`);
      expect(JSON.parse(readFileSync(join(project, "out.sarif"), "utf8")).version).toBe("2.1.0");

      const lenient = runAction(actionPath, workspace, { "working-directory": "project", "fail-on": "never", format: "json", "base-ref": "main" }, env);
      expect(lenient.code, lenient.stderr).toBe(0);
      expect(JSON.parse(lenient.stdout.slice(lenient.stdout.indexOf("{")))).toMatchObject({
        schema: "noma-reconcile/ci@2",
        result: { base: { ref: "main", source: "option" } },
      });
      expect(lenient.outputs["result"]).toBe("pass");
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "runs the CLI its ref built, not the project's node_modules/.bin/noma-reconcile (which may be another version)",
    async () => {
      const workspace = await ciRepo();
      mkdirSync(join(workspace, "node_modules/.bin"), { recursive: true });
      writeFileSync(join(workspace, "node_modules/.bin/noma-reconcile"), '#!/bin/sh\necho "the project\'s binary: $*"\n', { mode: 0o755 });
      const r = runAction(actionPath, workspace, { "base-ref": "main" }, {});
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain("the project's binary");
      expect(r.outputs["result"]).toBe("pass");
    },
    INSTALL_TIMEOUT_MS,
  );
});

describe("action.yml, mode reconcile", () => {
  it(
    "runs the loop with the project's agents; without a token it keeps the run's branch and says what it would have opened (outputs: run-id)",
    async () => {
      const workspace = await runRepoAsync({
        drift: { "src/app.ts": `${OLD}\n` },
        config: { agents: { act: execAgent("act.json") } },
        behaviors: {
          "act.json": { files: { "patch.diff": lineDiff("src/app.ts", OLD, NEW), "reconciled.json": [{ spec: RUN_SPEC, path: "src/app.ts" }] } },
        },
      });
      const r = runAction(
        actionPath,
        workspace,
        { mode: "reconcile" },
        { GITHUB_REPOSITORY: "acme/app", GITHUB_REF_NAME: "main", GITHUB_EVENT_NAME: "schedule" },
      );
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.outputs["run-id"]).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
      expect(r.outputs["pull-request"]).toBe("");
      // The check step did not run: no check outputs.
      expect(r.outputs["result"]).toBe("");
      const id = r.outputs["run-id"]!;
      expect(r.stdout).toContain(`run ${id} passed; GITHUB_TOKEN is not set: nothing pushed: the result stays on noma-reconcile/run/${id}`);
      expect(git(workspace, ["log", "-1", "--format=%s", `noma-reconcile/run/${id}`]).trim()).toBe(`chore(reconcile): reconcile ${RUN_SPEC} (run ${id}, PASS)`);
    },
    INSTALL_TIMEOUT_MS,
  );
});

const OLD = "export const greet = (n: string) => `hi ${n}`;";
const NEW = "export const greet = (n: string) => `hello ${n}`; // reconciled";

/** A feature branch adding a valid document under a governed directory, in a project with no package.json (not a Node project). */
function nonNodeProject(): string {
  const repo = tempRepo({ ".notarai/api.spec.yaml": SPEC, "src/a.ts": "a\n" });
  git(repo, ["checkout", "-qb", "feature"]);
  writeTree(repo, { "docs/guide.noma": VALID });
  commitAll(repo, "a guide");
  return repo;
}

describe(".pre-commit-hooks.yaml", () => {
  const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as Array<Record<string, unknown>>;
  const hook = hooks[0]!;

  it("runs the hook's skip switch and question to git, then check --staged: once, serially, on every commit, without file names", () => {
    expect(hook).toMatchObject({ id: "noma-reconcile", language: "node", entry: "sh", pass_filenames: false, require_serial: true, always_run: true });
    // No files pattern: the framework's filter sees only added or changed files.
    expect(hook["files"]).toBeUndefined();
    expect(hook["args"]).toEqual(["-c", PRE_COMMIT_FRAMEWORK_PROGRAM]);
    expect(PRE_COMMIT_FRAMEWORK_PROGRAM.split("\n").slice(0, 2)).toEqual(HOOK_PROGRAM.split("\n").slice(0, 2));
  });

  it("its program checks a commit that only deletes a transcript, and starts nothing when nothing judged is staged", () => {
    // The framework puts the package's bin on PATH: here the built bin, or a program that must not run.
    const bins = tempDir("nr-pre-commit-bin-");
    mkdirSync(join(bins, "real"));
    mkdirSync(join(bins, "never"));
    symlinkSync(CLI, join(bins, "real", "noma-reconcile"));
    writeFileSync(join(bins, "never", "noma-reconcile"), "#!/bin/sh\necho started >&2\nexit 99\n", { mode: 0o755 });
    const program = (repo: string, bin: string) =>
      spawnSync("sh", ["-c", String((hook["args"] as string[])[1])], {
        cwd: repo,
        encoding: "utf8",
        env: { ...process.env, PATH: `${join(bins, bin)}${delimiter}${process.env["PATH"]}`, NO_COLOR: "1" },
      });
    const repo = tempRepo({ "docs/a.noma": CLAIM, "README.md": "x\n" });
    patch(repo, "docs/a.noma", [0.7]);
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "a document and its transcript"]);

    writeFileSync(join(repo, "README.md"), "y\n");
    git(repo, ["add", "README.md"]);
    const nothing = program(repo, "never");
    expect(nothing.status, nothing.stderr).toBe(0);
    expect(nothing.stderr).toContain(NOTHING_STAGED);
    expect(nothing.stderr).not.toContain("started");

    git(repo, ["rm", "-q", "docs/a.noma.patches"]);
    const deleted = program(repo, "real");
    expect(deleted.status, deleted.stdout + deleted.stderr).toBe(1);
    expect(deleted.stdout + deleted.stderr).toMatch(/existed at HEAD and was deleted/);
  });
});

describe(".github/workflows/ci.yml", () => {
  it("runs npm ci and npm test, and our own PR check through the Action as users run it (no npm ci first: the action builds itself) with the full history", () => {
    const wf = parse(readFileSync(join(ROOT, ".github/workflows/ci.yml"), "utf8")) as { jobs: Record<string, { steps: Array<Record<string, unknown>> }> };
    expect(wf.jobs["test"]!.steps.map((s) => s["run"]).filter(Boolean)).toEqual(["npm ci", "npm test"]);
    const check = wf.jobs["noma-reconcile"]!.steps;
    expect(check[0]).toMatchObject({ uses: "actions/checkout@v4", with: { "fetch-depth": 0 } });
    expect(check.some((s) => s["uses"] === "./")).toBe(true);
    expect(check.map((s) => s["run"]).filter((r) => typeof r === "string" && /\bnpm\b/.test(r))).toEqual([]);
  });
});
