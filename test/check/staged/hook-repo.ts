/**
 * A temp repository with our pre-commit hook installed the way a user gets it
 * (installHooks), and the package's binary at node_modules/.bin (a symlink to
 * the built dist/cli.js, kept out of git by .git/info/exclude), so real
 * `git commit`s run the real hook script. Built once per tree and copied for each test.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { installHooks } from "../../../src/hooks/install-hooks.js";
import { repoTemplates } from "../../helpers/repo-templates.js";
import { CLI } from "../../helpers/run-cli.js";
import { tempRepo, type Tree } from "../../helpers/temp-repo.js";

const templates = repoTemplates();

/** A fresh copy (removed when the test finishes) of the hook repository of `tree`, built once per tree (test/helpers/repo-templates.ts). */
export function hookRepo(tree: Tree): string {
  const key = JSON.stringify(Object.entries(tree).map(([k, v]) => [k, typeof v === "string" ? v : [v.toString("base64")]]));
  return templates.copy(`hook:${key}`, () => buildHookRepo(tree));
}

function buildHookRepo(tree: Tree): string {
  const repo = tempRepo(tree);
  mkdirSync(join(repo, "node_modules/.bin"), { recursive: true });
  symlinkSync(CLI, join(repo, "node_modules/.bin/noma-reconcile"));
  appendFileSync(join(repo, ".git/info/exclude"), "node_modules/\n");
  const r = installHooks(repo, {});
  if (r.installed.length !== 1) throw new Error(`hook not installed: ${JSON.stringify(r)}`);
  return repo;
}

export interface CommitResult {
  code: number;
  /** What the hook printed (git sends a hook's stdout to stderr). */
  output: string;
}

/** `git commit <args>` (the hook runs); never throws. */
export function commit(repo: string, args: string[], env: NodeJS.ProcessEnv = {}): CommitResult {
  const r = spawnSync("git", ["commit", "-q", ...args], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z", ...env },
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}
