/**
 * Reconciliation records (and the hash memo) for a query, seeded from the
 * committed snapshot while the cache has never been seeded.
 */
import { ANY_SPEC } from "../cache/cache-tables.js";
import { readCache, type CacheQuery, type CacheRead } from "../cache/read-cache.js";
import type { ToolOptions } from "./reconcile-context.js";
import { snapshotSeed } from "./snapshot-seed.js";

export interface Reconciliation {
  cache: CacheRead;
  /** Snapshot fingerprints used to seed a cold cache (to persist on the next write), or null. */
  seed: Map<string, string> | null;
}

/**
 * Read reconciliation records (and the hash memo) for a query. A cache that has
 * never been seeded takes the committed snapshot's fingerprints as rows valid
 * for every spec; they count only where the file's current hash matches.
 */
export async function readReconciliation(root: string, query: CacheQuery, options: ToolOptions): Promise<Reconciliation> {
  const cache = await readCache(root, query);
  if (cache.warning !== null) options.onWarning?.(cache.warning);
  if (cache.seeded) return { cache, seed: null };
  const seed = snapshotSeed(root, options);
  if (seed === null) return { cache, seed: null };
  let any = cache.reconciled.get(ANY_SPEC);
  if (any === undefined) cache.reconciled.set(ANY_SPEC, (any = new Map()));
  const wanted = query.paths !== undefined ? new Set(query.paths) : null;
  for (const [p, h] of seed) if (!any.has(p) && (wanted === null || wanted.has(p))) any.set(p, { hash: h, blob: null, updatedAt: 0 });
  return { cache, seed };
}
