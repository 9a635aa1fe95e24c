/**
 * What "unreconciled drift for a spec" means to the run loop: the files the
 * spec governs whose current content is not reconciled for it — its
 * artifacts per `get_changed_artifacts` (the hash cache, seeded from the
 * committed snapshot), plus the spec file itself when it changed — each with
 * its current BLAKE3.
 */
import { join } from "node:path";
import { loadBlake3 } from "../cache/blake3.js";
import { hashFile } from "../cache/hash-file.js";
import { startCombinedWorktreeListing, type WorktreeListingJob } from "../git/read-worktree-status.js";
import { getChangedArtifacts } from "../reconcile/get-changed-artifacts.js";
import { isReconciled, type ToolOptions } from "../reconcile/reconcile-context.js";
import { readReconciliation } from "../reconcile/read-reconciliation.js";

export interface PendingFile {
  path: string;
  /** Current BLAKE3 (null: the file does not exist). */
  hash: string | null;
}

export async function hashPaths(root: string, paths: readonly string[]): Promise<Map<string, string | null>> {
  const b3 = await loadBlake3();
  return new Map(paths.map((p) => [p, hashFile(join(root, p), b3)?.blake3 ?? null]));
}

/**
 * `listing`: git's listing of the work tree to answer from, started by the caller (who may read its untracked part
 * too: the built-in check); by default one is started here.
 */
export async function pendingDrift(
  root: string,
  spec: string,
  options: ToolOptions = {},
  listing: WorktreeListingJob = startCombinedWorktreeListing(root),
): Promise<PendingFile[]> {
  // Git's listing in two processes, not three: a run asks this several times and pays CPU, not latency, for each process.
  const { changed_artifacts } = await getChangedArtifacts(root, { specPath: spec }, { ...options, listing });
  const specHash = (await hashPaths(root, [spec])).get(spec) ?? null;
  const rec = await readReconciliation(root, { specs: [spec], paths: [spec] }, { ...options, readOnly: true });
  const paths = isReconciled(rec.cache, spec, spec, specHash) ? changed_artifacts : [spec, ...changed_artifacts];
  const hashes = await hashPaths(root, paths);
  return paths.map((p) => ({ path: p, hash: hashes.get(p) ?? null }));
}
