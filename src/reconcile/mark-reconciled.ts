/**
 * `mark_reconciled`: record that files were reconciled at their current
 * content. With a spec, for that spec only; without, for every spec that
 * governs each file (never globally: reconciling spec A does not reconcile a
 * shared file for spec B). Only governed files inside the repository are
 * marked; files that do not exist are skipped silently; a path outside the
 * repository is an error. NotarAI's `file_cache` row is updated too.
 */
import { PathContainment } from "../fsx/contain-path.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeCache } from "../cache/cache-db.js";
import { cleanBlobIds, currentHashes, statPaths } from "../cache/current-hashes.js";
import { readWorktreeStatus } from "../git/read-worktree-status.js";
import { loadSpecContext } from "./load-spec-context.js";
import { readReconciliation } from "./read-reconciliation.js";
import { persistMemo, repoPath, requireSpec, type ToolOptions } from "./reconcile-context.js";

export interface MarkReconciledInput {
  /** Repository-relative (or absolute, inside the repository) file paths. */
  files: readonly string[];
  /** Mark for this spec only. */
  specPath?: string;
}

export interface MarkReconciledResult {
  updated: number;
}

export async function markReconciled(root: string, input: MarkReconciledInput, options: ToolOptions = {}): Promise<MarkReconciledResult> {
  const contained = new PathContainment(root);
  const paths = [...new Set(input.files.map((f) => repoPath(root, f, contained)))].filter((p) => p.length > 0).sort();
  const ctx = loadSpecContext(root, options);
  const only = input.specPath !== undefined ? requireSpec(ctx, input.specPath).path : null;
  const status = readWorktreeStatus(root, paths);
  const rec = await readReconciliation(root, { reconciled: false, blobs: cleanBlobIds(status, paths), stats: statPaths(status, paths) }, options);

  const governorsOf = new Map<string, string[]>();
  const ungoverned: string[] = [];
  for (const p of paths) {
    const known = status.get(p);
    // Governance is over the files git knows (tracked, or untracked and not ignored).
    const specs = known === undefined ? [] : ctx.governance.governorsOf(p).map((g) => g.spec_path).filter((s) => only === null || s === only);
    if (specs.length === 0) ungoverned.push(p);
    else governorsOf.set(p, specs);
  }
  const current = await currentHashes(root, governorsOf.keys(), status, { blobHashes: rec.cache.blobHashes, statHashes: rec.cache.statHashes });
  const reconciled: Array<{ spec: string; path: string; hash: string; blob: string | null; mode: string | null }> = [];
  const fileCache: Array<{ path: string; hash: string }> = [];
  for (const [p, specs] of governorsOf) {
    const hash = current.hashes.get(p) ?? null;
    if (hash === null) continue; // does not exist: skipped silently
    const blob = current.blobs.get(p) ?? null;
    const mode = blob !== null ? (status.get(p)?.mode ?? null) : null;
    for (const spec of specs) reconciled.push({ spec, path: p, hash, blob, mode });
    fileCache.push({ path: p, hash });
  }
  const notMarked = ungoverned.filter((p) => existsSync(join(root, p)));
  if (notMarked.length > 0) {
    const them = notMarked.length === 1 ? "it" : "them";
    options.onWarning?.(`not marked (${only !== null ? `${only} does not govern ${them}` : `no spec governs ${them}`}, or git ignores ${them}): ${notMarked.join(", ")}`);
  }
  if (reconciled.length > 0) {
    const w = await writeCache(root, { reconciled, fileCache, blobHashes: current.newBlobHashes, statHashes: current.newStatHashes, seed: rec.seed });
    if (w.warning !== null) options.onWarning?.(w.warning);
  } else {
    await persistMemo(root, rec.seed, { blobHashes: current.newBlobHashes, statHashes: current.newStatHashes }, options);
  }
  return { updated: fileCache.length };
}
