/**
 * Pruning, inside a cache write (`write-cache.ts`): rows of files that no longer exist
 * (checked on disk under the lock, so another writer's fresh rows survive), every row of a
 * deleted spec, and — amortised, when most of them are dead — blob-memo rows no live blob needs.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "sql.js";
import { ANY_SPEC, BLOB_HASH_CHUNKS, RECONCILED_CHUNKS, STAT_HASH_CHUNKS } from "./cache-tables.js";
import { countRows, decodeChunkKeys, deleteScope, readChunks, updateChunks } from "./chunk-table.js";
import { batches, selectRows } from "./select-rows.js";

/** What is alive: paths and specs kept without a stat, and (optionally) every blob id still needed. */
export interface CachePrune {
  livePaths: ReadonlySet<string>;
  liveSpecs: ReadonlySet<string>;
  liveBlobs?: ReadonlySet<string>;
}

/** Remove the rows of files and specs that no longer exist (paths in `livePaths` are kept without a stat). */
export function pruneCache(db: Database, root: string, p: CachePrune): void {
  const gone = new Map<string, boolean>();
  const isGone = (path: string): boolean => {
    if (p.livePaths.has(path)) return false;
    let g = gone.get(path);
    if (g === undefined) gone.set(path, (g = !existsSync(join(root, path))));
    return g;
  };
  const specs = new Set<string>();
  const deadBySpec = new Map<string, string[]>();
  for (const c of readChunks(db, RECONCILED_CHUNKS, null, 1)) {
    specs.add(c.scope);
    for (const path of decodeChunkKeys(RECONCILED_CHUNKS, c)) {
      if (!isGone(path)) continue;
      let list = deadBySpec.get(c.scope);
      if (list === undefined) deadBySpec.set(c.scope, (list = []));
      list.push(path);
    }
  }
  for (const spec of specs) {
    if (spec !== ANY_SPEC && !p.liveSpecs.has(spec) && !existsSync(join(root, spec))) {
      deleteScope(db, RECONCILED_CHUNKS, spec);
      deadBySpec.delete(spec);
    }
  }
  for (const [spec, paths] of deadBySpec) updateChunks(db, RECONCILED_CHUNKS, spec, { deletes: paths });
  const deadFileCache = selectRows(db, ["path"], "file_cache")
    .map((r) => r[0]!)
    .filter(isGone);
  for (const b of batches(deadFileCache)) db.run(`DELETE FROM file_cache WHERE path IN (${b.map(() => "?").join(",")})`, b);
  const deadStats: string[] = [];
  for (const c of readChunks(db, STAT_HASH_CHUNKS, null, 1)) for (const path of decodeChunkKeys(STAT_HASH_CHUNKS, c)) if (isGone(path)) deadStats.push(path);
  updateChunks(db, STAT_HASH_CHUNKS, null, { deletes: deadStats });
  if (p.liveBlobs !== undefined) {
    // Amortised: collect only when most memo rows are dead.
    if (countRows(db, BLOB_HASH_CHUNKS) > 2 * p.liveBlobs.size + 1_000) {
      const dead: string[] = [];
      for (const c of readChunks(db, BLOB_HASH_CHUNKS, null, 1)) for (const b of decodeChunkKeys(BLOB_HASH_CHUNKS, c)) if (!p.liveBlobs.has(b)) dead.push(b);
      updateChunks(db, BLOB_HASH_CHUNKS, null, { deletes: dead });
    }
  }
}
