/**
 * Text of repository paths as one git source holds them (the index, a
 * commit), read in batches through `git cat-file --batch` and remembered.
 * `objectName` says which object holds a path (`HEAD:<path>`, a blob id, …),
 * or null when the source has none. A blob that is not UTF-8 text is never decoded with U+FFFD
 * in place of its bytes: reading it throws NotUtf8TextError (check-files.ts makes a judged
 * file's refusal its error).
 */
import { readBlobs } from "./cat-file-batch.js";
import { nonTextError, type NotUtf8TextError } from "../fsx/utf8-text.js";
import { decodeUtf8 } from "../fsx/read-text-file.js";

export interface BlobTextReader {
  /** A path's text, or null (read on demand when not prefetched); NotUtf8TextError when its blob is not text. */
  read(path: string): string | null;
  /** Read these paths' texts in one batch. */
  prefetch(paths: readonly string[]): void;
  /** Record blobs already read (by object name) for these paths. */
  seed(paths: readonly string[], blobs: ReadonlyMap<string, Buffer | null>): void;
}

export function blobTextReader(cwd: string, objectName: (path: string) => string | null): BlobTextReader {
  const texts = new Map<string, string | null | NotUtf8TextError>();
  const seed = (paths: readonly string[], blobs: ReadonlyMap<string, Buffer | null>): void => {
    for (const p of paths) {
      const name = objectName(p);
      const b = name === null ? null : blobs.get(name);
      if (b !== undefined) texts.set(p, b === null ? null : (nonTextError(b, p) ?? decodeUtf8(b)));
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
      const text = texts.get(path) ?? null;
      if (text !== null && typeof text !== "string") throw text;
      return text;
    },
    prefetch,
    seed,
  };
}
