/**
 * Which objects hold the index version of a path, and an early start on
 * reading them: the hook starts `git cat-file --batch` for the staged
 * documents, transcripts, specs and the configuration before it loads the
 * parser, so git and the module loader work at the same time.
 *
 * A staged path's index version is its staged blob (none when deleted); a
 * path the commit does not touch holds in the index what HEAD holds, so it is
 * read as `HEAD:<path>` — no second read of the index. A staged transcript's
 * HEAD blob is read too (transcripts are append-only against HEAD). When a document or a
 * book manifest is staged, its books are read at the same time (prefetch-books.ts), through
 * the same `git cat-file --batch` process.
 */
import { stagedObjectName } from "./staged-object-name.js";
import { readBlobsAsync } from "../../git/cat-file-batch.js";
import { CatFileSession } from "../../git/cat-file-session.js";
import { checkedPathKind, CONFIG_PATH, relatedPaths } from "../../layout/checked-path.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";
import { prefetchBooks, type BookPrefetch } from "./prefetch-books.js";

/** Staged kinds whose judgement reads the books. */
const BOOKISH = new Set<string | null>(["document", "book"]);

export interface StagedPrefetch {
  /** Paths whose index versions are being read. */
  paths: string[];
  /** Keyed by object name (see staged-object-name.ts). */
  blobs: Promise<Map<string, Buffer | null>>;
  /** The books in the index, when a document or manifest is staged (its books are its context). */
  books?: Promise<BookPrefetch>;
}

export function prefetchStaged(cwd: string, entries: readonly RawDiffEntry[]): StagedPrefetch {
  const staged = new Map(entries.map((e) => [e.path, e]));
  const paths = [...relatedPaths(entries.map((e) => e.path).filter((p) => checkedPathKind(p) !== null)), CONFIG_PATH];
  const names = paths.map((p) => stagedObjectName(staged, p)).filter((n): n is string => n !== null);
  // HEAD's version of each staged transcript, for the append-only check (same batch).
  for (const e of entries) if (e.headOid !== null && checkedPathKind(e.path) === "transcript") names.push(e.headOid);
  if (!entries.some((e) => BOOKISH.has(checkedPathKind(e.path)))) {
    const blobs = readBlobsAsync(cwd, names);
    blobs.catch(() => undefined); // awaited (and its error reported) by checkStaged
    return { paths, blobs };
  }
  // The books are read through the same git process, names written as they are learnt.
  const session = new CatFileSession(cwd);
  const blobs = session.read(names);
  const books = prefetchBooks(cwd, staged, (more) => session.read(more));
  books.then(
    () => session.end(),
    () => session.end(),
  );
  for (const p of [blobs, books]) p.catch(() => undefined); // awaited (and their errors reported) by checkStaged
  return { paths, blobs, books };
}
