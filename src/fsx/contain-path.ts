/**
 * Path containment: every path argument must resolve (symlinks included)
 * inside the repository root. Returns the repo-relative POSIX path.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep, basename } from "node:path";

export class PathOutsideRepoError extends Error {
  constructor(
    readonly given: string,
    readonly root: string,
  ) {
    super(`${given}: path is outside the repository (${root})`);
    this.name = "PathOutsideRepoError";
  }
}

/** realpath of `p`, or of its nearest existing ancestor joined with the rest (for paths not created yet). */
function realpathLenient(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    if (parent === p) return p;
    return resolve(realpathLenient(parent), basename(p));
  }
}

/** Resolve `given` (relative to `cwd`) and require it inside `root`; return it relative to root, POSIX style ("" for the root). */
export function containPath(given: string, root: string, cwd: string = process.cwd()): string {
  const abs = isAbsolute(given) ? given : resolve(cwd, given);
  const realRoot = realpathLenient(root);
  const real = realpathLenient(abs);
  const rel = relative(realRoot, real);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new PathOutsideRepoError(given, root);
  return rel.split(sep).join("/");
}
