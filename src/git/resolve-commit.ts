/**
 * Resolve a user-supplied ref to a commit id. Refs that look like options
 * (`-x`, `--output=…`) are rejected before git sees them, and a ref that does
 * not resolve is an error, never an empty diff.
 */
import { execGit, GitError } from "./exec-git.js";
import { GitRefError } from "./git-ref-error.js";

/** Throws GitRefError("bad-ref") for refs git could read as an option or that are empty/contain NUL. */
export function assertSafeRef(ref: string): void {
  if (ref.length === 0) throw new GitRefError("bad-ref", "the base ref is empty");
  if (ref.startsWith("-")) throw new GitRefError("bad-ref", `refusing ref ${JSON.stringify(ref)}: refs starting with "-" would be read as options`);
  if (ref.includes("\0") || /[\r\n]/.test(ref)) throw new GitRefError("bad-ref", `refusing ref ${JSON.stringify(ref)}: control characters`);
}

/** The full commit id `ref` names in `root`; GitRefError("unknown-ref") when it does not resolve to a commit. */
export function resolveCommit(root: string, ref: string): string {
  assertSafeRef(ref);
  try {
    const out = execGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { cwd: root }).trim();
    if (out.length > 0) return out;
  } catch (e) {
    if (!(e instanceof GitError) || e.status === null) throw e;
  }
  if (ref === "HEAD") throw new GitRefError("no-commits", "HEAD does not name a commit yet (no commits on this branch)");
  throw new GitRefError(
    "unknown-ref",
    `unknown ref ${JSON.stringify(ref)}: it does not name a commit in this repository (try \`git fetch\`, or check the branch name)`,
  );
}

/** Whether `ancestor` is an ancestor of (or equal to) `descendant`; null when either is not a known commit. */
export function isAncestor(root: string, ancestor: string, descendant: string): boolean | null {
  assertSafeRef(ancestor);
  assertSafeRef(descendant);
  try {
    execGit(["merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant], { cwd: root });
    return true;
  } catch (e) {
    if (e instanceof GitError && e.status === 1) return false;
    if (e instanceof GitError && e.status !== null) return null;
    throw e;
  }
}
