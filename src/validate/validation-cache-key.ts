/**
 * When two validations of the same document are bound to give the same diagnostics:
 * a key over the options that shape the result, or null when the result may vary
 * from run to run (a dataset lookup callback reads the filesystem and a book lookup other
 * chapters; stale-citation reads the clock unless `now` is fixed).
 */
import type { NomaDocument } from "../noma/ast.js";
import { validationReadsClock, type ValidateOptions } from "./validate-noma.js";

export function validationCacheKey(doc: NomaDocument, options: ValidateOptions = {}): string | null {
  // Every option is named here, so a new one cannot be forgotten (the rest must be empty).
  const {
    profile,
    ignoreRules,
    staleDays,
    now,
    requireEvidenceForClaims,
    datasetSrcExists,
    cacheBlockFacts: _c,
    previous: _p,
    resolveOutside,
    ...rest
  } = options;
  const none: Record<string, never> = rest;
  if (Object.keys(none).length > 0 || datasetSrcExists !== undefined || resolveOutside !== undefined) return null;
  const clock = validationReadsClock(doc);
  if (clock && now === undefined) return null;
  return JSON.stringify([profile ?? null, ignoreRules ?? null, staleDays ?? null, requireEvidenceForClaims ?? null, clock ? now!.getTime() : null]);
}
