/**
 * Bringing one commit into the branch checked out at `root` — a fast-forward
 * when HEAD is an ancestor of it, else a cherry-pick worked out first on a
 * temporary index (`git apply --cached --3way` of the commit's diff onto
 * HEAD's tree): the user's index and files are touched only once the result is
 * known to apply without conflicts, and then by `git merge --ff-only` to a
 * commit with the same message and author, so git itself refuses to overwrite
 * an untracked file.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { execGit, GitError, splitNul } from "./exec-git.js";
import type { CommitIdentity } from "./commit-worktree.js";
import { gitPath, readGitConfigs } from "./read-ref.js";
import { isAncestor } from "./resolve-commit.js";
import { NO_HOOKS } from "./worktree-commands.js";

export type ReplayPlan =
  | { kind: "fast-forward"; commit: string }
  | { kind: "cherry-pick"; tree: string }
  | { kind: "conflict"; paths: string[]; detail: string }
  | { kind: "empty" };

/** How `commit` would come onto HEAD (nothing is changed). */
export function planReplay(root: string, head: string, commit: string): ReplayPlan {
  if (isAncestor(root, head, commit) === true) return { kind: "fast-forward", commit };
  const parent = execGit(["rev-parse", "--verify", `${commit}^1^{commit}`], { cwd: root }).trim();
  const dir = gitPath(root, ".");
  const index = join(isAbsolute(dir) ? dir : join(root, dir), `noma-reconcile-apply-${randomBytes(4).toString("hex")}.index`);
  const env = { GIT_INDEX_FILE: index };
  try {
    execGit(["read-tree", head], { cwd: root, env });
    const diff = execGit(["diff", "--binary", "--full-index", "--no-ext-diff", "--no-textconv", "--no-renames", parent, commit], { cwd: root });
    if (diff.length === 0) return { kind: "empty" };
    let detail = "";
    try {
      execGit(["apply", "--cached", "--3way", "--whitespace=nowarn", "-"], { cwd: root, env, input: diff });
    } catch (e) {
      if (!(e instanceof GitError)) throw e;
      detail = e.stderr;
    }
    const unmerged = [...new Set(splitNul(execGit(["ls-files", "-u", "-z"], { cwd: root, env })).map((l) => l.slice(l.indexOf("\t") + 1)))].sort();
    if (unmerged.length > 0 || detail !== "") return { kind: "conflict", paths: unmerged, detail };
    const tree = execGit(["write-tree"], { cwd: root, env }).trim();
    const headTree = execGit(["rev-parse", "--verify", `${head}^{tree}`], { cwd: root }).trim();
    return tree === headTree ? { kind: "empty" } : { kind: "cherry-pick", tree };
  } finally {
    rmSync(index, { force: true });
    rmSync(`${index}.lock`, { force: true });
  }
}

/** Carry out a plan (fast-forward or cherry-pick): the commit now at HEAD. GitError when git refuses (an untracked file in the way). */
export function replayCommit(
  root: string,
  head: string,
  commit: string,
  plan: ReplayPlan & { kind: "fast-forward" | "cherry-pick" },
  fallback: CommitIdentity,
): string {
  let target = commit;
  if (plan.kind === "cherry-pick") {
    const committer: NodeJS.ProcessEnv = {};
    const set = readGitConfigs(root, ["user.name", "user.email"]); // both from one git process
    if (set.get("user.name") === null) committer["GIT_COMMITTER_NAME"] = fallback.name;
    if (set.get("user.email") === null) committer["GIT_COMMITTER_EMAIL"] = fallback.email;
    const [name, email, date, message] = execGit(["log", "-1", "--format=%an%x00%ae%x00%aI%x00%B", commit], { cwd: root }).split("\0");
    target = execGit(["commit-tree", plan.tree, "-p", head, "-F", "-"], {
      cwd: root,
      input: message ?? "",
      env: { ...committer, GIT_AUTHOR_NAME: name ?? "", GIT_AUTHOR_EMAIL: email ?? "", GIT_AUTHOR_DATE: date ?? "" },
    }).trim();
  }
  execGit([...NO_HOOKS, "merge", "--ff-only", "--quiet", target], { cwd: root });
  return target;
}
