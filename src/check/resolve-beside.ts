/**
 * A path written inside a repository file (a dataset `src=`, a book chapter),
 * resolved against that file's directory as a repository-relative POSIX path;
 * null when it leaves the repository. Pure (no symlinks: used on git trees).
 */
import { posix } from "node:path";

export function resolveBeside(fromFile: string, target: string): string | null {
  if (target.startsWith("/")) return null;
  const joined = posix.normalize(posix.join(posix.dirname(fromFile), target));
  return joined === ".." || joined.startsWith("../") ? null : joined;
}

/** Whether a dataset `src=` names a remote resource (a URL) rather than a repository file. */
export function isRemoteSource(src: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(src);
}
