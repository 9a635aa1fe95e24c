/**
 * The `.git` that `tempRepo` starts from — `git init -q -b main` and its three `git config`
 * calls (user.name, user.email, commit.gpgsign) — made once per process and copied into each new
 * repository. Four git processes fewer per temp repository: each one forked from a test worker
 * of several hundred MB costs the worker 1.5–3 ms of kernel time besides git's own CPU.
 *
 * `git init` writes nothing that depends on the directory or the time (the equivalence test,
 * test/helpers/init-template.test.ts, compares a copy with a fresh `git init` file by file), only
 * on git's configuration and environment: the template is made again when what git reads changes
 * (any GIT_* variable, HOME, XDG_CONFIG_HOME). The templates are removed when the process ends.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "./run-git.js";

/** Templates by the environment git read when making them (normally one per process). */
const templates = new Map<string, string>();

/** What `tempRepo` runs in a new directory: `git init -q -b main` and the test identity. */
export function initWithGit(dir: string): void {
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["config", "user.name", "Test"]);
  git(dir, ["config", "user.email", "test@example.invalid"]);
  git(dir, ["config", "commit.gpgsign", "false"]);
}

/** What of the environment can change what `git init` and `git config` write. */
function gitEnvironment(): string {
  const env = process.env;
  const keys = Object.keys(env)
    .filter((k) => k.startsWith("GIT_") || k === "HOME" || k === "XDG_CONFIG_HOME")
    .sort();
  return JSON.stringify(keys.map((k) => [k, env[k]]));
}

/** The template repository's directory for the current environment (built on the first call). */
export function initTemplate(): string {
  const key = gitEnvironment();
  let dir = templates.get(key);
  if (dir === undefined) {
    const made = realpathSync(mkdtempSync(join(tmpdir(), "nr-init-template-")));
    if (templates.size === 0)
      process.once("exit", () => {
        for (const d of templates.values()) rmSync(d, { recursive: true, force: true });
      });
    initWithGit(made);
    templates.set(key, made);
    dir = made;
  }
  return dir;
}

/** `initWithGit(dir)` without a git process: a copy of the template's `.git` (modes kept). */
export function initFromTemplate(dir: string): void {
  cpSync(join(initTemplate(), ".git"), join(dir, ".git"), { recursive: true, verbatimSymlinks: true });
}
