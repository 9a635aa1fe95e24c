/** Where the hash cache lives in a repository, and the lock its writers take turns on. */
export const CACHE_DB_PATH = ".notarai/.cache/notarai.db";
export const CACHE_LOCK_PATH = ".notarai/.cache/notarai.db.lock";
