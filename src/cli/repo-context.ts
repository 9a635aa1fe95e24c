/**
 * Where a command runs: the repository's top level (commands work from any
 * subdirectory) or, outside a repository, the working directory.
 */
import { findRepoRoot } from "../git/find-repo-root.js";
import { GitError } from "../git/exec-git.js";
import { containPath, PathOutsideRepoError } from "../fsx/contain-path.js";
import { RuntimeError, UsageError } from "../errors/noma-error.js";
import { didYouMean } from "../errors/did-you-mean.js";

export interface RepoContext {
  root: string;
  inRepo: boolean;
}

export function repoContext(cwd: string): RepoContext {
  try {
    const root = findRepoRoot(cwd);
    return root !== null ? { root, inRepo: true } : { root: cwd, inRepo: false };
  } catch (e) {
    if (e instanceof GitError) throw new RuntimeError(e.message, { cause: e });
    throw e;
  }
}

/** A path argument, contained in the repository, as a repo-relative POSIX path. */
export function pathArg(given: string, ctx: RepoContext, cwd: string): string {
  try {
    return containPath(given, ctx.root, cwd);
  } catch (e) {
    if (e instanceof PathOutsideRepoError) throw new UsageError(e.message);
    throw e;
  }
}

/** Validate an enumerated option value. */
export function choice<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  const v = String(value);
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(", ")}; got "${v}"${didYouMean(v, allowed)}`);
}

/** A whole-number flag's value within [min, max], or `fallback` when the flag is absent. */
export function intOption(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got "${String(value)}"`);
  return n;
}

/** A repeatable string option as a list. */
export function listOption(value: unknown): string[] {
  if (value === undefined || value === null || value === false) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}
