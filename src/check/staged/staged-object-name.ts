/**
 * How the hook names a staged file's blob for `git cat-file --batch`: the object id the index
 * holds, or `HEAD:<path>` for a file the commit leaves as it is.
 */
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";

/** The object name of `path`'s index version, or null when the index has none. */
export function stagedObjectName(staged: ReadonlyMap<string, RawDiffEntry>, path: string): string | null {
  const e = staged.get(path);
  return e === undefined ? `HEAD:${path}` : e.oid;
}
