/**
 * Committing everything a work tree holds (a run's worktree on PASS): stage
 * every change except some top-level paths, say which paths are staged, and
 * commit them with a message — under the repository's identity, or a fallback
 * one when git has none (a CI runner), with hooks off (the run's own check has
 * judged what is committed).
 */
import { execGit, GitError, splitNul } from "./exec-git.js";
import { readGitConfigs } from "./read-ref.js";
import { NO_HOOKS } from "./worktree-commands.js";

/** Of `paths`, those git ignores (`git check-ignore`). */
function ignoredOf(root: string, paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    return new Set(splitNul(execGit(["check-ignore", "-z", "--stdin"], { cwd: root, input: `${paths.join("\0")}\0` })));
  } catch (e) {
    if (e instanceof GitError && e.status === 1) return new Set();
    throw e;
  }
}

/**
 * `git add -A` of everything but `exclude` (paths from the top level, left out as `:(exclude)` pathspecs). A path
 * git ignores anyway is not named: `git add` refuses a pathspec, even an exclusion, that names an ignored path.
 */
export function stageAllExcept(root: string, exclude: readonly string[]): void {
  const ignored = ignoredOf(root, exclude);
  execGit(["add", "-A", "--", ".", ...exclude.filter((p) => !ignored.has(p)).map((p) => `:(exclude)${p}`)], { cwd: root });
}

/** Paths whose index entry differs from HEAD (what a commit would record), with git's status letter. */
export function stagedChanges(root: string): Array<{ status: string; path: string }> {
  const parts = splitNul(execGit(["diff", "--cached", "--name-status", "-z", "--no-renames", "--no-ext-diff"], { cwd: root }));
  const out: Array<{ status: string; path: string }> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push({ status: parts[i]!, path: parts[i + 1]! });
  return out;
}

export interface CommitIdentity {
  name: string;
  email: string;
}

/** Commit the index with `message` (hooks off); the new commit's id. `fallback` is used when git has no user.name / user.email. */
export function commitIndex(root: string, message: string, fallback: CommitIdentity): string {
  const id: string[] = [];
  // Both keys from one git process.
  const set = readGitConfigs(root, ["user.name", "user.email"]);
  if (set.get("user.name") === null) id.push("-c", `user.name=${fallback.name}`);
  if (set.get("user.email") === null) id.push("-c", `user.email=${fallback.email}`);
  execGit([...NO_HOOKS, ...id, "commit", "--quiet", "--no-verify", "--file=-"], { cwd: root, input: message });
  return execGit(["rev-parse", "--verify", "HEAD^{commit}"], { cwd: root }).trim();
}

/** The commits of `range` (`base..tip`) whose message has the trailer line `line`, newest first. */
export function commitsWithTrailer(root: string, range: string, line: string): string[] {
  const out = execGit(["log", "--format=%H", "--fixed-strings", `--grep=${line}`, range], { cwd: root });
  return out.split("\n").filter((l) => l.length > 0);
}

/** A commit's subject line and the rest of its message. */
export function commitMessage(root: string, commit: string): { subject: string; body: string } {
  const [subject, body] = execGit(["log", "-1", "--format=%s%x00%b", commit], { cwd: root }).split("\0");
  return { subject: subject ?? "", body: (body ?? "").trim() };
}
