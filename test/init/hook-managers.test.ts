/**
 * `init` where a hook manager owns the git hook: the pre-commit framework
 * (`.pre-commit-config.yaml`), lefthook (`lefthook.yml`…), husky (`.husky/`).
 * Without --hooks it prints the entry to add (and installs no raw hook); with
 * --hooks it adds the entry as a minimal text edit — every other byte kept —
 * idempotently, or leaves a file it cannot edit safely alone (exit 2, the
 * entry printed). The entry written runs the real check: executed in the
 * repository it blocks a staged broken document and passes a valid one; the
 * real pre-commit framework runs it where it is installed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BROKEN, VALID } from "../check/staged/fixtures.js";
import { installLocally } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir, writeTree } from "../helpers/temp-repo.js";

/** Each test's repository: a copy of one built once per tree (test/helpers/repo-templates.ts). */
const tempRepo = repoTemplates().repo;

const PRE_COMMIT_CONFIG = `# hooks of this repository
default_stages: [pre-commit]
repos:
- repo: https://github.com/pre-commit/pre-commit-hooks
  rev: v4.5.0   # pinned
  hooks:
  - id: trailing-whitespace
    args: [--markdown-linebreak-ext=md]
  # - id: end-of-file-fixer
# keep this comment after the list
exclude: '^vendor/'
`;

const LEFTHOOK = `# lefthook
pre-push:
  commands:
    test:
      run: npm test
pre-commit:
  parallel: true
  commands:
    lint:
      glob: "*.ts"
      run: npx biome check {staged_files}
    # types:
    #   run: npx tsc
output:
  - summary
`;

function onPath(name: string): string | null {
  const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** `text` is `original` with lines inserted at one place: returns the inserted text. */
function insertedInto(original: string, text: string): string {
  let p = 0;
  while (p < original.length && original[p] === text[p]) p++;
  // back to the start of the line the two texts differ on
  p = original.lastIndexOf("\n", p - 1) + 1;
  const suffix = original.slice(p);
  expect(text.startsWith(original.slice(0, p))).toBe(true);
  expect(text.endsWith(suffix)).toBe(true);
  return text.slice(p, text.length - suffix.length);
}

/** Run a manager entry's program (what `sh -c` gets) in the repository, as the manager would. */
function runProgram(repo: string, program: string, env: NodeJS.ProcessEnv = {}): { code: number; output: string } {
  const r = spawnSync("sh", ["-c", program], { cwd: repo, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });
  return { code: r.status ?? -1, output: r.stdout + r.stderr };
}

/** The program blocks a staged broken document, passes a valid one, honours the skip switch; without an install it blocks, naming the fix. */
function expectProgramRunsTheCheck(repo: string, program: string): void {
  writeTree(repo, { "docs/b.noma": BROKEN });
  git(repo, ["add", "docs/b.noma"]);
  const missing = runProgram(repo, program);
  expect(missing.code).toBe(1);
  expect(missing.output).toContain("noma-reconcile is not installed in this repository");
  expect(runProgram(repo, program, { NOMA_RECONCILE_SKIP: "1" }).code).toBe(0);
  installLocally(repo);
  const blocked = runProgram(repo, program);
  expect(blocked.code, blocked.output).toBe(1);
  expect(blocked.output).toContain("ERROR [broken-reference] docs/b.noma");
  writeTree(repo, { "docs/b.noma": VALID });
  git(repo, ["add", "docs/b.noma"]);
  const ok = runProgram(repo, program);
  expect(ok.code, ok.output).toBe(0);
}

describe("init and the pre-commit framework", () => {
  it("prints the entry without --hooks (no raw hook); --hooks adds a repo: local hook, the rest kept byte for byte; then already present", () => {
    const repo = tempRepo({ ".pre-commit-config.yaml": PRE_COMMIT_CONFIG, "a.noma": VALID });
    const advice = runCli(["init"], { cwd: repo });
    expect(advice.code, advice.stderr).toBe(0);
    expect(advice.stdout).toMatch(/^add +\.pre-commit-config\.yaml +\(the pre-commit framework: add this entry .*or rerun with --hooks to add it\):$/m);
    expect(advice.stdout).toContain("      - repo: local\n");
    expect(readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8")).toBe(PRE_COMMIT_CONFIG);

    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^updated +\.pre-commit-config\.yaml +\(the pre-commit framework: \+ the noma-reconcile hook/m);
    // pre-commit's own hook is not installed in this clone: init says how, or the entry never runs.
    expect(r.stdout).toMatch(/^then run +pre-commit install +\(the pre-commit framework is not this repository's git hook yet/m);
    expect(existsSync(join(repo, ".git/hooks/pre-commit"))).toBe(false);
    const text = readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8");
    const added = insertedInto(PRE_COMMIT_CONFIG, text);
    expect(added.startsWith("- repo: local\n  hooks:\n    - id: noma-reconcile\n")).toBe(true);
    expect(text.indexOf(added)).toBe(PRE_COMMIT_CONFIG.indexOf("# keep this comment"));
    const data = parse(text) as { repos: Array<{ repo: string; hooks: Array<Record<string, unknown>> }>; exclude: string };
    expect(data.exclude).toBe("^vendor/");
    expect(data.repos.map((x) => x.repo)).toEqual(["https://github.com/pre-commit/pre-commit-hooks", "local"]);
    const hook = data.repos[1]!.hooks[0]!;
    expect(hook).toMatchObject({ id: "noma-reconcile", language: "system", entry: "sh", pass_filenames: false });

    const again = runCli(["init", "--hooks"], { cwd: repo });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^unchanged +\.pre-commit-config\.yaml +\(.*already in/m);
    expect(readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8")).toBe(text);

    expectProgramRunsTheCheck(repo, (hook["args"] as string[])[1]!);
  });

  it("the real pre-commit framework runs the entry (where pre-commit is installed)", (ctx) => {
    if (onPath("pre-commit") === null) ctx.skip();
    const repo = tempRepo({ ".pre-commit-config.yaml": "# none yet\n", "a.noma": VALID });
    expect(runCli(["init", "--hooks"], { cwd: repo }).code).toBe(0);
    installLocally(repo);
    const env = { ...process.env, PRE_COMMIT_HOME: tempDir("nr-pre-commit-") };
    expect(runCli(["init", "--hooks"], { cwd: repo }).stdout).toContain("then run  pre-commit install");
    execFileSync("pre-commit", ["install"], { cwd: repo, env, stdio: "pipe" });
    // Installed: init no longer asks for it.
    const after = JSON.parse(runCli(["init", "--hooks", "--format", "json"], { cwd: repo }).stdout) as { result: { managers: Array<Record<string, string>> } };
    expect(after.result.managers[0]).toMatchObject({ manager: "pre-commit", action: "present" });
    expect(after.result.managers[0]!["activate"]).toBeUndefined();
    writeTree(repo, { "docs/b.noma": BROKEN });
    git(repo, ["add", "-A"]);
    const blocked = spawnSync("git", ["commit", "-qm", "broken"], { cwd: repo, env, encoding: "utf8" });
    expect(blocked.status, blocked.stdout + blocked.stderr).toBe(1);
    expect(blocked.stdout + blocked.stderr).toContain("broken-reference");
    writeTree(repo, { "docs/b.noma": VALID });
    git(repo, ["add", "-A"]);
    const ok = spawnSync("git", ["commit", "-qm", "valid"], { cwd: repo, env, encoding: "utf8" });
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
  });

  it("repos: [] (pre-commit's starting point) becomes a list holding the entry; the other lines kept", () => {
    const start = "# start\nrepos: []  # none yet\nfail_fast: true\n";
    const repo = tempRepo({ ".pre-commit-config.yaml": start, "a.noma": VALID });
    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8");
    expect(text.startsWith("# start\nrepos: # none yet\n  - repo: local\n")).toBe(true);
    expect(text.endsWith("\nfail_fast: true\n")).toBe(true);
    expect((parse(text) as { repos: unknown[]; fail_fast: boolean }).repos).toHaveLength(1);
  });

  it("--dry-run says it would update and writes nothing; --format json lists the managers", () => {
    const repo = tempRepo({ ".pre-commit-config.yaml": PRE_COMMIT_CONFIG, "a.noma": VALID });
    const dry = runCli(["init", "--hooks", "--dry-run"], { cwd: repo });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would update +\.pre-commit-config\.yaml +\(the pre-commit framework: \+ the noma-reconcile hook/m);
    expect(readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8")).toBe(PRE_COMMIT_CONFIG);
    const json = JSON.parse(runCli(["init", "--format", "json"], { cwd: repo }).stdout) as { result: { managers: Array<Record<string, string>> } };
    expect(json.result.managers).toHaveLength(1);
    expect(json.result.managers[0]).toMatchObject({ manager: "pre-commit", file: ".pre-commit-config.yaml", action: "advise", activate: "pre-commit install" });
    expect(json.result.managers[0]!["entry"]).toContain("- id: noma-reconcile");
  });

  it("a file it cannot edit safely (flow-style repos) is left alone: exit 2, the entry printed", () => {
    const flow = "repos: [{repo: local, hooks: [{id: x, name: x, entry: x, language: system}]}]\n";
    const repo = tempRepo({ ".pre-commit-config.yaml": flow, "a.noma": VALID });
    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      /^refused +\.pre-commit-config\.yaml +\(the pre-commit framework: \.pre-commit-config\.yaml left untouched: line 1: `repos:` has its value on the same line \(flow style\); add this entry/m,
    );
    expect(r.stdout).toContain("- id: noma-reconcile");
    expect(r.stderr).toContain("left untouched");
    expect(readFileSync(join(repo, ".pre-commit-config.yaml"), "utf8")).toBe(flow);
    expect(existsSync(join(repo, ".git/hooks/pre-commit"))).toBe(false);
  });
});

describe("init and lefthook", () => {
  it("merges into pre-commit: commands: (the rest byte for byte, lefthook-local.yml untouched), then already present; the run line runs the check", () => {
    const local = "pre-commit:\n  commands:\n    lint:\n      skip: true\n";
    const repo = tempRepo({ "lefthook.yml": LEFTHOOK, "lefthook-local.yml": local, "a.noma": VALID });
    const advice = runCli(["init"], { cwd: repo });
    expect(advice.code).toBe(0);
    expect(advice.stdout).toMatch(/^add +lefthook\.yml +\(lefthook: add this entry to lefthook\.yml \(under pre-commit: commands:\)/m);
    expect(readFileSync(join(repo, "lefthook.yml"), "utf8")).toBe(LEFTHOOK);

    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(repo, ".git/hooks/pre-commit"))).toBe(false);
    const text = readFileSync(join(repo, "lefthook.yml"), "utf8");
    const added = insertedInto(LEFTHOOK, text);
    expect(added.startsWith("    noma-reconcile:\n      run: |\n        case ${NOMA_RECONCILE_SKIP")).toBe(true);
    expect(text.indexOf(added)).toBe(LEFTHOOK.indexOf("output:"));
    const data = parse(text) as Record<string, { commands?: Record<string, { run: string }> }>;
    expect(Object.keys(data["pre-commit"]!.commands!)).toEqual(["lint", "noma-reconcile"]);
    expect(data["pre-push"]).toEqual(parse(LEFTHOOK)["pre-push"]);
    expect(readFileSync(join(repo, "lefthook-local.yml"), "utf8")).toBe(local);

    const again = runCli(["init", "--hooks"], { cwd: repo });
    expect(again.stdout).toMatch(/^unchanged +lefthook\.yml +\(lefthook: the noma-reconcile hook is already in lefthook\.yml\)/m);
    expect(again.stdout).toMatch(/^then run +lefthook install +\(lefthook is not this repository's git hook yet/m);
    expect(readFileSync(join(repo, "lefthook.yml"), "utf8")).toBe(text);
    // Once the git hook is lefthook's (lefthook is not on this machine: its hook's call line stands in), init stops asking.
    writeTree(repo, { ".git/hooks/pre-commit": '#!/bin/sh\nlefthook run "pre-commit" "$@"\n' });
    expect(runCli(["init", "--hooks"], { cwd: repo }).stdout).not.toContain("then run");

    expectProgramRunsTheCheck(repo, data["pre-commit"]!.commands!["noma-reconcile"]!.run);
  });

  it("adds pre-commit: to a file without one (CRLF kept), and commands: to a pre-commit: without one", () => {
    const crlf = "# lefthook\r\npre-push:\r\n    commands:\r\n        test:\r\n            run: npm test\r\n";
    const repo = tempRepo({ ".lefthook.yml": crlf, "a.noma": VALID });
    expect(runCli(["init", "--hooks"], { cwd: repo }).code).toBe(0);
    const text = readFileSync(join(repo, ".lefthook.yml"), "utf8");
    expect(text.startsWith(crlf)).toBe(true);
    expect(text.slice(crlf.length).startsWith("pre-commit:\r\n    commands:\r\n        noma-reconcile:\r\n            run: |\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "").includes("\n")).toBe(false);
    expect(Object.keys((parse(text) as Record<string, unknown>)["pre-commit"] as object)).toEqual(["commands"]);

    const noCommands = "pre-commit:\n  parallel: true\n";
    const other = tempRepo({ "lefthook.yaml": noCommands, "a.noma": VALID });
    expect(runCli(["init", "--hooks"], { cwd: other }).code).toBe(0);
    const t2 = readFileSync(join(other, "lefthook.yaml"), "utf8");
    expect(t2.startsWith(`${noCommands}  commands:\n    noma-reconcile:\n      run: |\n`)).toBe(true);
    expect((parse(t2) as { "pre-commit": { parallel: boolean } })["pre-commit"].parallel).toBe(true);
  });

  it("a command of the user's that already runs the check counts as present; one that runs another check does not", () => {
    const own = "pre-commit:\n  commands:\n    docs:\n      run: pnpm exec noma-reconcile check --staged\n";
    const repo = tempRepo({ "lefthook.yml": own, "a.noma": VALID });
    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.stdout).toMatch(/^unchanged +lefthook\.yml/m);
    expect(readFileSync(join(repo, "lefthook.yml"), "utf8")).toBe(own);
    const other = "pre-commit:\n  commands:\n    lint:\n      run: mytool check --staged\n";
    const repo2 = tempRepo({ "lefthook.yml": other, "a.noma": VALID });
    expect(runCli(["init", "--hooks"], { cwd: repo2 }).stdout).toMatch(/^updated +lefthook\.yml/m);
  });

  it("tabs or flow style: the file left alone, exit 2, the entry printed", () => {
    for (const text of ["pre-commit: {commands: {lint: {run: make lint}}}\n", "pre-commit:\n\tcommands: {}\n"]) {
      const repo = tempRepo({ "lefthook.yml": text, "a.noma": VALID });
      const r = runCli(["init", "--hooks"], { cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(/^refused +lefthook\.yml +\(lefthook: lefthook\.yml left untouched: /m);
      expect(r.stdout).toContain("    noma-reconcile:\n");
      expect(readFileSync(join(repo, "lefthook.yml"), "utf8")).toBe(text);
    }
  });
});

describe("init and husky", () => {
  it("with .husky/ but no core.hooksPath yet: the block goes into .husky/pre-commit, not .git/hooks; without --hooks it is printed", () => {
    const repo = tempRepo({ ".husky/pre-commit": "npx lint-staged\n", "a.noma": VALID });
    const advice = runCli(["init"], { cwd: repo });
    expect(advice.code).toBe(0);
    expect(advice.stdout).toMatch(/^add +\.husky\/pre-commit +\(husky: add this block to \.husky\/pre-commit, or rerun with --hooks\):$/m);
    expect(advice.stdout).toContain("    # noma-reconcile pre-commit hook");
    const refused = runCli(["init", "--hooks"], { cwd: repo });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/rerun with --force to append the noma-reconcile block after them \(your steps are kept\)\)$/m);
    expect(refused.stdout).not.toContain("before-noma-reconcile");
    expect(runCli(["init", "--hooks", "--force"], { cwd: repo }).code).toBe(0);
    expect(readFileSync(join(repo, ".husky/pre-commit"), "utf8")).toMatch(/^npx lint-staged\n# noma-reconcile pre-commit hook/);
    expect(existsSync(join(repo, ".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(join(repo, ".husky/pre-commit.before-noma-reconcile"))).toBe(false);
    const again = runCli(["init", "--hooks"], { cwd: repo });
    expect(again.code).toBe(0);
    expect(runCli(["init"], { cwd: repo }).stdout).toMatch(/^unchanged +\.husky\/pre-commit +\(husky: \.husky\/pre-commit already runs/m);
  });
});

describe("init --help", () => {
  it("names the hook managers", () => {
    const r = runCli(["init", "--help"], { cwd: tempDir() });
    expect(r.code).toBe(0);
    for (const s of [".pre-commit-config.yaml", "lefthook.yml", ".husky/"]) expect(r.stdout).toContain(s);
  });
});
