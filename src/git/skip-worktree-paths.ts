/**
 * Index entries marked skip-worktree (sparse checkouts, `git update-index --skip-worktree`).
 * git compares such an entry with nothing in the work tree, so a diff reports its index blob
 * as if the file were clean: callers that trust that blob for the work-tree content must
 * leave these paths out.
 *
 * Most indexes cannot hold the mark at all: it is an extended flag, which format version 2
 * does not have (git writes version 3 only when some entry needs one, 4 when asked to). So
 * the index file's header is read first (12 bytes), and git lists the entries only when the
 * header leaves the question open (version 3 or 4, or a split index whose shared part may
 * differ).
 */
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { execGitAsync } from "./exec-git-async.js";

/** Whether the index at `indexPath` cannot hold skip-worktree entries (version 2, not split); false when unsure. */
export function indexWithoutExtendedFlags(indexPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(indexPath, "r");
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(8);
    if (readSync(fd, head, 0, 8, 0) !== 8 || head.toString("latin1", 0, 4) !== "DIRC" || head.readUInt32BE(4) !== 2) return false;
  } finally {
    closeSync(fd);
  }
  try {
    const name = basename(indexPath);
    return !readdirSync(dirname(indexPath)).some((f) => f.startsWith("sharedindex.") || (name !== "index" && f.startsWith(`${name}.shared`)));
  } catch {
    return false;
  }
}

/** Pure: the skip-worktree paths in `git ls-files -z -t -c` output (tag `S`, or `s` with -v). */
export function parseSkipWorktree(out: string): Set<string> {
  const paths = new Set<string>();
  for (const rec of out.split("\0")) if ((rec.startsWith("S ") || rec.startsWith("s ")) && rec.length > 2) paths.add(rec.slice(2));
  return paths;
}

/** The skip-worktree paths of the repository at `root` (two small git calls at most, without blocking). */
export async function skipWorktreePaths(root: string, signal?: AbortSignal): Promise<Set<string>> {
  const opts = { cwd: root, ...(signal !== undefined ? { signal } : {}) };
  const indexPath = resolve(root, (await execGitAsync(["rev-parse", "--git-path", "index"], opts)).toString("utf8").trim());
  if (indexWithoutExtendedFlags(indexPath)) return new Set();
  return parseSkipWorktree((await execGitAsync(["ls-files", "-z", "-t", "-c"], opts)).toString("utf8"));
}
