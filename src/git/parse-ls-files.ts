/**
 * Parse `git ls-files -z -t -s -c -o -m -d`: one line per (tag, entry), where
 * the tag is `H` (cached), `S` (skip-worktree), `M` (unmerged), `C`
 * (modified in the work tree), `R` (deleted in the work tree), `?` (untracked)
 * and, with `-v`, lower-case for assume-unchanged. Tracked lines carry
 * `<mode> <object> <stage>\t<path>`; untracked lines carry only the path.
 * Folded per path into one record.
 * @see https://git-scm.com/docs/git-ls-files#Documentation/git-ls-files.txt--t
 */
import { GitOutputError } from "./parse-name-status.js";

export interface WorktreeEntry {
  path: string;
  /** Listed in the index (any stage). */
  tracked: boolean;
  /** Index object id of stage 0, or null (untracked, or only conflict stages). */
  blob: string | null;
  /** Index mode of stage 0 ("100644", "100755", "120000", "160000"), or null. */
  mode: string | null;
  /** The work-tree file differs from the index (git compares content when stat data differs). */
  modified: boolean;
  /** Tracked but missing from the work tree. */
  deleted: boolean;
  /** Has conflict stages (1–3). */
  unmerged: boolean;
  /** Marked skip-worktree (sparse checkout). */
  skipWorktree: boolean;
}

export function parseLsFilesTagged(out: string): Map<string, WorktreeEntry> {
  const map = new Map<string, WorktreeEntry>();
  const len = out.length;
  let start = 0;
  while (start < len) {
    let end = out.indexOf("\0", start);
    if (end < 0) end = len;
    const tag = out.charAt(start);
    if (out.charAt(start + 1) !== " ") throw new GitOutputError(`bad ls-files line ${JSON.stringify(out.slice(start, end))}`);
    if (tag === "?") {
      const path = out.slice(start + 2, end);
      if (!map.has(path))
        map.set(path, { path, tracked: false, blob: null, mode: null, modified: false, deleted: false, unmerged: false, skipWorktree: false });
      start = end + 1;
      continue;
    }
    // "<tag> <mode> <object> <stage>\t<path>"
    const tab = out.indexOf("\t", start);
    const s1 = out.indexOf(" ", start + 2);
    const s2 = s1 < 0 ? -1 : out.indexOf(" ", s1 + 1);
    if (tab < 0 || tab > end || s1 < 0 || s2 < 0 || s2 > tab) throw new GitOutputError(`bad ls-files line ${JSON.stringify(out.slice(start, end))}`);
    const mode = out.slice(start + 2, s1);
    const object = out.slice(s1 + 1, s2);
    const stage = out.slice(s2 + 1, tab);
    const path = out.slice(tab + 1, end);
    start = end + 1;
    let e = map.get(path);
    if (e === undefined) {
      e = { path, tracked: true, blob: null, mode: null, modified: false, deleted: false, unmerged: false, skipWorktree: false };
      map.set(path, e);
    }
    e.tracked = true;
    if (stage === "0") {
      e.blob = object;
      e.mode = mode;
    } else {
      e.unmerged = true;
    }
    switch (tag.toUpperCase()) {
      case "H":
        break;
      case "C":
        e.modified = true;
        break;
      case "R":
        e.deleted = true;
        break;
      case "S":
        e.skipWorktree = true;
        break;
      case "M":
        e.unmerged = true;
        break;
      case "U":
      case "K":
        break;
      default:
        throw new GitOutputError(`unknown ls-files tag ${JSON.stringify(tag)}`);
    }
  }
  return map;
}
