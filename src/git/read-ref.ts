/**
 * Small questions about refs whose "no" is an answer, not an error: the commit HEAD names
 * (none on an unborn branch), the branch HEAD is on (none when detached), a remote's
 * default branch. Null for "no" (git's exit status 1); a git failure that is not an answer
 * (git missing, not a repository, a repository git refuses: status 128) still throws.
 */
import { isAbsolute, resolve } from "node:path";
import { execGit, GitError } from "./exec-git.js";

/** Git's output trimmed, or null when git answered "no" (exit status 1) or printed nothing. */
function answer(root: string, argv: string[]): string | null {
  try {
    const out = execGit(argv, { cwd: root }).trim();
    return out.length > 0 ? out : null;
  } catch (e) {
    if (e instanceof GitError && e.status === 1) return null;
    throw e;
  }
}

/** The argv that resolves `rev` to a commit id, quietly (pure). */
export function verifyCommitArgv(rev: string): string[] {
  return ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`];
}

/** The commit `rev` names (`HEAD`, `HEAD^2`, a branch), or null. `rev` must come from us, not from a user (see assertSafeRef). */
export function commitOf(root: string, rev: string): string | null {
  return answer(root, verifyCommitArgv(rev));
}

/** The commit HEAD names, or null on an unborn branch. */
export function headCommit(root: string): string | null {
  return commitOf(root, "HEAD");
}

/** The short name of the branch HEAD is on, or null when detached. */
export function currentBranch(root: string): string | null {
  return answer(root, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
}

/** The short name `refs/remotes/origin/HEAD` points at (`origin/main`), or null. */
export function originDefaultBranch(root: string): string | null {
  return answer(root, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]);
}

/** `git config [--path] --get key` (the value as set: only the line break git adds is removed), or null when unset or empty. */
export function readGitConfig(root: string, key: string, options: { path?: boolean } = {}): string | null {
  try {
    const out = execGit(["config", ...(options.path === true ? ["--path"] : []), "--get", key], { cwd: root }).replace(/\r?\n$/, "");
    return out.length > 0 ? out : null;
  } catch (e) {
    // `git config --get` exits 1 for a key that is not set; any other failure (3: a config file
    // git cannot parse, 128: no repository) is git's to report, not an unset key.
    if (e instanceof GitError && e.status === 1) return null;
    throw e;
  }
}

/**
 * Several `section.key` names (no subsection) at once, each as `readGitConfig` reads it — the last value set, null when
 * unset or empty — from one `git config -z --get-regexp` instead of a git process per key. The keys are matched as git
 * prints them, in lower case; an entry without a value (`[user] name` alone) reads as empty, as `--get` prints it.
 */
export function readGitConfigs(root: string, keys: readonly string[]): Map<string, string | null> {
  const wanted = keys.map((k) => {
    if (!/^[A-Za-z][A-Za-z0-9-]*\.[A-Za-z][A-Za-z0-9-]*$/.test(k)) throw new Error(`readGitConfigs: ${JSON.stringify(k)} is not a section.key name`);
    return k.toLowerCase();
  });
  const out = new Map<string, string | null>(keys.map((k) => [k, null]));
  let listed: string;
  try {
    listed = execGit(["config", "-z", "--get-regexp", `^(${wanted.map((k) => k.replace(".", "\\.")).join("|")})$`], { cwd: root });
  } catch (e) {
    // Exit 1: none of them is set; any other failure is git's to report, as for readGitConfig.
    if (e instanceof GitError && e.status === 1) return out;
    throw e;
  }
  const last = new Map<string, string>();
  for (const entry of listed.split("\0")) {
    if (entry.length === 0) continue;
    const nl = entry.indexOf("\n");
    // `--get` prints the value and a line break, of which readGitConfig removes a final "\r\n" or "\n".
    last.set(nl < 0 ? entry : entry.slice(0, nl), nl < 0 ? "" : entry.slice(nl + 1).replace(/\r$/, ""));
  }
  keys.forEach((k, i) => {
    const v = last.get(wanted[i]!);
    out.set(k, v !== undefined && v.length > 0 ? v : null);
  });
  return out;
}

/** Where git keeps `name` (`hooks`) for this repository (`git rev-parse --git-path`), as git prints it. */
export function gitPath(root: string, name: string): string {
  return execGit(["rev-parse", "--git-path", name], { cwd: root }).trim();
}

/** Where git looks for hooks in the repository at `root`, absolute (honours `core.hooksPath`, linked worktrees, `$GIT_DIR`). */
export function gitHooksDir(root: string): string {
  const out = gitPath(root, "hooks");
  return isAbsolute(out) ? out : resolve(root, out);
}
