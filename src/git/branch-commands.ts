/**
 * Branch questions and changes the run loop needs: the commit a branch points
 * at, which local branches contain a commit, the run branches there are,
 * deleting branches. Names given here come from us
 * (`noma-reconcile/run/<id>`), never from a user.
 */
import { chunkPaths } from "./chunk-paths.js";
import { execGit } from "./exec-git.js";
import { commitOf } from "./read-ref.js";

/** The commit `refs/heads/<branch>` points at, or null when there is no such branch. */
export function branchTip(root: string, branch: string): string | null {
  return commitOf(root, `refs/heads/${branch}`);
}

/** Local branches (short names) whose history contains `commit`. */
export function branchesContaining(root: string, commit: string): string[] {
  const out = execGit(["for-each-ref", "--format=%(refname:short)", "--contains", commit, "refs/heads/"], { cwd: root });
  return out.split("\n").filter((l) => l.length > 0);
}

/** Every local branch under `prefix` (e.g. `noma-reconcile/run/`) with its tip: short name → commit. */
export function branchesUnder(root: string, prefix: string): Map<string, string> {
  const out = execGit(["for-each-ref", "--format=%(objectname) %(refname:short)", `refs/heads/${prefix}`], { cwd: root });
  const m = new Map<string, string>();
  for (const line of out.split("\n")) {
    const sp = line.indexOf(" ");
    if (sp > 0) m.set(line.slice(sp + 1), line.slice(0, sp));
  }
  return m;
}

/** `git branch -D` of each (in argv-sized chunks). */
export function deleteBranches(root: string, branches: readonly string[]): void {
  for (const chunk of chunkPaths(branches)) execGit(["branch", "-D", "--", ...chunk], { cwd: root });
}
