/**
 * The hook `init --hooks` writes, run by real `git commit`s in temp
 * repositories, with `npx` and `npm` stubs that record being called:
 * - nothing installed: one line (what is missing, the install command, how to
 *   skip), exit 1, the commit blocked, and no npx/npm — when something judged is staged;
 *   with nothing judged staged the commit goes on (no program needed);
 * - the skip switch works with nothing installed (the script reads it);
 * - the repository's own install (node_modules/.bin) runs the check;
 * - a configured program: `git config noma-reconcile.bin` (a .cjs runs with
 *   node, as this repository's own hook runs dist/cli.cjs), NOMA_RECONCILE_BIN
 *   over it, a configured path that does not exist, node missing from PATH;
 * - the program runs only when git says something it judges is staged (hook-filter.test.ts);
 * - husky: the block in `.husky/pre-commit`, run as husky v9 runs it
 *   (`sh -e`, node_modules/.bin on PATH), beside the user's own steps.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { installLocally, networkStubs, PACKAGE_ROOT } from "../helpers/local-install.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir, tempRepo, writeTree } from "../helpers/temp-repo.js";
import { commit } from "../check/staged/hook-repo.js";
import { BROKEN, VALID } from "../check/staged/fixtures.js";

/** Where `name` is on this machine's PATH. */
function onPath(name: string): string {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir !== "" && existsSync(join(dir, name))) return join(dir, name);
  }
  throw new Error(`${name} is not on PATH`);
}

const head = (repo: string): string => git(repo, ["rev-parse", "HEAD"]).trim();

/** Repositories built once per file (per tree) and copied for each test: what `init --hooks` writes holds no absolute path. */
const templates = repoTemplates();

/** A repository with the hook `init --hooks` installs, and one valid and one broken document ready to stage. */
function repoWithHook(tree: Record<string, string> = {}): string {
  return templates.copy(`hook:${JSON.stringify(tree)}`, () => {
    const repo = tempRepo({ "a.noma": VALID, ...tree });
    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "--no-verify", "-m", "init"]);
    return repo;
  });
}

function stageBroken(repo: string): void {
  writeTree(repo, { "docs/b.noma": BROKEN });
  git(repo, ["add", "."]);
}

/** A stand-in for this repository's dist/cli.cjs: a plain (not executable) CommonJS file running the real CLI. */
function cjsShim(repo: string, rel: string): void {
  writeTree(repo, { [rel]: `require(${JSON.stringify(CLI)});\n` });
  chmodSync(join(repo, rel), 0o644);
  appendExclude(repo, rel);
}

function appendExclude(repo: string, rel: string): void {
  writeFileSync(join(repo, ".git/info/exclude"), `${readFileSync(join(repo, ".git/info/exclude"), "utf8")}${rel}\n`);
}

describe("the pre-commit hook without the program", () => {
  it("nothing installed: one clear line, exit 1, commit blocked, npx and npm never called", () => {
    const stubs = networkStubs();
    const repo = repoWithHook();
    stageBroken(repo);
    const before = head(repo);
    const r = commit(repo, ["-m", "x"], { PATH: stubs.path });
    expect(r.code).toBe(1);
    const lines = r.output.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      "noma-reconcile: commit blocked: noma-reconcile is not installed in this repository (no node_modules/.bin/noma-reconcile). Install it: npm i -D noma-reconcile (or point git config noma-reconcile.bin at it). Skip this check once: NOMA_RECONCILE_SKIP=1 git commit ...",
    );
    expect(head(repo)).toBe(before);
    expect(stubs.calls()).toBe("");
  });

  it("nothing installed and nothing judged staged: the commit goes on (git is asked before the program is looked for)", () => {
    const stubs = networkStubs();
    const repo = repoWithHook();
    git(repo, ["config", "noma-reconcile.bin", "tools/gone.cjs"]);
    writeTree(repo, { "src/x.ts": "x\n" });
    git(repo, ["add", "."]);
    const before = head(repo);
    const r = commit(repo, ["-m", "code"], { PATH: stubs.path });
    expect(r.code).toBe(0);
    expect(r.output.trim()).toBe("noma-reconcile: nothing staged to check (no .noma documents, transcripts, sidecars, specs or configuration).");
    expect(head(repo)).not.toBe(before);
    expect(stubs.calls()).toBe("");
  });

  it("NOMA_RECONCILE_SKIP=1 skips even with nothing installed, saying so on stderr; 0 and false do not skip", () => {
    const stubs = networkStubs();
    const repo = repoWithHook();
    stageBroken(repo);
    for (const off of ["0", "false", "FALSE", ""]) {
      expect(commit(repo, ["-m", "x"], { PATH: stubs.path, NOMA_RECONCILE_SKIP: off }).code).toBe(1);
    }
    const before = head(repo);
    const r = commit(repo, ["-m", "skipped"], { PATH: stubs.path, NOMA_RECONCILE_SKIP: "1" });
    expect(r.code).toBe(0);
    expect(r.output.trim()).toBe("noma-reconcile: NOMA_RECONCILE_SKIP is set; staged files not checked.");
    expect(head(repo)).not.toBe(before);
    expect(stubs.calls()).toBe("");
  });

  it("a configured path that does not exist: one line naming it and where it was set, exit 1", () => {
    const stubs = networkStubs();
    const repo = repoWithHook();
    stageBroken(repo);
    git(repo, ["config", "noma-reconcile.bin", "tools/gone.cjs"]);
    const r = commit(repo, ["-m", "x"], { PATH: stubs.path });
    expect(r.code).toBe(1);
    expect(r.output.trim()).toBe(
      "noma-reconcile: commit blocked: tools/gone.cjs (set by git config noma-reconcile.bin) does not exist. Fix that setting, or unset it and install: npm i -D noma-reconcile. Skip this check once: NOMA_RECONCILE_SKIP=1 git commit ...",
    );
    const env = commit(repo, ["-m", "x"], { PATH: stubs.path, NOMA_RECONCILE_BIN: "/nowhere/noma" });
    expect(env.code).toBe(1);
    expect(env.output).toContain("/nowhere/noma (set by NOMA_RECONCILE_BIN) does not exist");
    expect(stubs.calls()).toBe("");
  });

  it("node missing from the PATH the hook runs with: one line saying so, exit 1", () => {
    const repo = repoWithHook();
    installLocally(repo);
    stageBroken(repo);
    const bin = tempDir("nr-path-");
    symlinkSync(onPath("git"), join(bin, "git"));
    const r = commit(repo, ["-m", "x"], { PATH: bin });
    expect(r.code).toBe(1);
    expect(r.output.trim()).toBe(
      "noma-reconcile: commit blocked: node is not on the PATH this hook runs with, and node_modules/.bin/noma-reconcile needs it. Skip this check once: NOMA_RECONCILE_SKIP=1 git commit ...",
    );
  });
});

describe("the pre-commit hook finds the program", () => {
  it("the repository's own install (node_modules/.bin/noma-reconcile) runs the check", () => {
    const stubs = networkStubs();
    const repo = repoWithHook();
    installLocally(repo);
    stageBroken(repo);
    const blocked = commit(repo, ["-m", "x"], { PATH: stubs.path });
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain("ERROR [broken-reference] docs/b.noma:3:1:");
    writeTree(repo, { "docs/b.noma": VALID });
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "valid"], { PATH: stubs.path }).code).toBe(0);
    expect(stubs.calls()).toBe("");
  });

  it("git config noma-reconcile.bin dist/cli.cjs runs it with node (this repository's own set-up: core.hooksPath hooks)", () => {
    const stubs = networkStubs();
    const repo = tempRepo({ "a.noma": VALID, "hooks/pre-commit": readFileSync(join(PACKAGE_ROOT, "hooks/pre-commit"), "utf8") });
    chmodSync(join(repo, "hooks/pre-commit"), 0o755);
    cjsShim(repo, "dist/cli.cjs");
    git(repo, ["config", "core.hooksPath", "hooks"]);
    git(repo, ["config", "noma-reconcile.bin", "dist/cli.cjs"]);
    stageBroken(repo);
    const blocked = commit(repo, ["-m", "x"], { PATH: stubs.path });
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain("ERROR [broken-reference] docs/b.noma:3:1:");
    writeTree(repo, { "docs/b.noma": VALID });
    git(repo, ["add", "."]);
    const ok = commit(repo, ["-m", "valid"], { PATH: stubs.path });
    expect(ok.code, ok.output).toBe(0);
    expect(ok.output).toContain("No issues found");
    expect(stubs.calls()).toBe("");
  });

  it("NOMA_RECONCILE_BIN wins over git config and over the local install; an executable runs as is", () => {
    const repo = repoWithHook();
    installLocally(repo);
    git(repo, ["config", "noma-reconcile.bin", "dist/never.cjs"]);
    const log = join(tempDir(), "ran.log");
    const tool = join(tempDir(), "my-noma");
    writeFileSync(tool, `#!/bin/sh\necho "$*" > '${log}'\nexit 0\n`, { mode: 0o755 });
    writeTree(repo, { "docs/c.noma": VALID });
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "x"], { NOMA_RECONCILE_BIN: tool }).code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("check --staged\n");
  });
});

describe("the pre-commit hook under husky", () => {
  /** husky v9's runner, as `husky init` leaves it: `.husky/_/pre-commit` runs `.husky/pre-commit` with `sh -e` and node_modules/.bin on PATH. */
  function huskyRepo(userHook?: string): string {
    const repo = tempRepo({ "a.noma": VALID, ...(userHook !== undefined ? { ".husky/pre-commit": userHook } : {}) });
    mkdirSync(join(repo, ".husky/_"), { recursive: true });
    writeFileSync(
      join(repo, ".husky/_/h"),
      '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\n[ "${HUSKY-}" = "0" ] && exit 0\nexport PATH="node_modules/.bin:$PATH"\nsh -e "$s" "$@"\nc=$?\n[ $c != 0 ] && echo "husky - $n script failed (code $c)"\n[ $c = 127 ] && echo "husky - command not found in PATH=$PATH"\nexit $c\n',
      { mode: 0o755 },
    );
    writeFileSync(join(repo, ".husky/_/pre-commit"), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', { mode: 0o755 });
    writeFileSync(join(repo, ".husky/_/.gitignore"), "*\n");
    git(repo, ["config", "core.hooksPath", ".husky/_"]);
    return repo;
  }

  it("init --hooks writes the block into a new .husky/pre-commit; nothing installed: our line, exit 1, no npx; skipped: commits", () => {
    const stubs = networkStubs();
    const repo = huskyRepo();
    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^installed +pre-commit hook +\(\.husky\)/m);
    stageBroken(repo);
    const blocked = commit(repo, ["-m", "x"], { PATH: stubs.path });
    expect(blocked.code).toBe(1);
    expect(blocked.output.split("\n")[0]).toMatch(
      /^noma-reconcile: commit blocked: noma-reconcile is not installed in this repository \(no node_modules\/\.bin\/noma-reconcile\)\. Install it: npm i -D noma-reconcile/,
    );
    expect(stubs.calls()).toBe("");
    expect(commit(repo, ["-m", "skip"], { PATH: stubs.path, NOMA_RECONCILE_SKIP: "1" }).code).toBe(0);
  });

  it("the block runs between the user's own steps: a skip or a pass runs the steps after it, a failure stops the hook", () => {
    const stubs = networkStubs();
    const log = join(tempDir(), "steps.log");
    const repo = huskyRepo(`echo before >> '${log}'\n`);
    expect(runCli(["init", "--hooks", "--force"], { cwd: repo }).code).toBe(0);
    writeFileSync(join(repo, ".husky/pre-commit"), `${readFileSync(join(repo, ".husky/pre-commit"), "utf8")}echo after >> '${log}'\n`);
    installLocally(repo);
    stageBroken(repo);
    const blocked = commit(repo, ["-m", "x"], { PATH: stubs.path });
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain("ERROR [broken-reference] docs/b.noma:3:1:");
    expect(readFileSync(log, "utf8")).toBe("before\n");
    expect(commit(repo, ["-m", "skip"], { PATH: stubs.path, NOMA_RECONCILE_SKIP: "1" }).code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("before\nbefore\nafter\n");
    writeTree(repo, { "docs/c.noma": VALID });
    git(repo, ["add", "."]);
    expect(commit(repo, ["-m", "valid"], { PATH: stubs.path }).code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("before\nbefore\nafter\nbefore\nafter\n");
    expect(stubs.calls()).toBe("");
  });
});
