/**
 * Path containment: every path argument must resolve (symlinks included)
 * inside the repository root. Returns the repo-relative POSIX path.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export class PathOutsideRepoError extends Error {
  constructor(
    readonly given: string,
    readonly root: string,
  ) {
    super(`${given}: path is outside the repository (${root})`);
    this.name = "PathOutsideRepoError";
  }
}

/**
 * realpath of `p`, or — for a path that does not (fully) exist yet — of its nearest existing
 * ancestor joined with the rest. A dangling symbolic link is followed to where its target
 * would be (a link to a missing file outside the repository is outside: writing through it
 * would create that file there). Link chains are followed up to 40 hops (the kernel's limit).
 */
function realpathLenient(p: string, hops = 0): string {
  try {
    return realpathSync(p);
  } catch {
    /* not there (yet), a dangling link, or a loop */
  }
  if (hops < 40) {
    let target: string | undefined;
    try {
      if (lstatSync(p).isSymbolicLink()) target = readlinkSync(p);
    } catch {
      target = undefined;
    }
    if (target !== undefined) return realpathLenient(resolve(realpathLenient(dirname(p), hops + 1), target), hops + 1);
  }
  const parent = dirname(p);
  if (parent === p) return p;
  return resolve(realpathLenient(parent, hops), basename(p));
}

/** Resolve `given` (relative to `cwd`) and require it inside `root`; return it relative to root, POSIX style ("" for the root). */
export function containPath(given: string, root: string, cwd: string = process.cwd()): string {
  return new PathContainment(root).contain(given, cwd);
}

/**
 * Containment of many paths in one root: the root's and each directory's real path are
 * resolved once (a realpath walks every component of its path), and each path itself
 * costs one lstat — it is resolved further only when it is a symbolic link. The answers
 * are those of `containPath`; make a new instance when the file system may have changed.
 */
export class PathContainment {
  private readonly realRoot: string;
  private readonly realDirs = new Map<string, string>();

  constructor(private readonly root: string) {
    this.realRoot = realpathLenient(root);
  }

  contain(given: string, cwd: string = process.cwd()): string {
    const real = this.real(isAbsolute(given) ? given : resolve(cwd, given));
    const rel = relative(this.realRoot, real);
    if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new PathOutsideRepoError(given, this.root);
    return rel.split(sep).join("/");
  }

  /** realpathLenient(abs), from the cached real path of its directory. */
  private real(abs: string): string {
    const dir = dirname(abs);
    if (dir === abs) return realpathLenient(abs);
    let realDir = this.realDirs.get(dir);
    if (realDir === undefined) {
      realDir = realpathLenient(dir);
      this.realDirs.set(dir, realDir);
    }
    const joined = join(realDir, basename(abs));
    let link: boolean;
    try {
      link = lstatSync(joined).isSymbolicLink();
    } catch {
      return joined; // not there (yet): the real path of its directory, then its name
    }
    return link ? realpathLenient(joined) : joined;
  }
}
