/**
 * The index listing (`git ls-files -z -t -s -c`) read from the index file in process, where
 * nothing could make git read another file or read it differently; `null` otherwise, and the
 * caller asks git. Not when:
 * - `GIT_INDEX_FILE` names another index (a hook during `git commit` gets one), or anything
 *   discovery gives up on (discover-repo-root.ts: `GIT_DIR`, `core.worktree`, includes, …);
 * - `root` is not the top level discovery finds;
 * - the repository's object format is not SHA-1 (`extensions.objectFormat`);
 * - the index is one `indexListing` does not take on (a split or sparse index, a damaged one).
 * A missing index is an empty one, as for git.
 */
import { readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { discoverRepo } from "./discover-repo-root.js";
import { indexListing } from "./index-listing.js";

/** The bytes `git ls-files -z -t -s -c` would print at `root`, or null when only git can say. */
export function readIndexListing(root: string, env: NodeJS.ProcessEnv = process.env): Buffer | null {
  try {
    if (env["GIT_INDEX_FILE"] !== undefined) return null;
    const repo = discoverRepo(root, env);
    if (repo === undefined || (repo.top !== root && repo.top !== realpathSync(root))) return null;
    const common = readOrNull(join(repo.gitDir, "commondir"));
    const config = readOrNull(join(common !== null ? resolve(repo.gitDir, common.toString("utf8").trim()) : repo.gitDir, "config"));
    if (config !== null && /^\s*(objectformat|compatobjectformat)\b/im.test(config.toString("utf8"))) return null;
    const index = readOrNull(join(repo.gitDir, "index"));
    return index === null ? Buffer.alloc(0) : indexListing(index);
  } catch {
    return null;
  }
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}
