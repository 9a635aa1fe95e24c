/**
 * Linked worktrees (`git worktree`) for the run loop: add one on a new branch,
 * list them, remove one, forget the records of vanished ones. Hooks are off for
 * these calls (a post-checkout hook of the user's must not run on our checkout,
 * nor cost a run its time).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { realpathLenient } from "../fsx/realpath-lenient.js";
import { execGit, splitNul } from "./exec-git.js";

/** `-c core.hooksPath=…` pointing at nothing: no hook of the repository runs. */
export const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"] as const;

/** `git worktree add -b BRANCH DIR BASE` (the branch must not exist). */
export function addWorktree(root: string, dir: string, branch: string, base: string): void {
  execGit([...NO_HOOKS, "worktree", "add", "--quiet", "-b", branch, "--", dir, base], { cwd: root });
}

/** `git worktree add DIR BRANCH` for a branch that exists (the worktree checks it out). */
export function addWorktreeOnBranch(root: string, dir: string, branch: string): void {
  execGit([...NO_HOOKS, "worktree", "add", "--quiet", "--", dir, branch], { cwd: root });
}

export interface WorktreeRecord {
  /** Absolute path as git records it. */
  path: string;
  head: string | null;
  /** `refs/heads/…`, or null when detached. */
  branch: string | null;
  /** The directory is gone (`git worktree prune` would drop the record). */
  prunable: boolean;
}

/** `git worktree list --porcelain -z` parsed (pure): the main worktree first. */
export function parseWorktreeList(out: string): WorktreeRecord[] {
  const records: WorktreeRecord[] = [];
  let cur: WorktreeRecord | null = null;
  for (const line of splitNul(out)) {
    if (line === "") {
      if (cur !== null) records.push(cur);
      cur = null;
      continue;
    }
    const sp = line.indexOf(" ");
    const key = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? "" : line.slice(sp + 1);
    if (key === "worktree") {
      if (cur !== null) records.push(cur);
      cur = { path: value, head: null, branch: null, prunable: false };
    } else if (cur !== null) {
      if (key === "HEAD") cur.head = value;
      else if (key === "branch") cur.branch = value;
      else if (key === "prunable") cur.prunable = true;
    }
  }
  if (cur !== null) records.push(cur);
  return records;
}

export function listWorktrees(root: string): WorktreeRecord[] {
  return parseWorktreeList(execGit(["worktree", "list", "--porcelain", "-z"], { cwd: root }));
}

/** `git worktree remove --force DIR`: the caller has decided nothing in it is to be kept. */
export function removeWorktree(root: string, dir: string): void {
  execGit(["worktree", "remove", "--force", "--force", "--", dir], { cwd: root });
}

/** `git worktree prune`: drop the records of worktrees whose directories are gone. */
export function pruneWorktreeRecords(root: string): void {
  execGit(["worktree", "prune"], { cwd: root });
}

/**
 * Why git would refuse to remove the linked worktree at `dir`, read from the files git checks
 * (`dir/.git` names a record `gitdir: R`; `R/gitdir` names `dir/.git` back), or null when the
 * two point at each other. A worktree copied or re-linked by hand fails this.
 */
export function worktreeLinkProblem(dir: string): string | null {
  const dotGit = join(dir, ".git");
  let text: string;
  try {
    text = readFileSync(dotGit, "utf8");
  } catch (e) {
    return `${dotGit} cannot be read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
  const m = /^gitdir: (.+?)\r?\n?$/.exec(text);
  if (m === null) return `${dotGit} is not a "gitdir: …" link`;
  const record = resolve(dir, m[1]!);
  let back: string;
  try {
    back = readFileSync(join(record, "gitdir"), "utf8").trim();
  } catch {
    return `${dotGit} points at ${record}, which is not a worktree record`;
  }
  return realpathLenient(resolve(record, back)) === realpathLenient(dotGit) ? null : `${dotGit} points at ${record}, which does not point back`;
}
