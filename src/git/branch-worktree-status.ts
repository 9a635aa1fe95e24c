/**
 * The work-tree status of a branch's changed paths, from the branch diff's raw records
 * (branch-diff.ts) instead of asking git again: what `readWorktreeStatus` reports for
 * them, to the extent `currentHashes` reads it.
 *
 *  - an untracked path gets no entry (`currentHashes` treats a path it is not told about as
 *    untracked);
 *  - the new side of a change is tracked, with the new mode; its object id, when git gives
 *    one, is that of its work-tree content (the index blob for a file whose stat data
 *    matches the index, or an id git computed from the file's bytes, as for a file staged
 *    then edited), so the hash memo may answer for it; all zeros means git did not compute
 *    it (the file differs from the index): it is read;
 *  - a deleted path gets no entry: whether it is in the index but gone from the work tree,
 *    or out of the index with a file (ignored) still there, the caller's stat decides, as
 *    it does for a path git does not list;
 *  - skip-worktree paths are never clean (git does not look at their work-tree file).
 */
import { isNullObject, type RawEntry } from "./branch-diff.js";
import type { WorktreeEntry } from "./parse-ls-files.js";

export function branchWorktreeStatus(raw: readonly RawEntry[], skipWorktree: ReadonlySet<string>): Map<string, WorktreeEntry> {
  const map = new Map<string, WorktreeEntry>();
  for (const e of raw) {
    if (e.status === "D") continue;
    const known = !isNullObject(e.newBlob);
    const skip = skipWorktree.has(e.path);
    map.set(e.path, {
      path: e.path,
      tracked: true,
      blob: known ? e.newBlob : null,
      mode: e.newMode === "000000" ? null : e.newMode,
      modified: !known || skip,
      deleted: false,
      unmerged: e.status === "U",
      skipWorktree: skip,
    });
  }
  return map;
}
