/**
 * What changed between two commits, read from their trees alone (no work tree,
 * no index): `git diff --raw -z -M --no-abbrev <from> <to>`. Each changed path
 * comes with the blob it holds in `to` (none when deleted there), so its bytes
 * can be read by object id, whatever characters the path holds. A rename
 * contributes both its old path (deleted, `to` = new) and its new one
 * (renamed, `from` = old), as `changedFiles` does for the work tree.
 * @see https://git-scm.com/docs/git-diff#_raw_output_format
 */
import { decodeGitText } from "./git-path.js";
import { CHANGE_KINDS, type ChangeKind } from "./changed-files.js";
import { execGitBuffer } from "./exec-git.js";
import { GitOutputError } from "./parse-name-status.js";

export interface TreeChange {
  path: string;
  kind: ChangeKind;
  /** The object the path holds in `to`: a blob, a gitlink's commit; null when the path is gone. */
  oid: string | null;
  /** Its mode in `to` ("100644", "100755", "120000" symlink, "160000" gitlink), "000000" when gone. */
  mode: string;
  /** For the new side of a rename or copy: where it came from. */
  from?: string;
  /** For the old side of a rename: where it went. */
  to?: string;
}

const HEADER = /^:([0-7]{6}) ([0-7]{6}) ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) ([ACDMRTUX])(\d*)$/;
const KIND: Readonly<Record<string, ChangeKind>> = CHANGE_KINDS;
const GONE = "000000";

/** Pure: parse `git diff --raw -z` output (renames and copies carry two paths) into one entry per path, sorted. */
export function parseTreeChangesZ(out: string): TreeChange[] {
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  const byPath = new Map<string, TreeChange>();
  for (let i = 0; i < parts.length; ) {
    const header = parts[i++]!;
    const m = HEADER.exec(header);
    if (m === null) throw new GitOutputError(`diff --raw header ${JSON.stringify(header)}`);
    const [, , dstMode, , dstOid, status] = m as unknown as [string, string, string, string, string, string];
    const oid = /^0+$/.test(dstOid) || dstMode === GONE ? null : dstOid;
    const path = parts[i++];
    if (path === undefined) throw new GitOutputError(`diff --raw entry ${JSON.stringify(header)} without a path`);
    if (status === "R" || status === "C") {
      const to = parts[i++];
      if (to === undefined) throw new GitOutputError(`diff --raw ${status} entry for ${JSON.stringify(path)} without its new path`);
      if (status === "R") byPath.set(path, { path, kind: "deleted", oid: null, mode: GONE, to });
      byPath.set(to, { path: to, kind: status === "R" ? "renamed" : "copied", oid, mode: dstMode, from: path });
    } else {
      byPath.set(path, { path, kind: KIND[status]!, oid, mode: oid === null ? GONE : dstMode });
    }
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Changes from commit `from` to commit `to` (renames detected as `git diff -M` does), both sides of renames. */
export function treeChanges(root: string, from: string, to: string): TreeChange[] {
  const out = execGitBuffer(["diff", "--raw", "-z", "-M", "--no-abbrev", "--no-ext-diff", "--no-textconv", "--end-of-options", from, to, "--"], { cwd: root });
  return parseTreeChangesZ(decodeGitText(out)); // names that are not UTF-8 kept (git-path.ts)
}

/** Renames old path → new path among `changes`. */
export function renamesOf(changes: readonly TreeChange[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of changes) if (c.to !== undefined) out.set(c.path, c.to);
  return out;
}
