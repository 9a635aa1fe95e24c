/**
 * How the work tree answers the two lookups a document needs (resolve-beside.ts): a path
 * written in a repository file (a dataset's `src=`, a book's chapter), resolved beside that
 * file and contained in the repository (symbolic links resolved), and whether a regular file
 * is there. What `check` and the language server judge documents with, so they agree.
 */
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { containPath } from "../fsx/contain-path.js";
import { besideLookups } from "./resolve-beside.js";

/** A path written in `fromFile`, as a repository-relative path; null when it leaves the repository. */
export function worktreeBeside(root: string): (fromFile: string, target: string) => string | null {
  return (fromFile, target) => {
    try {
      return containPath(join(dirname(join(root, fromFile)), target), root, root);
    } catch {
      return null;
    }
  };
}

/** Whether a regular file is at the repository-relative path `rel`. */
export function worktreeIsFile(root: string): (rel: string | null) => boolean {
  return (rel) => {
    if (rel === null) return false;
    try {
      return statSync(join(root, rel)).isFile();
    } catch {
      return false;
    }
  };
}

/** The document lookups of the work tree under `root`. */
export function worktreeLookups(root: string): ReturnType<typeof besideLookups> {
  return besideLookups(worktreeBeside(root), worktreeIsFile(root));
}
