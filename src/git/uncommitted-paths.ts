/**
 * Every path whose work-tree or index state differs from HEAD: staged and
 * unstaged changes, deletions, and untracked files git does not ignore — what
 * `git status` lists. Run with `--no-optional-locks`, so git refreshes its view
 * of stat data in memory only and never rewrites the index (safe beside a
 * concurrent `git commit`, and read-only as the PR check must be).
 */
import { decodeGitText } from "./git-path.js";
import { execGitAsync } from "./exec-git-async.js";
import { GitOutputError } from "./parse-name-status.js";

const STATUS = ["--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=none"];

/** Pure: the paths of `git status --porcelain=v1 -z --no-renames` output (`XY path` entries), sorted. */
export function parseStatusPathsZ(out: string): string[] {
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  const paths = parts.map((e) => {
    if (e.length < 4 || e.charAt(2) !== " ") throw new GitOutputError(`status entry ${JSON.stringify(e)}`);
    return e.slice(3);
  });
  return [...new Set(paths)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Paths with uncommitted changes (staged, unstaged, untracked), repository-relative. */
export async function uncommittedPaths(root: string): Promise<string[]> {
  return parseStatusPathsZ(decodeGitText(await execGitAsync(STATUS, { cwd: root })));
}
