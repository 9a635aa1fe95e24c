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
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  const get = (path: string): WorktreeEntry => {
    let e = map.get(path);
    if (e === undefined) {
      e = { path, tracked: false, blob: null, mode: null, modified: false, deleted: false, unmerged: false, skipWorktree: false };
      map.set(path, e);
    }
    return e;
  };
  for (const line of parts) {
    const tag = line.charAt(0);
    if (line.charAt(1) !== " ") throw new GitOutputError(`bad ls-files line ${JSON.stringify(line)}`);
    const rest = line.slice(2);
    if (tag === "?") {
      get(rest);
      continue;
    }
    const tab = rest.indexOf("\t");
    if (tab < 0) throw new GitOutputError(`bad ls-files line ${JSON.stringify(line)}`);
    const meta = rest.slice(0, tab).split(" ");
    const path = rest.slice(tab + 1);
    if (meta.length !== 3) throw new GitOutputError(`bad ls-files stage data ${JSON.stringify(line)}`);
    const [mode, object, stage] = meta as [string, string, string];
    const e = get(path);
    e.tracked = true;
    if (stage === "0") {
      e.blob = object;
      e.mode = mode;
    } else {
      e.unmerged = true;
    }
    switch (tag.toUpperCase()) {
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
      case "H":
      case "U":
      case "K":
        break;
      default:
        throw new GitOutputError(`unknown ls-files tag ${JSON.stringify(tag)}`);
    }
  }
  return map;
}
