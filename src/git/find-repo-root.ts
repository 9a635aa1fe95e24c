/**
 * The repository's top level (every command, the MCP server and the hooks work from any
 * subdirectory): found in process when the layout is plain (discover-repo-root.ts), else
 * asked of git. The one place the product finds it.
 *
 * "Not in a repository" is only what means it: a working directory that does not exist, or
 * git saying so (`not a git repository`, `must be run in a work tree`; asked in the C locale so
 * the words are these). Any other failure — git missing, a repository git refuses (dubious
 * ownership), a damaged one — is thrown as the GitError it is, never read as absence.
 */
import { discoverRepoRoot } from "./discover-repo-root.js";
import { execGitAsync } from "./exec-git-async.js";
import { execGit, GitError } from "./exec-git.js";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Git's messages in English, whatever the user's locale (paths print the same). */
const C_LOCALE = { LC_ALL: "C" };

/** Whether git's failure says there is no work tree here (rather than that something is wrong). */
export function isOutsideWorkTree(e: unknown): boolean {
  return e instanceof GitError && e.status !== null && /not a git repository|must be run in a work tree/i.test(e.stderr);
}

/** Whether `cwd` does not exist (then it is in no repository); any other stat failure is thrown. */
function missingDirectory(cwd: string): boolean {
  try {
    statSync(cwd);
    return false;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return true;
    throw e;
  }
}

/** Absolute path of the work tree's top level, or null outside a git work tree (a failure of git is thrown). */
export function findRepoRoot(cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const found = discoverRepoRoot(cwd, env);
  if (found !== undefined) return found;
  if (missingDirectory(cwd)) return null;
  try {
    const out = execGit(["rev-parse", "--show-toplevel"], { cwd, env: env === process.env ? C_LOCALE : { ...env, ...C_LOCALE } }).trim();
    return out.length > 0 ? out : null;
  } catch (e) {
    if (isOutsideWorkTree(e)) return null;
    throw e;
  }
}

/**
 * `findRepoRoot` without blocking, for the MCP server: `{root, inRepo}`, outside a work tree
 * the working directory; a failure of git rejects. Git is spawned only when the layout is not
 * plain (it costs a client's handshake several ms).
 */
export async function findRepoRootAsync(cwd: string): Promise<{ root: string; inRepo: boolean }> {
  const found = discoverRepoRoot(cwd);
  if (found !== undefined) return { root: found, inRepo: true };
  if (missingDirectory(cwd)) return { root: cwd, inRepo: false };
  try {
    const root = (await execGitAsync(["rev-parse", "--show-toplevel"], { cwd, env: C_LOCALE })).toString("utf8").trim();
    return root.length > 0 ? { root, inRepo: true } : { root: cwd, inRepo: false };
  } catch (e) {
    if (isOutsideWorkTree(e)) return { root: cwd, inRepo: false };
    throw e;
  }
}

/**
 * The nearest directory at or above `cwd` holding `.git` (a directory, or a file in worktrees and submodules), else `cwd`: git's answer without
 * spawning git, for hints only.
 */
export function findWorkTreeTop(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}
