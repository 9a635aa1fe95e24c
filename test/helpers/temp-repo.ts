/**
 * Throwaway git repositories described as objects: { "path/in/repo": "contents" }.
 * Created under the OS temp dir (never inside this project) and removed after the test.
 *
 * A new repository's `.git` is a copy of one `git init` made once per process (init-template.ts);
 * its initial commit is git's own (`git add -A`, `git commit`). `tempRepoWithGit` is the same
 * made by git alone, which the equivalence test (init-template.test.ts) compares it with.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { onTestFinished } from "vitest";
import { initFromTemplate, initWithGit } from "./init-template.js";
import { git } from "./run-git.js";

export { git };

export type Tree = Record<string, string | Buffer>;

export function writeTree(root: string, tree: Tree): void {
  for (const [rel, content] of Object.entries(tree)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** A temp directory (not a repository), removed when the test finishes. */
export function tempDir(prefix = "nr-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    /* outside a test: caller cleans up */
  }
  return dir;
}

/** A new repository with `tree` written and (unless `commit: false`) committed on branch main. */
export function tempRepo(tree: Tree = {}, options: { commit?: boolean } = {}): string {
  return newRepo(initFromTemplate, tree, options);
}

/** `tempRepo` made by git alone (init, config, add, commit): the slow path the equivalence test compares with. */
export function tempRepoWithGit(tree: Tree = {}, options: { commit?: boolean } = {}): string {
  return newRepo(initWithGit, tree, options);
}

function newRepo(init: (dir: string) => void, tree: Tree, options: { commit?: boolean }): string {
  const dir = tempDir("nr-repo-");
  init(dir);
  writeTree(dir, tree);
  if (options.commit !== false && Object.keys(tree).length > 0) {
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "initial"]);
  }
  return dir;
}
