/**
 * The repository's top level (every command works from any subdirectory).
 */
import { execGit, GitError } from "./exec-git.js";

/** Absolute path of the work tree's top level, or null outside a git work tree. */
export function findRepoRoot(cwd: string): string | null {
  try {
    const out = execGit(["rev-parse", "--show-toplevel"], { cwd }).trim();
    return out.length > 0 ? out : null;
  } catch (e) {
    if (e instanceof GitError && e.exitCode !== null) return null;
    throw e;
  }
}
