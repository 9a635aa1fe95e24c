/**
 * A run's worktree as stored with the run (kv `worktree`), its branch name and
 * its absolute path: pure, for the paths that must stay light (recovery on
 * `runs list`). Creating and checking worktrees: run-worktree.ts.
 */
import { isAbsolute, join } from "node:path";

export const RUN_BRANCH_PREFIX = "noma-reconcile/run/";

/** Where a run works: stored with the run (kv `worktree`). */
export interface RunWorktree {
  /** The directory as stored: repository-relative POSIX, or absolute when it is outside the repository. */
  dir: string;
  branch: string;
  /** The commit the branch starts from. */
  base: string;
  /** `git worktree add` finished. */
  ready: boolean;
}

export function runBranch(runId: string): string {
  return `${RUN_BRANCH_PREFIX}${runId}`;
}

/** The worktree's absolute path. */
export function worktreePath(root: string, wt: Pick<RunWorktree, "dir">): string {
  return isAbsolute(wt.dir) ? wt.dir : join(root, ...wt.dir.split("/"));
}
