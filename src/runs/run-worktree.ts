/**
 * A run's own git worktree (`<worktrees.dir>/<run_id>`, default
 * `.norma/worktrees/<run_id>`) on its own branch (`noma-reconcile/run/<run_id>`),
 * checked out from the commit the run starts from. Every tool a step uses works
 * in it; the user's checkout — files, index, HEAD, stash — is never touched
 * while agents work. The run's records stay in the main checkout's `.norma/`.
 *
 * Made crash-consistent in three moves: the plan (directory, branch, base) is
 * stored with the run before anything exists (`ready: false`); `git worktree
 * add` creates branch and checkout; then `ready: true` is stored. A worktree
 * found not ready (the process died inside `git worktree add`) is removed with
 * its branch — it holds no work yet — and made again. The hash cache of the
 * main checkout is copied in, so the run sees the drift the user sees.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { CACHE_DB_PATH } from "../cache/cache-db-path.js";
import { ensureCacheDir } from "../cache/write-cache.js";
import { branchTip, deleteBranches } from "../git/branch-commands.js";
import { execGit } from "../git/exec-git.js";
import { addWorktree, listWorktrees, pruneWorktreeRecords, removeWorktree } from "../git/worktree-commands.js";
import { isOutside } from "../fsx/is-outside.js";
import { realpathLenient } from "../fsx/realpath-lenient.js";
import { RunSetupError } from "./run-setup-error.js";
import { runBranch, worktreePath, type RunWorktree } from "./run-worktree-path.js";

/** The plan of a new run's worktree (nothing is created). */
export function planWorktree(root: string, runId: string, dirSetting: string, base: string): RunWorktree {
  const abs = isAbsolute(dirSetting) ? join(dirSetting, runId) : join(root, ...dirSetting.split("/"), runId);
  const inside = !isOutside(realpathLenient(root), realpathLenient(abs));
  const dir = inside ? relative(realpathLenient(root), realpathLenient(abs)).split(sep).join("/") : abs;
  return { dir, branch: runBranch(runId), base, ready: false };
}

/**
 * A worktree inside the repository must be ignored by git (as `.norma/` is), or the user's
 * `git status` would list it: refuse a `worktrees.dir` that is not.
 */
export function assertWorktreeIgnored(root: string, wt: RunWorktree): void {
  if (isAbsolute(wt.dir)) return;
  let ignored = true;
  try {
    execGit(["check-ignore", "-q", "--no-index", "--", `${wt.dir}/`], { cwd: root });
  } catch {
    ignored = false;
  }
  if (!ignored)
    throw new RunSetupError(
      `the run's worktree would be ${wt.dir}, which git does not ignore: your \`git status\` would list it. Put worktrees.dir in .norma/config.json ` +
        `under .norma/ (the default, .norma/worktrees), outside the repository, or add it to .gitignore`,
    );
}

/** Copy the main checkout's hash cache into the worktree (the run starts from what the user's cache knows). */
function copyCache(root: string, abs: string): void {
  const from = join(root, CACHE_DB_PATH);
  if (!existsSync(from)) return;
  ensureCacheDir(abs);
  const to = join(abs, CACHE_DB_PATH);
  const tmp = `${to}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  copyFileSync(from, tmp);
  renameSync(tmp, to);
}

/** Create the planned worktree and its branch; the cache is copied in. */
export function createWorktree(root: string, wt: RunWorktree): void {
  const abs = worktreePath(root, wt);
  addWorktree(root, abs, wt.branch, wt.base);
  copyCache(root, abs);
}

/**
 * Remove what an interrupted `git worktree add` left of a worktree that never became ready (its
 * branch too, when it still points at the base): nothing in it is work. What was removed, in words
 * (empty when nothing was there).
 */
export function discardUnreadyWorktree(root: string, wt: RunWorktree): string[] {
  const abs = worktreePath(root, wt);
  const real = realpathLenient(abs);
  const removed: string[] = [];
  if (listWorktrees(root).some((w) => realpathLenient(w.path) === real)) {
    removeWorktree(root, abs);
    removed.push(`worktree ${wt.dir}`);
  }
  if (existsSync(abs)) {
    rmSync(abs, { recursive: true, force: true });
    if (removed.length === 0) removed.push(`directory ${wt.dir}`);
  }
  pruneWorktreeRecords(root);
  if (branchTip(root, wt.branch) === wt.base) {
    deleteBranches(root, [wt.branch]);
    removed.push(`branch ${wt.branch}`);
  }
  return removed;
}

/** Why a ready worktree cannot be worked in, or null when it can (it exists, git knows it, it is on the run's branch). */
export function worktreeProblem(root: string, wt: RunWorktree): string | null {
  const abs = worktreePath(root, wt);
  if (!existsSync(abs)) return `its worktree ${wt.dir} is gone`;
  const real = realpathLenient(abs);
  const rec = listWorktrees(root).find((w) => realpathLenient(w.path) === real);
  if (rec === undefined) return `${wt.dir} is no longer a worktree of this repository (\`git worktree list\` does not name it)`;
  if (rec.branch !== `refs/heads/${wt.branch}`)
    return (
      `its worktree ${wt.dir} is not on the run's branch ${wt.branch} any more ` +
      `(${rec.branch !== null ? `on ${rec.branch.replace(/^refs\/heads\//, "")}` : "detached"})`
    );
  return null;
}
