/**
 * `get_changed_artifacts`: the existing artifact files a spec governs whose
 * current content is not reconciled for that spec (versus the cache, not
 * versus a branch). Optionally one artifact category only.
 *
 * This is the warm path over a whole repository: git lists every file with
 * its index blob id in one process (run concurrently with loading the cache),
 * clean tracked files take their hash from the blob memo, and only files git
 * does not vouch for are stat'ed.
 */
import { readCache } from "../cache/cache-db.js";
import { cleanBlobIds, currentHashes, statPaths } from "../cache/current-hashes.js";
import { readWorktreeStatusAsync } from "../git/read-worktree-status.js";
import { SELF_CATEGORY } from "../governance/governance.js";
import { ReconcileError } from "./reconcile-error.js";
import { isReconciled, reconciledBlob, loadSpecContext, persistMemo, readReconciliation, requireSpec, type ToolOptions } from "./reconcile-context.js";

export interface GetChangedArtifactsInput {
  specPath: string;
  /** An artifact category of the spec ("code", "docs", …); default: all. */
  artifactType?: string;
}

export interface ChangedArtifactsResult {
  changed_artifacts: string[];
}

export async function getChangedArtifacts(root: string, input: GetChangedArtifactsInput, options: ToolOptions = {}): Promise<ChangedArtifactsResult> {
  const statusPromise = readWorktreeStatusAsync(root);
  statusPromise.catch(() => undefined); // awaited below; avoid an unhandled rejection while specs load
  const ctx = loadSpecContext(root, options);
  const spec = requireSpec(ctx, input.specPath, { requireData: true });
  const categories = ctx.governance.categoriesOf(spec.path);
  if (input.artifactType !== undefined && !categories.includes(input.artifactType)) {
    throw new ReconcileError("unknown-category", `${spec.path} has no artifact category "${input.artifactType}" (its categories: ${categories.join(", ") || "none"})`);
  }
  // Phase 1 (concurrently): git's view of every file, and the spec's reconciliation rows.
  const recPromise = readReconciliation(root, { specs: [spec.path] }, options);
  const [status, rec] = await Promise.all([statusPromise, recPromise]);

  const paths: string[] = [];
  for (const [path, entry] of status) {
    if (entry.deleted) continue;
    const g = ctx.governance.governs(spec.path, path);
    if (g === null || g.category === SELF_CATEGORY) continue;
    if (input.artifactType !== undefined && g.category !== input.artifactType) continue;
    paths.push(path);
  }
  paths.sort();
  // A clean tracked file whose reconciliation record names its current index blob is reconciled: no memo, no stat.
  const pending = paths.filter((p) => {
    const blob = cleanBlobIds(status, [p])[0];
    return blob === undefined || reconciledBlob(rec.cache, spec.path, p) !== blob;
  });
  // Phase 2: hash memo rows for what is left (bulk), then hashes.
  const memo = pending.length === 0 ? null : await readCache(root, { reconciled: false, blobs: cleanBlobIds(status, pending), stats: statPaths(status, pending) });
  const current = await currentHashes(root, pending, status, { blobHashes: memo?.blobHashes ?? new Map(), statHashes: memo?.statHashes ?? new Map() });
  const changed = pending.filter((p) => !isReconciled(rec.cache, spec.path, p, current.hashes.get(p) ?? null));

  const liveBlobs = new Set<string>();
  const livePaths = new Set<string>();
  for (const e of status.values()) {
    if (e.blob !== null) liveBlobs.add(e.blob);
    if (!e.deleted) livePaths.add(e.path);
  }
  // Rows of files git no longer lists are dead: write (and prune) even when the memo learnt nothing.
  let dead = false;
  for (const rows of rec.cache.reconciled.values()) for (const p of rows.keys()) if (!livePaths.has(p)) dead = true;
  await persistMemo(
    root,
    rec,
    { blobHashes: current.newBlobHashes, statHashes: current.newStatHashes, prune: { livePaths, liveSpecs: new Set(ctx.specs.byPath.keys()), liveBlobs } },
    options,
    dead,
  );
  return { changed_artifacts: changed };
}
