/**
 * Text of repository paths as one git source holds them (the index, a
 * commit), read in batches through `git cat-file --batch` and remembered.
 * `objectName` says which object holds a path (`HEAD:<path>`, a blob id, …),
 * or null when the source has none.
 */
import { readBlobs } from "./cat-file-batch.js";

export interface BlobTextReader {
  /** A path's text, or null (read on demand when not prefetched). */
  read(path: string): string | null;
  /** Read these paths' texts in one batch. */
  prefetch(paths: readonly string[]): void;
  /** Record blobs already read (by object name) for these paths. */
  seed(paths: readonly string[], blobs: ReadonlyMap<string, Buffer | null>): void;
}

export function blobTextReader(cwd: string, objectName: (path: string) => string | null): BlobTextReader {
  const texts = new Map<string, string | null>();
  const seed = (paths: readonly string[], blobs: ReadonlyMap<string, Buffer | null>): void => {
    for (const p of paths) {
      const name = objectName(p);
      const b = name === null ? null : blobs.get(name);
      if (b !== undefined) texts.set(p, b === null ? null : b.toString("utf8"));
    }
  };
  const prefetch = (paths: readonly string[]): void => {
    const wanted = paths.filter((p) => !texts.has(p));
    if (wanted.length === 0) return;
    const names = wanted.map(objectName).filter((n): n is string => n !== null);
    const blobs = readBlobs(cwd, names);
    for (const p of wanted) texts.set(p, null);
    seed(wanted, blobs);
  };
  return {
    read(path) {
      if (!texts.has(path)) prefetch([path]);
      return texts.get(path) ?? null;
    },
    prefetch,
    seed,
  };
}
