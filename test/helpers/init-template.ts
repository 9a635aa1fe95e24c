/**
 * The `.git` that `tempRepo` starts from — `git init -q -b main` and its three `git config`
 * calls (user.name, user.email, commit.gpgsign) — made once per process and copied into each new
 * repository. Four git processes fewer per temp repository: each one forked from a test worker
 * of several hundred MB costs the worker 1.5–3 ms of kernel time besides git's own CPU.
 *
 * `git init` writes nothing that depends on the directory or the time (the equivalence test,
 * test/helpers/initial-commit.test.ts, compares a copy with a fresh `git init` file by file), so a
 * copy is the repository a fresh `git init` would make. The template is removed when the process
 * ends.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "./run-git.js";

let template: string | undefined;

/** What `tempRepo` runs in a new directory: `git init -q -b main` and the test identity. */
export function initWithGit(dir: string): void {
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["config", "user.name", "Test"]);
  git(dir, ["config", "user.email", "test@example.invalid"]);
  git(dir, ["config", "commit.gpgsign", "false"]);
}

/** The template repository's directory (built on the first call of the process). */
export function initTemplate(): string {
  if (template === undefined) {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "nr-init-template-")));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    initWithGit(dir);
    template = dir;
  }
  return template;
}

/** `initWithGit(dir)` without a git process: a copy of the template's `.git` (modes kept). */
export function initFromTemplate(dir: string): void {
  cpSync(join(initTemplate(), ".git"), join(dir, ".git"), { recursive: true, verbatimSymlinks: true });
}
