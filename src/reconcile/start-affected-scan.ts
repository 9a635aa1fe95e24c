/**
 * The git work `list_affected_specs` waits for — the merge-base, then the changes since it
 * (one diff and the walk for untracked files, at once) — started before the specs load. A
 * light module (git adapters only): the CLI starts it before it loads the YAML parser,
 * schemas and globs, so git scans the work tree while this process loads its modules.
 */
import { type ChangedFile, changedFilesAsync } from "../git/changed-files.js";
import { findMergeBase, type MergeBaseOptions } from "../git/merge-base.js";

export interface AffectedScan {
  root: string;
  baseBranch: string;
  /** Kills the scan (an error on the way). */
  abort: AbortController;
  changing: Promise<ChangedFile[]>;
}

/** Resolve the merge-base (its errors are thrown here) and start listing what changed since it. */
export function startAffectedScan(root: string, baseBranch: string, mergeBase?: MergeBaseOptions): AffectedScan {
  const mb = findMergeBase(root, baseBranch, mergeBase);
  const abort = new AbortController();
  const changing = changedFilesAsync(root, mb.mergeBase, abort.signal);
  changing.catch(() => undefined);
  return { root, baseBranch, abort, changing };
}
