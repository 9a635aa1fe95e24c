/**
 * The repository's top level (every command works from any subdirectory): found in process
 * when the layout is plain (discover-repo-root.ts), else asked of git.
 */
import { discoverRepoRoot } from "./discover-repo-root.js";
import { execGit, GitError } from "./exec-git.js";

/** Absolute path of the work tree's top level, or null outside a git work tree. */
export function findRepoRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const found = discoverRepoRoot(cwd, env);
  if (found !== undefined) return found;
  try {
    const out = execGit(["rev-parse", "--show-toplevel"], env === process.env ? { cwd } : { cwd, env }).trim();
    return out.length > 0 ? out : null;
  } catch (e) {
    if (e instanceof GitError && e.exitCode !== null) return null;
    throw e;
  }
}
