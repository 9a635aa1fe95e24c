/**
 * Path containment: every path argument must resolve (symlinks included)
 * inside the repository root. Returns the repo-relative POSIX path.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import { isOutside } from "./is-outside.js";
import { lstatSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { realpathLenient } from "./realpath-lenient.js";

export class PathOutsideRepoError extends NomaError {
  static override readonly errorName: string = "PathOutsideRepoError";
  static override readonly kind: ErrorKind = "usage";
  constructor(
    readonly given: string,
    readonly root: string,
  ) {
    super("path-outside-repo", `${given}: path is outside the repository (${root})`);
  }
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
    if (isOutside(this.realRoot, real)) throw new PathOutsideRepoError(given, this.root);
    return relative(this.realRoot, real).split(sep).join("/");
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
