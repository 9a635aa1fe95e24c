/**
 * How long a writer waits for a lock another process holds, unless told otherwise (ms): the
 * documented default, for the lock itself (with-file-lock.ts) and for the texts that state it
 * (`--lock-timeout`'s help, the configuration's JSON Schema). Dependency-free: the bin's help
 * reads it without loading the lock.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;
