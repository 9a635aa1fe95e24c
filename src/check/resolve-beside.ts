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

/**
 * The two lookups documents need (a dataset's `src=`, a book's chapters), given how a
 * written path resolves and whether the resolved path exists where `check` is looking
 * (the work tree, the index, or a commit).
 */
export function besideLookups(
  resolve: (fromFile: string, target: string) => string | null,
  exists: (rel: string | null) => boolean,
): { datasetSrcExists: (from: string, src: string) => boolean; chapterExists: (from: string, chapter: string) => boolean } {
  return {
    datasetSrcExists: (from, src) => isRemoteSource(src) || exists(resolve(from, src)),
    chapterExists: (from, chapter) => exists(resolve(from, chapter)),
  };
}
