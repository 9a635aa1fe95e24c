/**
 * Which objects hold the index version of a path, and an early start on
 * reading them: the hook starts `git cat-file --batch` for the staged
 * documents, transcripts, specs and the configuration before it loads the
 * parser, so git and the module loader work at the same time.
 *
 * A staged path's index version is its staged blob (none when deleted); a
 * path the commit does not touch holds in the index what HEAD holds, so it is
 * read as `HEAD:<path>` — no second read of the index. A staged transcript's
 * HEAD blob is read too (transcripts are append-only against HEAD).
 */
import { readBlobsAsync } from "../git/cat-file-batch.js";
import { checkedPathKind, CONFIG_PATH, relatedPaths } from "../check/checked-path.js";
import type { RawDiffEntry } from "./parse-diff-raw.js";

export interface StagedPrefetch {
  /** Paths whose index versions are being read. */
  paths: string[];
  /** Keyed by object name (see `stagedObjectName`). */
  blobs: Promise<Map<string, Buffer | null>>;
}

/** The object name of `path`'s index version, or null when the index has none. */
export function stagedObjectName(staged: ReadonlyMap<string, RawDiffEntry>, path: string): string | null {
  const e = staged.get(path);
  return e === undefined ? `HEAD:${path}` : e.oid;
}

export function prefetchStaged(cwd: string, entries: readonly RawDiffEntry[]): StagedPrefetch {
  const staged = new Map(entries.map((e) => [e.path, e]));
  const paths = [...relatedPaths(entries.map((e) => e.path).filter((p) => checkedPathKind(p) !== null)), CONFIG_PATH];
  const names = paths.map((p) => stagedObjectName(staged, p)).filter((n): n is string => n !== null);
  // HEAD's version of each staged transcript, for the append-only check (same batch).
  for (const e of entries) if (e.headOid !== null && checkedPathKind(e.path) === "transcript") names.push(e.headOid);
  const blobs = readBlobsAsync(cwd, names);
  blobs.catch(() => undefined); // awaited (and its error reported) by checkStaged
  return { paths, blobs };
}
