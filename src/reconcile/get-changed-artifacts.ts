/**
 * `get_changed_artifacts`: the existing artifact files a spec governs whose
 * current content is not reconciled for that spec (versus the cache, not
 * versus a branch). Optionally one artifact category only.
 *
 * This is the warm path over a whole repository, so it does as little as
 * possible: git lists every file with its index blob id in one process while
 * this one loads sql.js and the spec's (path → blob) reconciliation pairs; a
 * clean tracked file whose record names its current blob is reconciled without
 * a stat or a read; only the rest (modified, untracked, never reconciled) get
 * their memo rows and hashes, in bulk.
 */
import { readCache } from "../cache/cache-db.js";
import { cleanBlobIds, currentHashes, statPaths } from "../cache/current-hashes.js";
import { readWorktreeStatusAsync } from "../git/read-worktree-status.js";
import { SELF_CATEGORY } from "../governance/governance.js";
import { ANY_SPEC } from "../cache/cache-db.js";
import { ReconcileError } from "./reconcile-error.js";
import { isReconciled, loadSpecContext, persistMemo, readReconciliation, repoPath, requireSpec, type ToolOptions } from "./reconcile-context.js";

export interface GetChangedArtifactsInput {
  specPath: string;
  /** An artifact category of the spec ("code", "docs", …); default: all. */
  artifactType?: string;
}

export interface ChangedArtifactsResult {
  changed_artifacts: string[];
}

export async function getChangedArtifacts(root: string, input: GetChangedArtifactsInput, options: ToolOptions = {}): Promise<ChangedArtifactsResult> {
  const specPath = repoPath(root, input.specPath);
  // Phase 1, concurrently: git's view of every file, and the spec's (path → blob) reconciliation pairs.
  const statusPromise = readWorktreeStatusAsync(root);
  const pairsPromise = readCache(root, { specs: [specPath], reconciled: "blobs" });
  statusPromise.catch(() => undefined); // awaited below
  const [status, pairs] = await Promise.all([statusPromise, pairsPromise]);

  const ctx = loadSpecContext(root, options, status.keys());
  const spec = requireSpec(ctx, specPath, { requireData: true });
  const categories = ctx.governance.categoriesOf(spec.path);
  if (input.artifactType !== undefined && !categories.includes(input.artifactType)) {
    throw new ReconcileError("unknown-category", `${spec.path} has no artifact category "${input.artifactType}" (its categories: ${categories.join(", ") || "none"})`);
  }

  const own = pairs.reconciledBlobs.get(spec.path);
  const any = pairs.reconciledBlobs.get(ANY_SPEC);
  const pending: string[] = [];
  let ownSeen = 0;
  let anySeen = 0;
  for (const [path, e] of status) {
    if (e.deleted) continue;
    const ownBlob = own?.get(path);
    const anyBlob = any?.get(path);
    if (ownBlob !== undefined) ownSeen++;
    if (anyBlob !== undefined) anySeen++;
    const g = ctx.governance.governs(spec.path, path);
    if (g === null || g.category === SELF_CATEGORY) continue;
    if (input.artifactType !== undefined && g.category !== input.artifactType) continue;
    // A clean tracked file whose reconciliation record names its current index blob is reconciled.
    const clean = !e.modified && !e.unmerged && !e.skipWorktree && (e.mode === "100644" || e.mode === "100755") ? e.blob : null;
    if (clean === null || (ownBlob !== clean && anyBlob !== clean)) pending.push(path);
  }
  // Records of files git no longer lists are dead: write (and prune) even when the memo learnt nothing.
  const dead = ownSeen < (own?.size ?? 0) || anySeen < (any?.size ?? 0);
  pending.sort();

  // Phase 2: full records, memo rows and hashes for what is left.
  const rec = await readReconciliation(root, { specs: [spec.path], paths: pending, blobs: cleanBlobIds(status, pending), stats: statPaths(status, pending) }, options);
  const current = await currentHashes(root, pending, status, { blobHashes: rec.cache.blobHashes, statHashes: rec.cache.statHashes });
  const changed = pending.filter((p) => !isReconciled(rec.cache, spec.path, p, current.hashes.get(p) ?? null));

  if (options.readOnly !== true && (dead || current.newBlobHashes.size > 0 || current.newStatHashes.size > 0)) {
    const livePaths = new Set<string>();
    const liveBlobs = new Set<string>();
    for (const [path, e] of status) {
      if (e.blob !== null) liveBlobs.add(e.blob);
      if (!e.deleted) livePaths.add(path);
    }
    await persistMemo(root, rec, { blobHashes: current.newBlobHashes, statHashes: current.newStatHashes, prune: { livePaths, liveSpecs: new Set(ctx.specs.byPath.keys()), liveBlobs } }, options, dead);
  }
  return { changed_artifacts: changed };
}
