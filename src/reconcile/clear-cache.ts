/**
 * `clear_cache`: forget every reconciliation (and the hash memo), so the next
 * `get_spec_diff` lists every governed changed file. The snapshot is not
 * consulted again after a clear (it would re-seed what was just forgotten).
 */
import { clearCacheDb } from "../cache/write-cache.js";

export interface ClearCacheResult {
  /** true if a cache database existed and was cleared. */
  cleared: boolean;
}

export async function clearCache(root: string): Promise<ClearCacheResult> {
  return { cleared: await clearCacheDb(root) };
}
