/**
 * The repository's top level (every command, the MCP server and the hooks work from any
 * subdirectory): found in process when the layout is plain (discover-repo-root.ts), else
 * asked of git. The one place the product finds it.
 */
import { discoverRepoRoot } from "./discover-repo-root.js";
import { execGitAsync } from "./exec-git-async.js";
import { execGit, GitError } from "./exec-git.js";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Absolute path of the work tree's top level, or null outside a git work tree. */
export function findRepoRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const found = discoverRepoRoot(cwd, env);
  if (found !== undefined) return found;
  try {
    const out = execGit(["rev-parse", "--show-toplevel"], env === process.env ? { cwd } : { cwd, env }).trim();
    return out.length > 0 ? out : null;
  } catch (e) {
    if (e instanceof GitError && e.status !== null) return null;
    throw e;
  }
}

/**
 * `findRepoRoot` without blocking, for the MCP server: `{root, inRepo}`, outside a work tree
 * the working directory. Git is spawned only when the layout is not plain (it costs a
 * client's handshake several ms).
 */
export async function findRepoRootAsync(cwd: string): Promise<{ root: string; inRepo: boolean }> {
  const found = discoverRepoRoot(cwd);
  if (found !== undefined) return { root: found, inRepo: true };
  try {
    const root = (await execGitAsync(["rev-parse", "--show-toplevel"], { cwd })).toString("utf8").trim();
    return root.length > 0 ? { root, inRepo: true } : { root: cwd, inRepo: false };
  } catch {
    return { root: cwd, inRepo: false };
  }
}

/** The nearest directory at or above `cwd` holding `.git` (a directory, or a file in worktrees and submodules), else `cwd`: git's answer without spawning git, for hints only. */
export function findWorkTreeTop(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}
