/**
 * Fixture repositories built once per test file and copied per test. Worth it where building
 * one runs the CLI (mark-reconciled, state snapshot, a commit through the hook: a few hundred
 * ms of CPU each) or a history of several commits; `tempRepo` alone needs none (its `git init`
 * is already a copy of one made per process: init-template.ts).
 * Copying is a few file copies. Each test
 * still gets a repository of its own (a fresh copy, removed when the test finishes), so no test
 * sees another's changes.
 *
 * Call `repoTemplates()` at the top level of a test file or of a helper module (it registers the
 * `afterAll` that removes the templates); `copy(key, build)` runs `build` the first time a key is asked for,
 * keeps what it made as the template, and returns a copy. Commit dates are fixed
 * (temp-repo.ts), so a copy holds the very commits a fresh build would. `repo(tree)` is
 * `tempRepo(tree)` made that way.
 *
 * The fast test files share one module graph per worker (vitest.config.ts), so a helper module
 * that calls `repoTemplates()` at its top level is evaluated once for all the files of a worker,
 * and its `afterAll` runs after the first of them only. That removal forgets every template too,
 * so the next file builds its own again; what is left when the worker ends is removed then.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { tempDir, tempRepo, type Tree } from "./temp-repo.js";

export interface RepoTemplates {
  /** A fresh copy (removed when the test finishes) of the directory `build` returns, built once per key. */
  copy(key: string, build: () => string): string;
  /** `copy` for a build that is async. */
  copyAsync(key: string, build: () => Promise<string>): Promise<string>;
  /** A fresh copy of `tempRepo(tree)`: the tree written and committed on main. */
  repo(tree: Tree): string;
}

/** Copy a directory tree as it is (symbolic links kept verbatim, modes and timestamps kept). */
export function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
}

/** Every set of templates still on disk, removed when the worker process ends. */
const live = new Set<() => void>();
process.once("exit", () => {
  for (const drop of live) drop();
});

export function repoTemplates(): RepoTemplates {
  let store: string | undefined;
  const templates = new Map<string, string>();
  const drop = (): void => {
    if (store !== undefined) rmSync(store, { recursive: true, force: true });
    store = undefined;
    templates.clear();
  };
  live.add(drop);
  afterAll(drop);
  const keep = (key: string, built: string): void => {
    store ??= realpathSync(mkdtempSync(join(tmpdir(), "nr-templates-")));
    const template = join(store, String(templates.size));
    copyTree(built, template);
    templates.set(key, template);
  };
  const fresh = (key: string): string => {
    const dir = tempDir("nr-repo-");
    copyTree(templates.get(key)!, dir);
    return dir;
  };
  const copy = (key: string, build: () => string): string => {
    if (!templates.has(key)) keep(key, build());
    return fresh(key);
  };
  const copyAsync = async (key: string, build: () => Promise<string>): Promise<string> => {
    if (!templates.has(key)) keep(key, await build());
    return fresh(key);
  };
  const treeKey = (tree: Tree): string => JSON.stringify(Object.entries(tree).map(([k, v]) => [k, typeof v === "string" ? v : [v.toString("base64")]]));
  return { copy, copyAsync, repo: (tree) => copy(`tree:${treeKey(tree)}`, () => tempRepo(tree)) };
}
