/**
 * The pre-commit hook's index writes (`check --staged` with fixes): which paths differ
 * between the work tree and the index, which the index holds, and staging paths again. Every
 * call goes to the index git gave the hook (`GIT_INDEX_FILE`, which `git commit -a` and
 * `git commit <path>` point at a temporary index), as the environment is passed on.
 */
import { execGit, splitNul } from "./exec-git.js";
import { literalPathspec } from "./chunk-paths.js";

/** Of `paths` (top-level relative), those whose work-tree content differs from the index (tracked paths only). */
export function unstagedPaths(root: string, paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  return splitNul(execGit(["diff", "--name-only", "-z", "--no-ext-diff", "--no-textconv", "--", ...paths.map(literalPathspec)], { cwd: root }));
}

/** Of `paths`, those the index holds. */
export function indexedPaths(root: string, paths: readonly string[]): string[] {
  if (paths.length === 0) return [];
  return splitNul(execGit(["ls-files", "-z", "--", ...paths.map(literalPathspec)], { cwd: root }));
}

/** `git add` these paths (their work-tree content becomes the index's). */
export function stagePaths(root: string, paths: readonly string[]): void {
  if (paths.length > 0) execGit(["add", "--", ...paths.map(literalPathspec)], { cwd: root });
}
