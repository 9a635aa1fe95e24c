/**
 * Whether git's history knows a path: some commit reachable from HEAD touched it
 * (a file, or any file under a directory). Tells a deleted file (git knew it) from
 * a typo (git never did). One `rev-list` per path, which stops at the first commit
 * found: quick for a recent deletion, a walk of the whole history for a path that
 * never existed — asked only about paths that are not in the work tree.
 */
import { literalPathspec } from "./chunk-paths.js";
import { execGit, GitError } from "./exec-git.js";

function hasCommit(root: string): boolean {
  try {
    return execGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd: root }).trim() !== "";
  } catch (e) {
    if (e instanceof GitError && e.status === 1) return false; // no commit yet
    throw e;
  }
}

/** Of `paths` (repository-relative), those some commit reachable from HEAD touched. Empty before the first commit. */
export function knownToHistory(root: string, paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (paths.length === 0) return out;
  if (!hasCommit(root)) return out;
  for (const p of paths) if (execGit(["rev-list", "-1", "HEAD", "--", literalPathspec(p)], { cwd: root }).trim() !== "") out.add(p);
  return out;
}
