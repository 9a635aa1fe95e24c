/**
 * What changed between a commit (the merge-base) and the work tree: tracked
 * changes (staged or not) from `git diff --name-status`, plus every untracked
 * file git does not ignore. Deleted files count, and a rename contributes both
 * its old and its new path.
 */
import { execGit, splitNul } from "./exec-git.js";
import { execGitAsync } from "./exec-git-async.js";
import { parseNameStatusZ, type ChangeStatus } from "./parse-name-status.js";

export type ChangeKind = "added" | "modified" | "deleted" | "renamed" | "copied" | "type-changed" | "unmerged" | "untracked";

export interface ChangedFile {
  path: string;
  kind: ChangeKind;
  /** For the new side of a rename or copy: where it came from. */
  from?: string;
  /** For the old side of a rename: where it went. */
  to?: string;
}

/** What each status letter of `git diff --name-status`/`--raw` means. */
export const CHANGE_KINDS: Readonly<Record<ChangeStatus, ChangeKind>> = {
  A: "added",
  C: "copied",
  D: "deleted",
  M: "modified",
  R: "renamed",
  T: "type-changed",
  U: "unmerged",
  X: "modified",
};

/** Pure: fold name-status entries and untracked paths into a sorted, de-duplicated list (both sides of renames). */
export function foldChanges(entries: ReturnType<typeof parseNameStatusZ>, untracked: readonly string[]): ChangedFile[] {
  const byPath = new Map<string, ChangedFile>();
  for (const e of entries) {
    if (e.status === "R" && e.oldPath !== undefined) {
      byPath.set(e.oldPath, { path: e.oldPath, kind: "deleted", to: e.path });
      byPath.set(e.path, { path: e.path, kind: "renamed", from: e.oldPath });
    } else if (e.status === "C" && e.oldPath !== undefined) {
      byPath.set(e.path, { path: e.path, kind: "copied", from: e.oldPath });
    } else {
      byPath.set(e.path, { path: e.path, kind: CHANGE_KINDS[e.status] });
    }
  }
  for (const p of untracked) if (!byPath.has(p)) byPath.set(p, { path: p, kind: "untracked" });
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const NAME_STATUS = ["diff", "--name-status", "-z", "--find-renames", "--no-ext-diff", "--no-textconv", "--ignore-submodules=none"];
const UNTRACKED = ["ls-files", "-z", "--others", "--exclude-standard"];

/**
 * Files that differ between `commit` and the work tree, including untracked and deleted files and both sides of renames.
 * `untracked`: git's list of untracked files (`ls-files -z -o --exclude-standard`, as the combined worktree listing gives
 * it) when the caller has it for the work tree as it is now; otherwise git is asked.
 */
export function changedFiles(root: string, commit: string, untrackedOut?: string): ChangedFile[] {
  const out = execGit([...NAME_STATUS, commit, "--"], { cwd: root });
  const untracked = splitNul(untrackedOut ?? execGit(UNTRACKED, { cwd: root }));
  return foldChanges(parseNameStatusZ(out), untracked);
}

/** The same, with git's two passes over the work tree (the diff's stat pass, the untracked walk) run at once. */
export async function changedFilesAsync(root: string, commit: string, signal?: AbortSignal): Promise<ChangedFile[]> {
  const opts = { cwd: root, ...(signal !== undefined ? { signal } : {}) };
  const [out, untracked] = await Promise.all([execGitAsync([...NAME_STATUS, commit, "--"], opts), execGitAsync(UNTRACKED, opts)]);
  return foldChanges(parseNameStatusZ(out.toString("utf8")), splitNul(untracked.toString("utf8")));
}
