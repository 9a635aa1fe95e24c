/**
 * The git work `get_spec_diff` waits for, started as early as possible: the walk for
 * untracked files, the skip-worktree lookup and (when the merge-base resolves at once) the
 * one diff against the merge-base. A light module (git adapters only), so the CLI starts
 * these before it loads the specs' YAML parser, schemas and globs: git's walk of the work
 * tree — the longest single wait — then runs while this process loads its modules.
 */
import { listFilesArgv } from "../git/list-files.js";
import { type BranchDiff, startBranchDiff } from "../git/branch-diff.js";
import { execGitAsync } from "../git/exec-git-async.js";
import { quickMergeBase } from "../git/merge-base.js";
import { skipWorktreePaths } from "../git/skip-worktree-paths.js";

export interface SpecDiffScans {
  /** The repository the scans run in. */
  root: string;
  /** The base branch they were started for. */
  baseBranch: string;
  /** Kills whatever is still running (an error on the way, or the scans left unused). */
  abort: AbortController;
  /** `git ls-files -z --others --exclude-standard` (NUL-separated paths). */
  untracked: Promise<Buffer>;
  skipWorktree: Promise<Set<string>>;
  /** The merge-base when it resolved without deepening or errors; null otherwise (found later, with its errors). */
  quickMergeBase: string | null;
  /** The diff against `quickMergeBase`, when there is one; `branchDiff(commit)` starts it for another commit. */
  branchDiff(commit: string): Promise<BranchDiff>;
}

export function startSpecDiffScans(root: string, baseBranch: string): SpecDiffScans {
  const abort = new AbortController();
  const gitOpts = { cwd: root, signal: abort.signal };
  // The walk for untracked files needs no merge-base: it starts first.
  const untracked = execGitAsync(listFilesArgv({ untracked: "only", pathspecs: [] }), gitOpts);
  const skipWorktree = skipWorktreePaths(root, abort.signal);
  for (const p of [untracked, skipWorktree]) p.catch(() => undefined);
  const quick = quickMergeBase(root, baseBranch);
  const jobs = new Map<string, Promise<BranchDiff>>();
  const branchDiff = (commit: string): Promise<BranchDiff> => {
    let job = jobs.get(commit);
    if (job === undefined) {
      job = startBranchDiff(root, commit, abort.signal);
      job.catch(() => undefined);
      jobs.set(commit, job);
    }
    return job;
  };
  if (quick !== null) branchDiff(quick);
  return { root, baseBranch, abort, untracked, skipWorktree, quickMergeBase: quick, branchDiff };
}
