/**
 * The stale window of `stale-citation` when neither the run (`--stale-days`), the document nor
 * the block sets one, in days: for the validator and for `--stale-days`' help. Dependency-free:
 * the bin's help reads it without loading the validator.
 */
export const DEFAULT_STALE_DAYS = 365;
