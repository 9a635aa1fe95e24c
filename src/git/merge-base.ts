/**
 * The merge-base of a base ref and HEAD: every diff is taken against it, never
 * two-dot against the base tip (so commits made on the base branch after the
 * fork point never show up as this branch's changes).
 *
 * In a shallow clone the merge-base may be missing from the fetched history.
 * Then we deepen (`git fetch --deepen=N`) a few times, and finally fail with a
 * hint to fetch the full history. We never run `git fetch --depth=…`, which
 * would cut the history of a full clone.
 */
import { execGit, GitError } from "./exec-git.js";
import { GitRefError } from "./git-ref-error.js";
import { assertSafeRef, resolveCommit } from "./resolve-commit.js";

export interface MergeBaseOptions {
  /** Commits to deepen by on each attempt in a shallow clone. Default [64, 256, 1024]. */
  deepenSteps?: readonly number[];
  /** Called before each deepening (progress/logging). */
  onDeepen?: (by: number) => void;
}

export interface MergeBase {
  /** The base ref as given. */
  baseRef: string;
  /** The commit the base ref names. */
  baseCommit: string;
  /** HEAD's commit. */
  headCommit: string;
  /** merge-base(base, HEAD). */
  mergeBase: string;
}

export const SHALLOW_HINT = "fetch the full history (GitHub Actions: `actions/checkout` with `fetch-depth: 0`; elsewhere: `git fetch --unshallow`)";

function tryMergeBase(root: string, a: string, b: string): string | null {
  try {
    const out = execGit(["merge-base", "--end-of-options", a, b], { cwd: root }).trim();
    return out.length > 0 ? out : null;
  } catch (e) {
    if (e instanceof GitError && e.status === 1) return null;
    throw e;
  }
}

export function isShallowRepository(root: string): boolean {
  return execGit(["rev-parse", "--is-shallow-repository"], { cwd: root }).trim() === "true";
}

/**
 * merge-base(baseRef, HEAD) in one git call when both resolve and the history holds it, else
 * null (then `findMergeBase` says why, deepening a shallow clone if that helps).
 */
export function quickMergeBase(root: string, baseRef: string): string | null {
  try {
    assertSafeRef(baseRef);
    return tryMergeBase(root, baseRef, "HEAD");
  } catch {
    return null;
  }
}

/** Resolve `baseRef` and HEAD and find their merge-base (deepening a shallow clone if needed). */
export function findMergeBase(root: string, baseRef: string, options: MergeBaseOptions = {}): MergeBase {
  const baseCommit = resolveCommit(root, baseRef);
  const headCommit = resolveCommit(root, "HEAD");
  let mb = tryMergeBase(root, baseCommit, headCommit);
  if (mb !== null) return { baseRef, baseCommit, headCommit, mergeBase: mb };
  if (!isShallowRepository(root)) {
    throw new GitRefError("no-merge-base", `${baseRef} and HEAD have no common ancestor (unrelated histories); pick a base ref this branch was created from`);
  }
  const steps = options.deepenSteps ?? [64, 256, 1024];
  let total = 0;
  let attempts = 0;
  for (const by of steps) {
    options.onDeepen?.(by);
    try {
      execGit(["fetch", "--quiet", "--no-tags", `--deepen=${by}`], { cwd: root });
    } catch (e) {
      if (!(e instanceof GitError) || e.status === null) throw e;
      throw new GitRefError(
        "shallow-no-merge-base",
        `no merge-base between ${baseRef} and HEAD in this shallow clone, and deepening it failed (${e.stderr || e.message}); ${SHALLOW_HINT}`,
      );
    }
    attempts++;
    total += by;
    mb = tryMergeBase(root, baseCommit, headCommit);
    if (mb !== null) return { baseRef, baseCommit, headCommit, mergeBase: mb };
    if (!isShallowRepository(root)) {
      throw new GitRefError(
        "no-merge-base",
        `${baseRef} and HEAD have no common ancestor (unrelated histories, full history fetched); pick a base ref this branch was created from`,
      );
    }
  }
  throw new GitRefError(
    "shallow-no-merge-base",
    `no merge-base between ${baseRef} and HEAD in this shallow clone (deepened ${attempts} times, ${total} commits); ${SHALLOW_HINT}`,
  );
}
